// A game's status is the rollup of its positions (cancellation excepted: a cancelled game stays cancelled).
import type { Transaction } from 'kysely'
import * as games from '../../store/games.js'
import { listPositions } from '../../store/positions.js'
import type { Db, GameRow, GameStatus, PositionStatus } from '../../store/tables.js'

export function rollupStatus(current: GameStatus, positions: readonly PositionStatus[]): GameStatus {
  if (current === 'cancelled') return 'cancelled'
  if (positions.includes('open')) return 'open'
  if (positions.includes('claimed')) return 'claimed'
  if (positions.includes('completed')) return 'completed'
  // Only cancelled positions left (every worked slot was a no-show): the game keeps what it was.
  return current
}

/** Recomputes and stores the game's status after its positions changed (at `at`); returns the fresh row. */
export async function refreshGameStatus(trx: Transaction<Db>, game: GameRow, at: string): Promise<GameRow> {
  const positions = await listPositions(trx, [game.id])
  const status = rollupStatus(
    game.status,
    positions.map((p) => p.status),
  )
  if (status === game.status) return game
  await games.setGameStatus(trx, game.id, status, at)
  return { ...game, status, updated_at: at }
}
