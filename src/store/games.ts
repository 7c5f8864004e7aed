import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely'
import { insertRows } from './bulk.js'
import { isPostgres } from './dialect.js'
import { prepared } from './prepared.js'
import { leagueInScope, scopeParams, type Scope, type ScopeParams } from './scope.js'
import type { Db, GameRow, GameStatus, GameUpdate, NewGame, PositionRow } from './tables.js'

const gameColumns = [
  'games.seq',
  'games.id',
  'games.league_id',
  'games.source',
  'games.external_id',
  'games.sport',
  'games.starts_at',
  'games.location',
  'games.venue',
  'games.latitude',
  'games.longitude',
  'games.status',
  'games.created_at',
  'games.updated_at',
  'games.duration_minutes',
  'games.ends_at',
] as const

const gameInScope = prepared((db, p: ScopeParams & { id: string }) =>
  db
    .selectFrom('games')
    .innerJoin('leagues', 'leagues.id', 'games.league_id')
    .select(gameColumns)
    .where('games.id', '=', p.id)
    .where(leagueInScope(p)),
)

/** A game whose league is in the scope. */
export function findGameInScope(db: Kysely<Db>, scope: Scope, id: string): Promise<GameRow | undefined> {
  if (scope.kind === 'partner') return gameInScope.takeFirst(db, { ...scopeParams(scope), id })
  if (scope.kind === 'console') return findGame(db, id)
  return db
    .selectFrom('games')
    .innerJoin('leagues', 'leagues.id', 'games.league_id')
    .select(gameColumns)
    .where('games.id', '=', id)
    .where(leagueInScope(scope))
    .executeTakeFirst()
}

const gameById = prepared((db, p: { id: string }) =>
  db.selectFrom('games').selectAll().where('id', '=', p.id),
)

