import { z } from 'zod'
import { readOfficialAvailability } from '../domain/availability/availability.js'
import { listOfficials, removeOfficial, upsertOfficial } from '../domain/leagues/officials.js'
import { AvailabilityQuery, BusyInterval } from '../schemas/availability.js'
import { LeagueParams } from '../schemas/leagues.js'
import { Official, OfficialParams, UpsertOfficialBody } from '../schemas/officials.js'
import { defineOperation } from './operation.js'

const tags = ['officials']

export const listOfficialsOperation = defineOperation({
  method: 'GET',
  path: '/leagues/{leagueId}/officials',
  operationId: 'listOfficials',
  unbounded: true,
  tags,
  summary: 'List the league’s officials in every status, oldest first',
  description: 'Memberships with role official: pending, approved and denied. Not paginated.',
  responseDescription: 'The officials, oldest first.',
  params: LeagueParams,
  data: z.array(Official),
  errors: ['league_not_found'],
  handle: (deps, { caller, params }) => listOfficials(deps, caller, params.leagueId),
})

export const upsertOfficialOperation = defineOperation({
  method: 'POST',
  path: '/leagues/{leagueId}/officials',
  operationId: 'upsertOfficial',
  tags,
  summary: 'Add an official or re-approve one, upserting the user on (source, externalId)',
  description:
    'Idempotent. A new membership emits official.joined, an existing one (denied included) official.approved.',
  responseDescription: 'The membership after the upsert.',
  params: LeagueParams,
  body: UpsertOfficialBody,
  requestExample: { externalId: 'ref-7', name: 'Sam Whistle', email: 'sam@example.com' },
  status: 201,
  data: Official,
  errors: [
    'invalid_json',
    'externalId_required',
    'invalid_externalId',
    'source_reserved',
    'source_mismatch',
    'invalid_source',
    'invalid_email',
    'invalid_name',
    'invalid_level',
    'league_not_found',
    'user_is_organizer',
  ],
  handle: (deps, { caller, params, body }) => upsertOfficial(deps, caller, params.leagueId, body),
})

export const removeOfficialOperation = defineOperation({
  method: 'DELETE',
  path: '/leagues/{leagueId}/officials/{userId}',
  operationId: 'removeOfficial',
  tags,
  summary: 'Remove an official from the league, reopening every position they hold',
  description:
    'Positions in status claimed are reopened and their claims deleted (in a cancelled game they become cancelled: a cancelled game never has an open position). Worked and no-show positions keep their claims. Emits official.removed.',
  responseDescription: 'Always `{"removed": true}`.',
  params: OfficialParams,
  data: z.object({ removed: z.literal(true) }),
  errors: ['league_not_found', 'not_a_member', 'not_an_official'],
  async handle(deps, { caller, params }) {
    await removeOfficial(deps, caller, params.leagueId, params.userId)
    return { removed: true as const }
  },
})

const officialAvailabilityOperation = defineOperation({
  method: 'GET',
  path: '/leagues/{leagueId}/officials/{userId}/availability',
  operationId: 'getOfficialAvailability',
  tags,
  extension: true,
  summary: 'Read when an official of the league is busy: merged intervals, with no detail of why',
  description:
    'Busy intervals overlapping [from, to) (both required; at most 62 days apart), merged from every source the person has: their blackouts, weekly unavailability (in their time zone), busy calendars, and the positions they hold in any league of any partner. Nothing says which source, game, league or partner an interval comes from. Reads only.',
  responseDescription: 'The busy intervals, soonest first, none overlapping or touching another.',
  params: OfficialParams,
  query: AvailabilityQuery,
  data: z.array(BusyInterval),
  errors: ['invalid_from', 'invalid_to', 'league_not_found', 'not_a_member'],
  handle: (deps, { caller, params, query }) =>
    readOfficialAvailability(deps, caller, params.leagueId, params.userId, query),
})

export const officialOperations = [listOfficialsOperation, upsertOfficialOperation, removeOfficialOperation]

/** RefDesk's extension on officials (no MCP tool). */
export const officialExtensionOperations = [officialAvailabilityOperation]
