import type { Kysely } from 'kysely'
import type { Caller } from '../domain/caller.js'
import { leagueInScope } from './scope.js'
import type { Db, GameRow, GameStatus } from './tables.js'

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

/** A game whose league is in the caller's scope. */
export function findGameInScope(db: Kysely<Db>, caller: Caller, id: string): Promise<GameRow | undefined> {
  return db
    .selectFrom('games')
    .innerJoin('leagues', 'leagues.id', 'games.league_id')
    .select(gameColumns)
    .where('games.id', '=', id)
    .where(leagueInScope(caller))
    .executeTakeFirst()
}

export function findGame(db: Kysely<Db>, id: string): Promise<GameRow | undefined> {
  return db.selectFrom('games').selectAll().where('id', '=', id).executeTakeFirst()
}

/** Games of a league by `startsAt` ascending; insertion order breaks ties. */
export function listGames(db: Kysely<Db>, leagueId: string): Promise<GameRow[]> {
  return db
    .selectFrom('games')
    .selectAll()
    .where('league_id', '=', leagueId)
    .orderBy('starts_at')
    .orderBy('seq')
    .execute()
}

export async function setGameStatus(
  db: Kysely<Db>,
  id: string,
  status: GameStatus,
  at: string,
): Promise<void> {
  await db.updateTable('games').set({ status, updated_at: at }).where('id', '=', id).execute()
}
