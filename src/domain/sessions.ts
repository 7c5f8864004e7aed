// The person behind a session cookie. A person is an email address: one session acts for every user row that
// carries it, whichever partner created the row (docs/decisions.md).
import { isoNow } from '../clock.js'
import * as sessions from '../store/sessions.js'
import type { PersonCaller } from './caller.js'
import type { Deps } from './deps.js'
import { DEFAULT_TIME_ZONE } from './profiles.js'
import { hashSecret, isSecretToken } from './secret-tokens.js'

/** The person a session acts for: a caller of every service, with how the app shows them their pages. */
export interface Person extends PersonCaller {
  readonly timeZone: string
  /** Whether the person organizes a league: the app shows them its organizer pages. */
  readonly organizes: boolean
}

export async function findPerson(deps: Deps, sessionToken: unknown): Promise<Person | undefined> {
  if (!isSecretToken(sessionToken)) return undefined
  const row = await sessions.findLiveSession(deps.db, hashSecret(sessionToken), isoNow(deps.clock))
  if (!row) return undefined
  return {
    kind: 'person',
    email: row.email,
    userIds: row.user_ids,
    timeZone: row.time_zone ?? DEFAULT_TIME_ZONE,
    organizes: row.organizes,
  }
}

/** Sign-out: the session stops working everywhere at once, whatever the browser does with its cookie. */
export async function endSession(deps: Deps, sessionToken: unknown): Promise<void> {
  if (!isSecretToken(sessionToken)) return
  await sessions.deleteSession(deps.db, hashSecret(sessionToken))
}
