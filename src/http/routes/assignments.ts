import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { assignPosition, listAssignments, unassignPosition } from '../../domain/assignments.js'
import type { Deps } from '../../domain/deps.js'
import { fail } from '../../domain/errors.js'
import { DataEnvelope } from '../../schemas/common.js'
import { AssignBody, Assignment, GameDetail, GameParams, UnassignQuery } from '../../schemas/games.js'
import { LeagueParams } from '../../schemas/leagues.js'
import { errorResponses } from '../openapi.js'

const tags = ['assignments']

export const assignmentRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  app.get(
    '/leagues/:leagueId/assignments',
    {
      schema: {
        operationId: 'listAssignments',
        tags,
        summary: 'List every position holding a claim, with its game, official and payment, by game start',
        description: 'Claimed, completed and no-show (cancelled with the claim kept) positions.',
        params: LeagueParams,
        response: { 200: DataEnvelope(z.array(Assignment)), ...errorResponses('league_not_found') },
      },
    },
    async (request) => ({ data: await listAssignments(deps, request.caller, request.params.leagueId) }),
  )

  app.post(
    '/games/:gameId/assign',
    {
      schema: {
        operationId: 'assignPosition',
        tags,
        summary: 'Assign an approved official to a position (default: the first open one)',
        description:
          'Not idempotent. Race-safe: losing a concurrent claim answers 409 position_taken. Emits position.claimed.',
        params: GameParams,
        body: AssignBody,
        response: {
          200: DataEnvelope(GameDetail),
          ...errorResponses(
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
          ),
        },
      },
    },
    async (request) => ({
      data: await assignPosition(deps, request.caller, request.params.gameId, request.body),
    }),
  )

  app.delete(
    '/games/:gameId/assign',
    {
      schema: {
        operationId: 'unassignPosition',
        tags,
        summary: 'Unassign a position: delete its claim and reopen it',
        description:
          'In a cancelled game the position becomes cancelled instead of open: a cancelled game never has an open position. Emits position.released.',
        params: GameParams,
        querystring: UnassignQuery,
        response: {
          200: DataEnvelope(GameDetail),
          ...errorResponses(
            'positionId_required',
            'game_not_found',
            'position_not_found',
            'position_not_claimed',
          ),
        },
      },
    },
    async (request) => {
      const positionId = request.query.positionId ?? fail('positionId_required')
      return { data: await unassignPosition(deps, request.caller, request.params.gameId, positionId) }
    },
  )
}
