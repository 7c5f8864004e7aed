// Sessions of the app, by the SHA-256 of their cookie token, and the person each one signs in.
import { sql, type Kysely } from 'kysely'
import { personZone } from './people.js'
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
  /** When the session was last used (its creation until then). */
  last_seen_at: string
  /** The person's zone (`personZone`): chosen on Profile, else their first league's. */
  time_zone: string | null
  /** Every user row with the session's address, oldest first. */
  user_ids: string[]
  /** Whether one of those users organizes a league. */
  organizes: boolean
}

/**
 * A live session (unexpired, and used after `idleSince`) with its person's profile and user rows, in one
 * round trip.
 */
export async function findLiveSession(
  db: Kysely<Db>,
  tokenHash: string,
  at: string,
  idleSince: string,
): Promise<SessionPersonRows | undefined> {
  const lastSeen = sql<string>`coalesce(sessions.last_seen_at, sessions.created_at)`
  const rows = await db
    .selectFrom('sessions')
    .leftJoin('users', 'users.email', 'sessions.email')
    .select(['sessions.email', 'sessions.expires_at', 'users.id as user_id'])
    .select(lastSeen.as('last_seen_at'))
    .select(personZone('sessions.email').as('time_zone'))
    .select((eb) =>
      eb
        .exists(
          eb.selectFrom('leagues').select('leagues.id').whereRef('leagues.organizer_id', '=', 'users.id'),
        )
        .as('organizes'),
    )
    .where('sessions.token_hash', '=', tokenHash)
    .where('sessions.expires_at', '>', at)
    .where(lastSeen, '>', idleSince)
    .orderBy('users.seq')
    .execute()
  const [first] = rows
  if (!first) return undefined
  return {
    email: first.email,
    expires_at: first.expires_at,
    last_seen_at: first.last_seen_at,
    time_zone: first.time_zone,
    user_ids: rows.flatMap((r) => (r.user_id === null ? [] : [r.user_id])),
    // SQLite answers EXISTS with 0 or 1, PostgreSQL with a boolean.
    organizes: rows.some((r) => Boolean(r.organizes)),
  }
}

/** Records that the session was used at `at`. */
export async function touchSession(db: Kysely<Db>, tokenHash: string, at: string): Promise<void> {
  await db.updateTable('sessions').set({ last_seen_at: at }).where('token_hash', '=', tokenHash).execute()
}

/** Every session of the address: sign out everywhere. */
export async function deleteSessionsOf(db: Kysely<Db>, email: string): Promise<number> {
  const result = await db.deleteFrom('sessions').where('email', '=', email).executeTakeFirst()
  return Number(result.numDeletedRows)
}

export async function deleteSession(db: Kysely<Db>, tokenHash: string): Promise<void> {
  await db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute()
}

export async function deleteSessionsExpiredBefore(db: Kysely<Db>, at: string): Promise<void> {
  await db.deleteFrom('sessions').where('expires_at', '<=', at).execute()
}
