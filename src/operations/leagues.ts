import { z } from 'zod'
import {
  getLeague,
  listLeagues,
  streamLeague,
  updateLeague,
  upsertLeague,
} from '../domain/leagues/leagues.js'
import {
  League,
  LeagueDetail,
  LeagueListItem,
  LeagueParams,
  UpdateLeagueBody,
  UpsertLeagueBody,
} from '../schemas/leagues.js'
import { defineOperation } from './operation.js'

const tags = ['leagues']

export const listLeaguesOperation = defineOperation({
  method: 'GET',
  path: '/leagues',
  operationId: 'listLeagues',
  unbounded: true,
  tags,
  summary: 'List leagues in scope, newest first, with game and member counts',
  description:
    'Every league of your source plus the leagues granted to your key, newest first. Not paginated.',
  responseDescription: 'The leagues, newest first, each with `gameCount` and `memberCount`.',
  data: z.array(LeagueListItem),
  errors: [],
  handle: (deps, { caller }) => listLeagues(deps, caller),
})

export const upsertLeagueOperation = defineOperation({
  method: 'POST',
  path: '/leagues',
  operationId: 'upsertLeague',
  tags,
  summary: 'Create a league, or upsert it on (source, externalId)',
  description:
    'With an `externalId` the call is an upsert on (source, externalId), safe to repeat: an existing league gets the new name and the paymentMode, currency and settings you send (those you leave out keep their stored values). Without one it always creates. Answers 201 either way. Emits no webhook.',
  responseDescription: 'The league as stored.',
  body: UpsertLeagueBody,
  requestExample: {
    name: 'Metro Youth Soccer',
    externalId: 'league-1',
    paymentMode: 'offline',
    currency: 'usd',
  },
  status: 201,
  data: League,
  errors: [
    'invalid_json',
    'name_required',
    'source_reserved',
    'source_mismatch',
    'invalid_name',
    'invalid_currency',
    'invalid_source',
    'invalid_externalId',
    'invalid_timeZone',
    'invalid_gameMinutes',
    'invalid_travelBufferMinutes',
    'invalid_maxGamesPerDay',
    'invalid_conflictPolicy',
  ],
  handle: (deps, { caller, body }) => upsertLeague(deps, caller, body),
})

export const getLeagueOperation = defineOperation({
  method: 'GET',
  path: '/leagues/{leagueId}',
  operationId: 'getLeague',
  unbounded: true,
  tags,
  summary: 'A league with its games (by startsAt) and officials',
  description:
    'Games come by startsAt ascending with their positions; officials are the memberships with role official, in every status.',
  responseDescription: 'The league with `games` and `officials`.',
  params: LeagueParams,
  data: LeagueDetail,
  errors: ['league_not_found'],
  handle: (deps, { caller, params }) => getLeague(deps, caller, params.leagueId),
  stream: (deps, { caller, params }) => streamLeague(deps, caller, params.leagueId),
})

export const updateLeagueOperation = defineOperation({
  method: 'PATCH',
  path: '/leagues/{leagueId}',
  operationId: 'updateLeague',
  tags,
  summary: 'Update name, paymentMode, currency or settings; only provided keys apply',
  description:
    'Keys you leave out keep their value; `paymentMode` is normalized as on create (anything but platform is offline). `source` may be omitted or echo your key’s own (else 400 source_mismatch). Emits no webhook.',
  responseDescription: 'The league after the update.',
  params: LeagueParams,
  body: UpdateLeagueBody,
  requestExample: { name: 'Metro Youth Soccer (Spring)', currency: 'usd' },
  data: League,
  errors: [
    'invalid_json',
    'name_required',
    'invalid_name',
    'invalid_currency',
    'invalid_source',
    'invalid_timeZone',
    'invalid_gameMinutes',
    'invalid_travelBufferMinutes',
    'invalid_maxGamesPerDay',
    'invalid_conflictPolicy',
    'source_reserved',
    'source_mismatch',
    'league_not_found',
  ],
  handle: (deps, { caller, params, body }) => updateLeague(deps, caller, params.leagueId, body),
})

export const leagueOperations = [
  listLeaguesOperation,
  upsertLeagueOperation,
  getLeagueOperation,
  updateLeagueOperation,
]
