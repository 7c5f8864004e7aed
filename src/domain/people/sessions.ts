// The person behind a session cookie. A person is an email address: one session acts for every user row that
// carries it, whichever partner created the row (docs/decisions.md).
import * as sessions from '../../store/sessions.js'
import type { PersonCaller } from '../core/caller.js'
import type { Deps } from '../core/deps.js'
import { DEFAULT_TIME_ZONE } from './profiles.js'
import { hashSecret, isSecretToken } from '../core/secret-tokens.js'
import { iso, MINUTE_MS } from '../../time.js'

/** The person a session acts for: a caller of every service, with how the app shows them their pages. */
export interface Person extends PersonCaller {
  readonly timeZone: string
  /** Whether the person organizes a league: the app shows them its organizer pages. */
  readonly organizes: boolean
}

/** A session's last use is written at most this often: a person browsing costs one write a minute. */
const TOUCH_EVERY_MS = MINUTE_MS

/**
 * The person of a live session: unexpired, and used within `idleMs` (to the minute; no idle limit when
 * undefined). Using it keeps it alive.
 */
export async function findPerson(
  deps: Deps,
  sessionToken: unknown,
  idleMs?: number,
): Promise<Person | undefined> {
  if (!isSecretToken(sessionToken)) return undefined
  const now = deps.clock.now()
  const at = iso(now)
  const idleSince = idleMs === undefined ? '' : iso(now - idleMs)
  const tokenHash = hashSecret(sessionToken)
  const row = await sessions.findLiveSession(deps.db, tokenHash, at, idleSince)
  if (!row) return undefined
  if (row.last_seen_at <= iso(now - TOUCH_EVERY_MS)) {
    await sessions.touchSession(deps.db, tokenHash, at)
  }
  return {
    kind: 'person',
    email: row.email,
    userIds: row.user_ids,
    timeZone: row.time_zone ?? DEFAULT_TIME_ZONE,
    organizes: row.organizes,
  }
}

/** Sign out everywhere: every session of the person ends at once, this one included. */
export async function endAllSessions(deps: Deps, person: PersonCaller): Promise<void> {
  await sessions.deleteSessionsOf(deps.db, person.email)
}

/** Sign-out: the session stops working everywhere at once, whatever the browser does with its cookie. */
export async function endSession(deps: Deps, sessionToken: unknown): Promise<void> {
  if (!isSecretToken(sessionToken)) return
  await sessions.deleteSession(deps.db, hashSecret(sessionToken))
}
