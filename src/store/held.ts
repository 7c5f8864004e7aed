// What a person (an email address, every user row carrying it) holds across every league and partner, as
// the conflict rules weigh it, and the per-person lock that serializes their claims.
import { sql, type Kysely, type Transaction } from 'kysely'
import { isPostgres } from './dialect.js'
import type { Db } from './tables.js'

export interface HeldRow {
  email: string
  league_id: string
  game_id: string
  starts_at: string
  ends_at: string
  /** When the holder joined the game's league; null: not joined, so it counts inside that league only. */
  joined_at: string | null
  location: string
  venue: string | null
}

/**
 * Positions held (claimed or worked) in games that are not cancelled, by any user row of these persons, in
 * any league, whose [start, end) overlaps [from, to), each with whether its holder joined that league.
 */
export async function listHeldByEmails(
  db: Kysely<Db>,
  emails: readonly string[],
  window: { from: string; to: string },
): Promise<HeldRow[]> {
  if (emails.length === 0) return []
  return db
    .selectFrom('claims')
    .innerJoin('users', 'users.id', 'claims.user_id')
    .innerJoin('positions', 'positions.id', 'claims.position_id')
    .innerJoin('games', 'games.id', 'positions.game_id')
    .leftJoin('memberships', (join) =>
      join
        .onRef('memberships.league_id', '=', 'games.league_id')
        .onRef('memberships.user_id', '=', 'claims.user_id'),
    )
    .select([
      'users.email',
      'games.league_id',
      'games.id as game_id',
      'games.starts_at',
      'games.ends_at',
      'memberships.confirmed_at as joined_at',
      'games.location',
      'games.venue',
    ])
    .where('users.email', 'in', emails)
    .where('positions.status', 'in', ['claimed', 'completed'])
    .where('games.status', '!=', 'cancelled')
    .where('games.starts_at', '<', window.to)
    .where('games.ends_at', '>', window.from)
    .orderBy('games.starts_at')
    .orderBy('games.seq')
    .execute()
}

/**
 * Holds the person's lock until the transaction ends, so two claims for one person check and write one
 * after the other (a PostgreSQL advisory lock; SQLite's IMMEDIATE transaction already excludes every other
 * writer).
 */
export async function lockPerson(trx: Transaction<Db>, email: string): Promise<void> {
  if (isPostgres(trx))
    await sql`select pg_advisory_xact_lock(hashtextextended(${`person:${email}`}, 0))`.execute(trx)
}
