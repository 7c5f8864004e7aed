// Game locks: whoever changes a game's positions locks them first (store/positions.lockPositions), so
// concurrent writers queue per game and each status rollup reads settled rows.
import type { Transaction } from 'kysely'
import * as games from '../../store/games.js'
import * as positions from '../../store/positions.js'
import type { Db, GameRow, PositionRow } from '../../store/tables.js'
import { fail } from '../core/errors.js'

/** Locks the games' positions, then reads the games afresh: their status may have moved while we waited. */
export async function lockGames(
  trx: Transaction<Db>,
  gameIds: readonly string[],
): Promise<{ games: GameRow[]; positions: PositionRow[] }> {
  const locked = await positions.lockPositions(trx, gameIds)
  const rows = await Promise.all(
    gameIds.map(async (id) => (await games.findGame(trx, id)) ?? fail('game_not_found')),
  )
  return { games: rows, positions: locked }
}

export async function lockGame(
  trx: Transaction<Db>,
  gameId: string,
): Promise<{ game: GameRow; positions: PositionRow[] }> {
  const locked = await lockGames(trx, [gameId])
  return { game: locked.games[0] ?? fail('game_not_found'), positions: locked.positions }
}
