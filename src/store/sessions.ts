// Sessions of the app, by the SHA-256 of their cookie token, and the person each one signs in.
import type { Kysely } from 'kysely'
import type { Db } from './tables.js'

export async function insertSession(
  db: Kysely<Db>,
  row: { token_hash: string; email: string; created_at: string; expires_at: string },
): Promise<void> {
  await db.insertInto('sessions').values(row).execute()
}

export interface SessionPersonRows {
  email: string
  expires_at: string
  time_zone: string | null
  /** Every user row with the session's address, oldest first. */
  user_ids: string[]
  /** Whether one of those users organizes a league. */
  organizes: boolean
}

/** A live session with its person's profile and user rows, in one round trip. */
export async function findLiveSession(
  db: Kysely<Db>,
  tokenHash: string,
  at: string,
): Promise<SessionPersonRows | undefined> {
  const rows = await db
    .selectFrom('sessions')
    .leftJoin('profiles', 'profiles.email', 'sessions.email')
    .leftJoin('users', 'users.email', 'sessions.email')
    .select(['sessions.email', 'sessions.expires_at', 'profiles.time_zone', 'users.id as user_id'])
    .select((eb) =>
      eb
        .exists(
          eb.selectFrom('leagues').select('leagues.id').whereRef('leagues.organizer_id', '=', 'users.id'),
        )
        .as('organizes'),
    )
    .where('sessions.token_hash', '=', tokenHash)
    .where('sessions.expires_at', '>', at)
    .orderBy('users.seq')
    .execute()
  const [first] = rows
  if (!first) return undefined
  return {
    email: first.email,
    expires_at: first.expires_at,
    time_zone: first.time_zone,
    user_ids: rows.flatMap((r) => (r.user_id === null ? [] : [r.user_id])),
    // SQLite answers EXISTS with 0 or 1, PostgreSQL with a boolean.
    organizes: rows.some((r) => Boolean(r.organizes)),
  }
}

export async function deleteSession(db: Kysely<Db>, tokenHash: string): Promise<void> {
  await db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute()
}

export async function deleteSessionsExpiredBefore(db: Kysely<Db>, at: string): Promise<void> {
  await db.deleteFrom('sessions').where('expires_at', '<=', at).execute()
}