export function findGame(db: Kysely<Db>, id: string): Promise<GameRow | undefined> {
  return gameById.takeFirst(db, { id })
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

/** A game's position as the crew column of `lockGamesByExternalId` carries it. */
type CrewEntry = [string, string, number, PositionRow['status'], number | null, string, string]

/**
 * The games with these (source, externalId) pairs, locked until the transaction ends (on PostgreSQL), with
 * their positions in creation order: an import's answer and events carry the crews of the games it names.
 * One read: each game's positions come as one JSON array built by the database, which costs less than
 * a second query's row per position.
 */
export async function lockGamesByExternalId(
  trx: Transaction<Db>,
  source: string,
  externalIds: readonly string[],
): Promise<{ games: GameRow[]; positions: Omit<PositionRow, 'seq'>[] }> {
  if (externalIds.length === 0) return { games: [], positions: [] }
  const postgres = isPostgres(trx)
  const entry = sql`p.id, p.label, p.pay_cents, p.status, p.min_level, p.created_at, p.updated_at`
  // PostgreSQL's driver parses the json column; SQLite's gives its text.
  const crew: RawBuilder<CrewEntry[] | string> = postgres
    ? sql`(select coalesce(json_agg(json_build_array(${entry}) order by p.seq), '[]'::json) from positions p where p.game_id = games.id)`
    : sql`(select json_group_array(json_array(${entry}) order by p.seq) from positions p where p.game_id = games.id)`
  // Locked in `seq` order, the same for every caller, so two overlapping batches queue instead of deadlocking.
  const query = trx
    .selectFrom('games')
    .selectAll()
    .select(crew.as('crew'))
    .where('source', '=', source)
    .where('external_id', 'in', externalIds)
    .orderBy('seq')
  const rows = await (postgres ? query.forUpdate() : query).execute()
  const games: GameRow[] = []
  const positions: Omit<PositionRow, 'seq'>[] = []
  for (const { crew: list, ...game } of rows) {
    games.push(game)
    const entries = (typeof list === 'string' ? JSON.parse(list) : list) as CrewEntry[]
    for (const [id, label, pay_cents, status, min_level, created_at, updated_at] of entries)
      positions.push({ id, game_id: game.id, label, pay_cents, status, min_level, created_at, updated_at })
  }
  return { games, positions }
}

const GAME_COLUMNS = [
  'id',
  'league_id',
  'source',
  'external_id',
  'sport',
  'starts_at',
  'location',
  'venue',
  'latitude',
  'longitude',
  'status',
  'created_at',
  'updated_at',
  'duration_minutes',
  'ends_at',
] as const

/**
 * Inserts new games in few statements. A (source, externalId) pair that another transaction inserted
 * since this one looked fails the statement with a unique violation.
 */
/** How many games the league holds, cancelled ones included. */
export async function countLeagueGames(db: Kysely<Db> | Transaction<Db>, leagueId: string): Promise<number> {
  const row = await db
    .selectFrom('games')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('league_id', '=', leagueId)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

export async function insertGames(trx: Transaction<Db>, rows: readonly NewGame[]): Promise<void> {
  await insertRows(trx, 'games', GAME_COLUMNS, rows)
}

/**
 * Rewrites existing games' sport, startsAt, location, coordinates and updated_at in one statement. Rows
 * name existing pairs, so every row takes the DO UPDATE branch; a pair of another league's game would be
 * left untouched.
 */
export async function rewriteGames(trx: Transaction<Db>, rows: readonly NewGame[]): Promise<void> {
  if (rows.length === 0) return
  await trx
    .insertInto('games')
    .values(rows)
    .onConflict((oc) =>
      oc
        .columns(['source', 'external_id'])
        .doUpdateSet((eb) => ({
          sport: eb.ref('excluded.sport'),
          starts_at: eb.ref('excluded.starts_at'),
          location: eb.ref('excluded.location'),
          venue: eb.ref('excluded.venue'),
          latitude: eb.ref('excluded.latitude'),
          longitude: eb.ref('excluded.longitude'),
          duration_minutes: eb.ref('excluded.duration_minutes'),
          ends_at: eb.ref('excluded.ends_at'),
          updated_at: eb.ref('excluded.updated_at'),
        }))
        .where((eb) => eb('games.league_id', '=', eb.ref('excluded.league_id'))),
    )
    .execute()
}

/**
 * The next page of the league's games without their own length (by `seq`, after `afterSeq`) ends `minutes`
 * after it starts: the league's gameMinutes changed. Answers each game before and after, so the caller
 * can tell partners and holders page by page; the arithmetic is each database's, in the stored format.
 */
export async function rewriteDefaultEndsPage(
  trx: Transaction<Db>,
  p: { leagueId: string; minutes: number; afterSeq: number; limit: number; at: string },
): Promise<{ before: GameRow[]; after: GameRow[] }> {
  const before = await trx
    .selectFrom('games')
    .select(gameColumns)
    .where('league_id', '=', p.leagueId)
    .where('duration_minutes', 'is', null)
    .where('seq', '>', p.afterSeq)
    .orderBy('seq')
    .limit(p.limit)
    .execute()
  if (before.length === 0) return { before, after: [] }
  const span = `+${Math.trunc(p.minutes)} minutes`
  const end = isPostgres(trx)
    ? sql<string>`to_char((starts_at::timestamptz + ${span}::interval) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
    : sql<string>`strftime('%Y-%m-%dT%H:%M:%fZ', starts_at, ${span})`
  const rewritten = await trx
    .updateTable('games')
    .set({ ends_at: end, updated_at: p.at })
    .where(
      'id',
      'in',
      before.map((g) => g.id),
    )
    .returningAll()
    .execute()
  const byId = new Map(rewritten.map((g) => [g.id, g]))
  return { before, after: before.map((g) => byId.get(g.id)!) }
}

export function updateGame(
  db: Kysely<Db>,
  id: string,
  changes: Pick<GameUpdate, 'sport' | 'starts_at' | 'location' | 'duration_minutes' | 'ends_at'> & {
    updated_at: string
  },
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
