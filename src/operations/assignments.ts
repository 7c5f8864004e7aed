import { z } from 'zod'
import { listAssignments, streamAssignments } from '../domain/assignments/assignment-list.js'
import { assignPosition, unassignPosition } from '../domain/assignments/assignments.js'
import { requireGame } from '../domain/core/access.js'
import { fail } from '../domain/core/errors.js'
import { recheck } from '../domain/partners/idempotency.js'
import { AssignBody, Assignment, GameDetail, GameParams, UnassignQuery } from '../schemas/games.js'
import { LeagueParams } from '../schemas/leagues.js'
import { defineOperation } from './operation.js'

const tags = ['assignments']

export const listAssignmentsOperation = defineOperation({
  method: 'GET',
  path: '/leagues/{leagueId}/assignments',
  operationId: 'listAssignments',
  unbounded: true,
  tags,
  summary: 'List every position holding a claim, with its game, official and payment, by game start',
  description:
    'Claimed, completed and no-show (cancelled with the claim kept) positions, by game start ascending, each with its game, official and payment.',
  responseDescription: 'The assignments by game start ascending.',
  params: LeagueParams,
  data: z.array(Assignment),
  errors: ['league_not_found'],
  handle: (deps, { caller, params }) => listAssignments(deps, caller, params.leagueId),
  stream: (deps, { caller, params }) => streamAssignments(deps, caller, params.leagueId),
})

export const assignPositionOperation = defineOperation({
  method: 'POST',
  path: '/games/{gameId}/assign',
  operationId: 'assignPosition',
  tags,
  summary: 'Assign an approved official to a position (default: the first open one they qualify for)',
  description:
    'Names the official by `userId`, or by `externalId` (and `source`). Race-safe: losing a concurrent claim answers 409 position_taken, and another position is a safe follow-up. A position whose minLevel is above the official’s level answers 409 level_too_low; when the league’s conflictPolicy is `refuse`, an official who holds a game too close to this one (any league; travelBufferMinutes apart at least), is unavailable then, or already holds the league’s maxGamesPerDay that day answers 409 schedule_conflict, official_unavailable or daily_limit_reached, naming nothing of the other game. Send an `Idempotency-Key` to retry safely after an ambiguous failure. Emits position.claimed.',
  responseDescription: 'The game after the claim, with each position’s official and payment (200, not 201).',
  idempotencyKey: ({ params }) => recheck((trx, caller) => requireGame(trx, caller, params.gameId)),
  params: GameParams,
  body: AssignBody,
  requestExample: { userId: 'uee7uqzs81u7sq4e4az49b4c' },
  data: GameDetail,
  errors: [
    'invalid_json',
    'externalId_required',
    'invalid_externalId',
    'invalid_userId',
    'invalid_positionId',
    'source_reserved',
    'source_mismatch',
    'invalid_source',
    'game_not_found',
    'official_not_found',
    'position_not_found',
    'not_a_league_official',
    'position_taken',
    'position_not_open',
    'no_open_position',
    'level_too_low',
    'schedule_conflict',
    'official_unavailable',
    'daily_limit_reached',
  ],
  handle: (deps, { caller, params, body }) => assignPosition(deps, caller, params.gameId, body),
})

export const unassignPositionOperation = defineOperation({
  method: 'DELETE',
  path: '/games/{gameId}/assign',
  operationId: 'unassignPosition',
  tags,
  summary: 'Unassign a position: delete its claim and reopen it',
  description:
    'The query `positionId` is required. In a cancelled game the position becomes cancelled instead of open: a cancelled game never has an open position. Emits position.released.',
  responseDescription: 'The game after the release, with each position’s official and payment.',
  params: GameParams,
  query: UnassignQuery,
  data: GameDetail,
  errors: ['positionId_required', 'game_not_found', 'position_not_found', 'position_not_claimed'],
  handle: (deps, { caller, params, query }) =>
    unassignPosition(deps, caller, params.gameId, query.positionId ?? fail('positionId_required')),
})

export const assignmentOperations = [
  listAssignmentsOperation,
  assignPositionOperation,
  unassignPositionOperation,
]
