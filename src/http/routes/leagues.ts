import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import type { Deps } from '../../domain/deps.js'
import { getLeague, listLeagues, updateLeague, upsertLeague } from '../../domain/leagues.js'
import { DataEnvelope } from '../../schemas/common.js'
import {
  League,
  LeagueDetail,
  LeagueListItem,
  LeagueParams,
  UpdateLeagueBody,
  UpsertLeagueBody,
} from '../../schemas/leagues.js'
import { z } from 'zod'
import { errorResponses } from '../openapi.js'

const tags = ['leagues']

export const leagueRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  app.get(
    '/leagues',
    {
      schema: {
        operationId: 'listLeagues',
        tags,
        summary: 'List leagues in scope, newest first, with game and member counts',
        response: { 200: DataEnvelope(z.array(LeagueListItem)), ...errorResponses() },
      },
    },
    async (request) => ({ data: await listLeagues(deps, request.caller) }),
  )

  app.post(
    '/leagues',
    {
      schema: {
        operationId: 'upsertLeague',
        tags,
        summary: 'Create a league, or upsert it on (source, externalId)',
        body: UpsertLeagueBody,
        response: {
          201: DataEnvelope(League),
          ...errorResponses(
            'invalid_json',
            'name_required',
            'source_reserved',
            'source_mismatch',
            'invalid_name',
            'invalid_currency',
            'invalid_source',
            'invalid_externalId',
          ),
        },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await upsertLeague(deps, request.caller, request.body) }),
  )

  app.get(
    '/leagues/:leagueId',
    {
      schema: {
        operationId: 'getLeague',
        tags,
        summary: 'A league with its games (by startsAt) and officials',
        params: LeagueParams,
        response: { 200: DataEnvelope(LeagueDetail), ...errorResponses('league_not_found') },
      },
    },
    async (request) => ({ data: await getLeague(deps, request.caller, request.params.leagueId) }),
  )

  app.patch(
    '/leagues/:leagueId',
    {
      schema: {
        operationId: 'updateLeague',
        tags,
        summary: 'Update name, paymentMode or currency; only provided keys apply',
        params: LeagueParams,
        body: UpdateLeagueBody,
        response: {
          200: DataEnvelope(League),
          ...errorResponses(
            'invalid_json',
            'name_required',
            'invalid_name',
            'invalid_currency',
            'league_not_found',
          ),
        },
      },
    },
    async (request) => ({
      data: await updateLeague(deps, request.caller, request.params.leagueId, request.body),
    }),
  )
}
