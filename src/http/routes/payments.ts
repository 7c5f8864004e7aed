import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { Deps } from '../../domain/deps.js'
import { listPayments } from '../../domain/payments.js'
import { DataEnvelope } from '../../schemas/common.js'
import { LeagueParams } from '../../schemas/leagues.js'
import { Payment } from '../../schemas/payments.js'
import { errorResponses } from '../openapi.js'

export const paymentRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  app.get(
    '/leagues/:leagueId/payments',
    {
      schema: {
        operationId: 'listPayments',
        tags: ['payments'],
        summary: 'The league’s payout ledger, newest first (read-only)',
        params: LeagueParams,
        response: { 200: DataEnvelope(z.array(Payment)), ...errorResponses('league_not_found') },
      },
    },
    async (request) => ({ data: await listPayments(deps, request.caller, request.params.leagueId) }),
  )
}
