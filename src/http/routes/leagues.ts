import { z } from 'zod'
import { getLeague, listLeagues, updateLeague, upsertLeague } from '../../domain/leagues.js'
import {
  League,
  LeagueDetail,
  LeagueListItem,
  LeagueParams,
  UpdateLeagueBody,
  UpsertLeagueBody,
} from '../../schemas/leagues.js'
import { defineOperation } from '../operation.js'

const tags = ['leagues']

export const listLeaguesOperation = defineOperation({
  method: 'GET',
  path: '/leagues',
  operationId: 'listLeagues',
  tags,
  summary: 'List leagues in scope, newest first, with game and member counts',
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
  body: UpsertLeagueBody,
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
  ],
  handle: (deps, { caller, body }) => upsertLeague(deps, caller, body),
})

export const getLeagueOperation = defineOperation({
  method: 'GET',
  path: '/leagues/{leagueId}',
  operationId: 'getLeague',
  tags,
  summary: 'A league with its games (by startsAt) and officials',
  params: LeagueParams,
  data: LeagueDetail,
  errors: ['league_not_found'],
  handle: (deps, { caller, params }) => getLeague(deps, caller, params.leagueId),
})

export const updateLeagueOperation = defineOperation({
  method: 'PATCH',
  path: '/leagues/{leagueId}',
  operationId: 'updateLeague',
  tags,
  summary: 'Update name, paymentMode or currency; only provided keys apply',
  params: LeagueParams,
  body: UpdateLeagueBody,
  data: League,
  errors: ['invalid_json', 'name_required', 'invalid_name', 'invalid_currency', 'league_not_found'],
  handle: (deps, { caller, params, body }) => updateLeague(deps, caller, params.leagueId, body),
})

export const leagueOperations = [
  listLeaguesOperation,
  upsertLeagueOperation,
  getLeagueOperation,
  updateLeagueOperation,
]
