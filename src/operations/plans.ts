// The assignor's operations (issue 26), RefDesk extensions: candidates for a position, plans as drafts,
// publishing a plan. Each has an MCP tool (DESIGN "Extensions beyond the spec").
import { z } from 'zod'
import { createPlan, editPlan, getPlan, publishPlan } from '../domain/plans/assignment-plans.js'
import { listCandidates } from '../domain/plans/candidates.js'
import { GameParams } from '../schemas/games.js'
import { LeagueParams } from '../schemas/leagues.js'
import {
  AssignmentPlan,
  Candidate,
  CandidatesQuery,
  CreatePlanBody,
  EditPlanBody,
  PlanParams,
  PublishOutcome,
  PublishPlanBody,
} from '../schemas/plans.js'
import { defineOperation } from './operation.js'

const tags = ['assignor']

export const listCandidatesOperation = defineOperation({
  method: 'GET',
  path: '/games/{gameId}/candidates',
  operationId: 'listCandidates',
  tags,
  extension: true,
  summary:
    'Rank the league’s approved officials for one position of a game, with the rules that exclude the others',
  description:
    'Eligible officials first, best first: higher level above the position’s minimum, shorter distance from their home point to the game, fewer games held within 7 days either side. Each official that a conflict rule excludes lists its codes in `reasons` (schedule_conflict, official_unavailable, daily_limit_reached, level_too_low). Without `positionId`, the game’s first open position (else its first). Reads only.',
  responseDescription: 'The league’s approved officials, eligible first, best first.',
  params: GameParams,
  query: CandidatesQuery,
  data: z.array(Candidate),
  errors: ['game_not_found', 'position_not_found'],
  handle: (deps, { caller, params, query }) => listCandidates(deps, caller, params.gameId, query.positionId),
})

export const createPlanOperation = defineOperation({
  method: 'POST',
  path: '/leagues/{leagueId}/assignment-plans',
  operationId: 'createAssignmentPlan',
  tags,
  extension: true,
  summary: 'Plan the assigning of the open positions of a window, as a draft (nothing is assigned yet)',
  description:
    'The plan fills as many of the open positions of the league’s games starting in [from, to) (default: from now, 14 days; at most 31) as any assignment that keeps every conflict rule could, then, among those, as many of the games’ leads (each game’s first position that is not cancelled), then prefers level margin, shorter travel and an even spread of games. Between games at one venue (or one location, where neither has a venue) no travel buffer applies, only that they do not overlap. Each proposal’s `why` names its deciding terms; each unfilled position’s `reasons` say which rule excluded how many officials, naming the first 20. `stats.optimal` is false when the solver’s time ran out and a greedy plan answers. One plan at a time per league (409 plan_in_progress while one is being made); positions × officials at most 1,000,000 (409 plan_too_large); a league keeps its 10 newest drafts. Publish it with POST /assignment-plans/{planId}/publish.',
  responseDescription: 'The draft plan (201).',
  status: 201,
  params: LeagueParams,
  body: CreatePlanBody,
  requestExample: { from: '2030-05-04T00:00:00.000Z', to: '2030-05-06T00:00:00.000Z' },
  data: AssignmentPlan,
  errors: [
    'invalid_json',
    'invalid_from',
    'invalid_to',
    'league_not_found',
    'plan_in_progress',
    'plan_too_large',
  ],
  handle: (deps, { caller, params, body }) => createPlan(deps, caller, params.leagueId, body),
})

export const getPlanOperation = defineOperation({
  method: 'GET',
  path: '/assignment-plans/{planId}',
  operationId: 'getAssignmentPlan',
  tags,
  extension: true,
  summary: 'Read an assignment plan: its proposals, unfilled positions, stats and, once published, outcome',
  params: PlanParams,
  data: AssignmentPlan,
  errors: ['plan_not_found'],
  handle: (deps, { caller, params }) => getPlan(deps, caller, params.planId),
})

const editPlanOperation = defineOperation({
  method: 'PATCH',
  path: '/assignment-plans/{planId}',
  operationId: 'editAssignmentPlan',
  tags,
  extension: true,
  summary: 'Edit a draft plan: remove proposals, propose other officials (each checked against every rule)',
  description:
    'First `remove` (each a proposal’s position: it becomes unfilled with reason `removed`), then each `set` in order (a position of the plan, proposed or unfilled, and one of the league’s approved officials). Each `set` is checked against every conflict rule with the league’s settings (schedule_conflict, official_unavailable, daily_limit_reached, level_too_low), the official’s turnback of the game (withdrew) and their other proposals of the plan as if they held them (one position a game, the travel buffer, the daily limit): the first refusal answers its code and nothing changes. A published plan is not edited (409 plan_already_published); an edit that lost the race to another answers 409 plan_changed.',
  responseDescription: 'The edited draft.',
  params: PlanParams,
  body: EditPlanBody,
  requestExample: { remove: ['tz4a98xxat96iws9zmbrgj3a'], set: [{ positionId: 'pos_1', userId: 'usr_1' }] },
  data: AssignmentPlan,
  errors: [
    'invalid_json',
    'invalid_remove',
    'invalid_set',
    'plan_not_found',
    'not_a_league_official',
    'schedule_conflict',
    'official_unavailable',
    'daily_limit_reached',
    'level_too_low',
    'withdrew',
    'plan_already_published',
    'plan_changed',
  ],
  handle: (deps, { caller, params, body }) => editPlan(deps, caller, params.planId, body),
})

export const publishPlanOperation = defineOperation({
  method: 'POST',
  path: '/assignment-plans/{planId}/publish',
  operationId: 'publishAssignmentPlan',
  tags,
  extension: true,
  summary: 'Publish a draft plan: assign each proposal, skipping (never forcing) those no longer valid',
  description:
    'Each proposal (or only those `positionIds` names), soonest first, goes through the race-safe assign after the conflict rules are checked again: `assigned` lists the positions now held (each emits position.claimed), `skipped` the others with the error that stopped them (position_taken, position_not_open, game_started, not_a_league_official, schedule_conflict, …). A plan publishes once, also when only some of its proposals were named: the others are not assigned. The body is optional.',
  responseDescription: 'What was assigned and what was skipped, with why.',
  params: PlanParams,
  body: PublishPlanBody,
  data: PublishOutcome,
  errors: ['invalid_json', 'invalid_positionIds', 'plan_not_found', 'plan_already_published'],
  handle: (deps, { caller, params, body }) => publishPlan(deps, caller, params.planId, body),
})

export const planOperations = [
  listCandidatesOperation,
  createPlanOperation,
  getPlanOperation,
  editPlanOperation,
  publishPlanOperation,
]
