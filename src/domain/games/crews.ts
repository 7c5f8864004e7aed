// Crews: positions added to a game or removed from it after the import (DESIGN "Crews"). The partner's
// `POST /games/{gameId}/positions` and `DELETE /games/{gameId}/positions/{positionId}` and the organizer's
// Add position / Remove position in the app run these, with the partner or the organizer as caller.
import { MAX_POSITIONS_PER_GAME, type AddPositionInput, type GameDetail } from '../../schemas/games.js'
import * as positions from '../../store/positions.js'
import { isoNow } from '../../clock.js'
import { requireGame } from '../core/access.js'
import { checkSource, type Caller } from '../core/caller.js'
import type { Deps } from '../core/deps.js'
import { fail } from '../core/errors.js'
import { domainEvent, recordEvents } from '../core/events.js'
import { lockGame } from './game-locks.js'
import { refreshGameStatus } from './game-status.js'
import { newPositionRow } from './batch-plan.js'
import { loadGameDetail } from '../core/views.js'

/**
 * Rows a game may carry, cancelled ones included: removing and adding again cannot grow a game without
 * bound (every position is in each of its events and in every mail's crew).
 */
const MAX_POSITION_ROWS_PER_GAME = 3 * MAX_POSITIONS_PER_GAME

/**
 * A new open position on a game that is neither cancelled nor completed (`game_closed`): a claimed game
 * becomes open again. A crew holds at most MAX_POSITIONS_PER_GAME positions that are not cancelled, as an
 * import does (`too_many_positions`). Emits `game.updated` with the Game.
 */
export async function addPosition(
  deps: Deps,
  caller: Caller,
  gameId: string,
  input: AddPositionInput,
): Promise<GameDetail> {
  checkSource(caller, input.source)
  return deps.db.transaction().execute(async (trx) => {
    await requireGame(trx, caller, gameId)
    const { game, positions: crew } = await lockGame(trx, gameId)
    if (game.status === 'cancelled' || game.status === 'completed') fail('game_closed')
    const live = crew.filter((p) => p.status !== 'cancelled').length
    if (live >= MAX_POSITIONS_PER_GAME || crew.length >= MAX_POSITION_ROWS_PER_GAME)
      fail('too_many_positions')
    const at = isoNow(deps.clock)
    await positions.insertPositions(trx, [newPositionRow(game.id, input, at)])
    const updated = await refreshGameStatus(trx, game, at)
    const detail = await loadGameDetail(trx, updated)
    await recordEvents(trx, [domainEvent('game.updated', game.league_id, asGame(detail))], at)
    return detail
  })
}

/**
 * Cancels an open position (`position_not_open` otherwise); the game's last position that is not
 * cancelled stays (`last_position`: cancel the game instead). The game's status rolls up again (an open
 * game whose other positions are all claimed becomes claimed). Emits `game.updated` with the Game.
 */
export async function removePosition(
  deps: Deps,
  caller: Caller,
  gameId: string,
  positionId: string,
): Promise<GameDetail> {
  return deps.db.transaction().execute(async (trx) => {
    await requireGame(trx, caller, gameId)
    const { game, positions: crew } = await lockGame(trx, gameId)
    const position = crew.find((p) => p.id === positionId) ?? fail('position_not_found')
    if (position.status !== 'open' || game.status === 'cancelled') fail('position_not_open')
    if (crew.filter((p) => p.status !== 'cancelled').length <= 1) fail('last_position')
    const at = isoNow(deps.clock)
    await positions.transitionPositions(trx, [position.id], 'open', 'cancelled', at)
    const detail = await loadGameDetail(trx, await refreshGameStatus(trx, game, at))
    await recordEvents(trx, [domainEvent('game.updated', game.league_id, asGame(detail))], at)
    return detail
  })
}

/** The Game view of a GameDetail: positions without their official and payment. */
function asGame(detail: GameDetail) {
  const { positions: list, ...summary } = detail
  return {
    ...summary,
    positions: list.map(({ official: _official, payment: _payment, ...position }) => position),
  }
}
