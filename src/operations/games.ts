import { z } from 'zod'
import { requireLeague } from '../domain/core/access.js'
import {
  cancelGame,
  getGame,
  listGames,
  streamGames,
  updateGame,
  upsertGames,
} from '../domain/games/games.js'
import { recheck } from '../domain/partners/idempotency.js'
import {
  Game,
  GameDetail,
  GameParams,
  UpdateGameBody,
  UpsertGamesBody,
  UpsertGamesEnvelope,
} from '../schemas/games.js'
import { LeagueParams } from '../schemas/leagues.js'
import { defineOperation } from './operation.js'

const tags = ['games']

export const listGamesOperation = defineOperation({
  method: 'GET',
  path: '/leagues/{leagueId}/games',
  operationId: 'listGames',
  unbounded: true,
  tags,
  summary: 'Games of a league by startsAt ascending, with their positions',
  description: 'Every game of the league, positions included (without officials or payments). Not paginated.',
  responseDescription: 'The games by startsAt ascending.',
  params: LeagueParams,
  data: z.array(Game),
  errors: ['league_not_found'],
  handle: (deps, { caller, params }) => listGames(deps, caller, params.leagueId),
  stream: (deps, { caller, params }) => streamGames(deps, caller, params.leagueId),
})

export const upsertGamesOperation = defineOperation({
  method: 'POST',
  path: '/leagues/{leagueId}/games',
  operationId: 'upsertGames',
  tags,
  summary: 'Batch-create games (1 to 500), upserting those with an externalId',
  description:
    'Games are processed in order. The first failing game is the answer, and the games before it stay persisted with their game.created events; re-posting the corrected batch is safe when every game has an externalId. A new game gets one open position, or its crew when the item carries `positions` (an extension). An upsert-update rewrites only the sport, startsAt, location, latitude, longitude and durationMinutes the item carries. With an `Idempotency-Key` a retry replays the first answer instead of running the batch again.',
  responseDescription:
    'Every game of the batch as it stood after its item, in the order sent (an upsert-update included).',
  idempotencyKey: ({ params }) => recheck((trx, caller) => requireLeague(trx, caller, params.leagueId)),
  params: LeagueParams,
  body: UpsertGamesBody,
  requestExample: {
    games: [
      {
        externalId: 'g-1',
        startsAt: '2026-05-02T15:00:00Z',
        sport: 'soccer',
        location: 'Field 1',
        payDollars: 45,
        label: 'Referee',
      },
      {
        externalId: 'g-2',
        startsAt: '2026-05-02T17:00:00Z',
        sport: 'soccer',
        location: 'Field 2',
        venue: 'Riverside Park',
        payDollars: 45,
        latitude: 40.7128,
        longitude: -74.006,
      },
    ],
  },
  // The document shows the whole item schema, but only the envelope is checked up front: the service parses
  // items one by one, so a bad item still leaves the valid items before it persisted.
  bodyCheck: UpsertGamesEnvelope,
  status: 201,
  data: z.object({ created: z.array(Game) }),
  errors: [
    'invalid_json',
    'no_games',
    'too_many_games',
    'source_reserved',
    'source_mismatch',
    'invalid_source',
    'invalid_startsAt',
    'invalid_sport',
    'invalid_location',
    'invalid_venue',
    'invalid_label',
    'invalid_payDollars',
    'invalid_latitude',
    'invalid_longitude',
    'invalid_externalId',
    'invalid_durationMinutes',
    'invalid_positions',
    'invalid_minLevel',
    'league_not_found',
    'external_id_conflict',
    'games_limit_reached',
  ],
  handle: (deps, { caller, params, body }) =>
    upsertGames(deps, caller, params.leagueId, body as z.output<typeof UpsertGamesEnvelope>),
})

export const getGameOperation = defineOperation({
  method: 'GET',
  path: '/games/{gameId}',
  operationId: 'getGame',
  tags,
  summary: 'A game with each position’s official and payment',
  description:
    'A position’s `official` is independent of its status: a cancelled position can keep its official (a no-show record).',
  responseDescription: 'The game with each position’s `official` and `payment`.',
  params: GameParams,
  data: GameDetail,
  errors: ['game_not_found'],
  handle: (deps, { caller, params }) => getGame(deps, caller, params.gameId),
})

export const updateGameOperation = defineOperation({
  method: 'PATCH',
  path: '/games/{gameId}',
  operationId: 'updateGame',
  tags,
  summary: 'Update sport, startsAt or location; only provided keys apply, status is refused',
  description:
    'Supplying `status` (any value) answers 400 status_not_updatable and applies nothing. `source` may be omitted or echo your key’s own (else 400 source_mismatch). A patch that changes something emits game.updated; one that changes nothing emits nothing.',
  responseDescription: 'The game after the update (positions without officials or payments).',
  params: GameParams,
  body: UpdateGameBody,
  requestExample: { startsAt: '2026-05-02T16:00:00Z', location: 'Field 3' },
  data: Game,
  errors: [
    'invalid_json',
    'status_not_updatable',
    'invalid_sport',
    'invalid_startsAt',
    'invalid_location',
    'invalid_durationMinutes',
    'invalid_source',
    'source_reserved',
    'source_mismatch',
    'game_not_found',
  ],
  handle: (deps, { caller, params, body }) => updateGame(deps, caller, params.gameId, body),
})

export const cancelGameOperation = defineOperation({
  method: 'DELETE',
  path: '/games/{gameId}',
  operationId: 'cancelGame',
  tags,
  summary: 'Cancel a game: open positions are cancelled, claims and payments kept',
  description:
    'Not idempotent in the spec’s sense, but harmless to repeat: cancelling a cancelled game answers its current state and emits nothing. Otherwise emits game.cancelled.',
  responseDescription: 'The game after the cancellation, with each position’s official and payment.',
  params: GameParams,
  data: GameDetail,
  errors: ['game_not_found'],
  handle: (deps, { caller, params }) => cancelGame(deps, caller, params.gameId),
})

export const gameOperations = [
  listGamesOperation,
  upsertGamesOperation,
  getGameOperation,
  updateGameOperation,
  cancelGameOperation,
]
