import type { Kysely, Transaction } from 'kysely'
import { isPostgres } from './dialect.js'
import type { Caller } from '../domain/caller.js'
import { prepared } from './prepared.js'
import { leagueInScope, scopeParams, type Scope } from './scope.js'
import type { Db, GameRow, GameStatus, GameUpdate, NewGame } from './tables.js'

const gameColumns = [
  'games.seq',
  'games.id',
  'games.league_id',
  'games.source',
  'games.external_id',
  'games.sport',
  'games.starts_at',
  'games.location',
  'games.latitude',
  'games.longitude',
  'games.status',
  'games.created_at',
  'games.updated_at',
] as const

const gameInScope = prepared((db, p: Scope & { id: string }) =>
  db
    .selectFrom('games')
    .innerJoin('leagues', 'leagues.id', 'games.league_id')
    .select(gameColumns)
    .where('games.id', '=', p.id)
    .where(leagueInScope(p)),
)

/** A game whose league is in the caller's scope. */
export function findGameInScope(db: Kysely<Db>, caller: Caller, id: string): Promise<GameRow | undefined> {
  if (caller.kind === 'app') return findGame(db, id)
  return gameInScope.takeFirst(db, { ...scopeParams(caller), id })
}

export function findGame(db: Kysely<Db>, id: string): Promise<GameRow | undefined> {
  return db.selectFrom('games').selectAll().where('id', '=', id).executeTakeFirst()
}

const gamesOfLeague = prepared((db, p: { leagueId: string }) =>
  db.selectFrom('games').selectAll().where('league_id', '=', p.leagueId).orderBy('starts_at').orderBy('seq'),
)

/** Games of a league by `startsAt` ascending; insertion order breaks ties. */
export function listGames(db: Kysely<Db>, leagueId: string): Promise<GameRow[]> {
  return gamesOfLeague.execute(db, { leagueId })
}

export async function setGameStatus(
  db: Kysely<Db>,
  id: string,
  status: GameStatus,
  at: string,
): Promise<void> {
  await db.updateTable('games').set({ status, updated_at: at }).where('id', '=', id).execute()
}

/** Conditional status change (compare-and-set): the updated game, or undefined when it was not in `from`. */
export function transitionGameStatus(
  db: Kysely<Db>,
  id: string,
  from: GameStatus,
  to: GameStatus,
  at: string,
): Promise<GameRow | undefined> {
  return db
    .updateTable('games')
    .set({ status: to, updated_at: at })
    .where('id', '=', id)
    .where('status', '=', from)
    .returningAll()
    .executeTakeFirst()
}

/** The games with these (source, externalId) pairs, locked until the transaction ends (on PostgreSQL). */
export function lockGamesByExternalId(
  trx: Transaction<Db>,
  source: string,
  externalIds: readonly string[],
): Promise<GameRow[]> {
  if (externalIds.length === 0) return Promise.resolve([])
  // Locked in `seq` order, the same for every caller, so two overlapping batches queue instead of deadlocking.
  const query = trx
    .selectFrom('games')
    .selectAll()
    .where('source', '=', source)
    .where('external_id', 'in', externalIds)
    .orderBy('seq')
  return (isPostgres(trx) ? query.forUpdate() : query).execute()
}

// Bounded so one statement stays under SQLite's and PostgreSQL's bind-parameter limits.
const WRITE_CHUNK = 500

/**
 * Writes the games, at most one per (source, externalId), in few statements. A new pair is inserted; an
 * existing pair in the same league gets the row's sport, startsAt, location and coordinates; an existing
 * pair in another league is left untouched and missing from the result.
 */
export async function upsertGames(db: Kysely<Db>, rows: readonly NewGame[]): Promise<GameRow[]> {
  const written: GameRow[] = []
  for (let i = 0; i < rows.length; i += WRITE_CHUNK) {
    const chunk = await db
      .insertInto('games')
      .values(rows.slice(i, i + WRITE_CHUNK))
      .onConflict((oc) =>
        oc
          .columns(['source', 'external_id'])
          .doUpdateSet((eb) => ({
            sport: eb.ref('excluded.sport'),
            starts_at: eb.ref('excluded.starts_at'),
            location: eb.ref('excluded.location'),
            latitude: eb.ref('excluded.latitude'),
            longitude: eb.ref('excluded.longitude'),
            updated_at: eb.ref('excluded.updated_at'),
          }))
          .whereRef('games.league_id', '=', 'excluded.league_id'),
      )
      .returningAll()
      .execute()
    written.push(...chunk)
  }
  return written
}

export function updateGame(
  db: Kysely<Db>,
  id: string,
  changes: Pick<GameUpdate, 'sport' | 'starts_at' | 'location'> & { updated_at: string },
): Promise<GameRow> {
  return db.updateTable('games').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow()
}

/** Marks the game cancelled unless it already is; undefined when it was (or a concurrent cancel won). */
export function cancelGameIfActive(db: Kysely<Db>, id: string, at: string): Promise<GameRow | undefined> {
  return db
    .updateTable('games')
    .set({ status: 'cancelled', updated_at: at })
    .where('id', '=', id)
    .where('status', '!=', 'cancelled')
    .returningAll()
    .executeTakeFirst()
}
