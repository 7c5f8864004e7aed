// The person behind a session cookie. A person is an email address: one session acts for every user row that
// carries it, whichever partner created the row (docs/decisions.md).
import * as sessions from '../store/sessions.js'
import type { Deps } from './deps.js'
import { DEFAULT_TIME_ZONE } from './profiles.js'
import { hashSecret, isSecretToken } from './secret-tokens.js'

export interface Person {
  readonly email: string
  /** The user rows with this address, oldest first: partners' officials and keys' organizers alike. */
  readonly userIds: readonly string[]
  readonly timeZone: string
  /** Whether the person organizes a league: the app shows them its organizer pages. */
  readonly organizes: boolean
}

export async function findPerson(deps: Deps, sessionToken: unknown, now: Date): Promise<Person | undefined> {
  if (!isSecretToken(sessionToken)) return undefined
  const row = await sessions.findLiveSession(deps.db, hashSecret(sessionToken), now.toISOString())
  if (!row) return undefined
  return {
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
