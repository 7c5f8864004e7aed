import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { Deps } from '../../domain/deps.js'
import { listOfficials, removeOfficial, upsertOfficial } from '../../domain/officials.js'
import { DataEnvelope } from '../../schemas/common.js'
import { LeagueParams } from '../../schemas/leagues.js'
import { Official, OfficialParams, UpsertOfficialBody } from '../../schemas/officials.js'
import { errorResponses } from '../openapi.js'

const tags = ['officials']

export const officialRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  app.get(
    '/leagues/:leagueId/officials',
    {
      schema: {
        operationId: 'listOfficials',
        tags,
        summary: 'List the league’s officials in every status, oldest first',
        params: LeagueParams,
        response: { 200: DataEnvelope(z.array(Official)), ...errorResponses('league_not_found') },
      },
    },
    async (request) => ({ data: await listOfficials(deps, request.caller, request.params.leagueId) }),
  )

  app.post(
    '/leagues/:leagueId/officials',
    {
      schema: {
        operationId: 'upsertOfficial',
        tags,
        summary: 'Add an official or re-approve one, upserting the user on (source, externalId)',
        description:
          'Idempotent. A new membership emits official.joined, an existing one (denied included) official.approved.',
        params: LeagueParams,
        body: UpsertOfficialBody,
        response: {
          201: DataEnvelope(Official),
          ...errorResponses(
            'invalid_json',
            'externalId_required',
            'invalid_externalId',
            'source_reserved',
            'source_mismatch',
            'invalid_source',
            'invalid_email',
            'invalid_name',
            'league_not_found',
            'user_is_organizer',
          ),
        },
      },
    },
    async (request, reply) =>
      reply.status(201).send({
        data: await upsertOfficial(deps, request.caller, request.params.leagueId, request.body),
      }),
  )

  app.delete(
    '/leagues/:leagueId/officials/:userId',
    {
      schema: {
        operationId: 'removeOfficial',
        tags,
        summary: 'Remove an official from the league, reopening every position they hold',
        description:
          'Positions in status claimed are reopened and their claims deleted (in a cancelled game they become cancelled: a cancelled game never has an open position). Worked and no-show positions keep their claims. Emits official.removed.',
        params: OfficialParams,
        response: {
          200: DataEnvelope(z.object({ removed: z.literal(true) })),
          ...errorResponses('league_not_found', 'not_a_member', 'not_an_official'),
        },
      },
    },
    async (request) => {
      await removeOfficial(deps, request.caller, request.params.leagueId, request.params.userId)
      return { data: { removed: true as const } }
    },
  )
}
