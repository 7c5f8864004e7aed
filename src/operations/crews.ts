// Crews (extensions): add a position to a game, remove an open one.
import { addPosition, removePosition } from '../domain/games/crews.js'
import { AddPositionBody, GameDetail, GameParams, GamePositionParams } from '../schemas/games.js'
import { defineOperation } from './operation.js'

const tags = ['games']

const addPositionOperation = defineOperation({
  method: 'POST',
  path: '/games/{gameId}/positions',
  operationId: 'addPosition',
  tags,
  summary: 'Add a position to a game’s crew',
  description:
    'A new open position (`label` default `Official`, `payDollars` default 0, `minLevel` default null) on a game that is neither cancelled nor completed (else 409 game_closed). A crew holds at most 10 positions that are not cancelled, and a game 30 position rows in all (else 409 too_many_positions). A claimed game becomes open again. `source` may be omitted or echo your key’s own (else 400 source_mismatch). Emits game.updated with the Game.',
  responseDescription: 'The game after the change, with each position’s official and payment.',
  params: GameParams,
  body: AddPositionBody,
  requestExample: { label: 'Assistant Referee', payDollars: 30, minLevel: 2 },
  status: 201,
  data: GameDetail,
  extension: true,
  errors: [
    'invalid_json',
    'invalid_label',
    'invalid_payDollars',
    'invalid_minLevel',
    'invalid_source',
    'source_reserved',
    'source_mismatch',
    'game_not_found',
    'game_closed',
    'too_many_positions',
  ],
  handle: (deps, { caller, params, body }) => addPosition(deps, caller, params.gameId, body),
})

const removePositionOperation = defineOperation({
  method: 'DELETE',
  path: '/games/{gameId}/positions/{positionId}',
  operationId: 'removePosition',
  tags,
  summary: 'Remove an open position from a game’s crew',
  description:
    'The open position becomes cancelled (409 position_not_open for one that is claimed, completed or cancelled). The game’s last position that is not cancelled cannot be removed (409 last_position): cancel the game instead. The game’s status rolls up again. Emits game.updated with the Game.',
  responseDescription: 'The game after the change, with each position’s official and payment.',
  params: GamePositionParams,
  data: GameDetail,
  extension: true,
  errors: ['game_not_found', 'position_not_found', 'position_not_open', 'last_position'],
  handle: (deps, { caller, params }) => removePosition(deps, caller, params.gameId, params.positionId),
})

export const crewOperations = [addPositionOperation, removePositionOperation]
