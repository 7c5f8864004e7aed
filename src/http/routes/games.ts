import type { FastifySchemaCompiler } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z, type ZodType } from 'zod'
import type { Deps } from '../../domain/deps.js'
import { cancelGame, getGame, listGames, updateGame, upsertGames } from '../../domain/games.js'
import { DataEnvelope } from '../../schemas/common.js'
import {
  Game,
  GameDetail,
  GameParams,
  UpdateGameBody,
  UpsertGamesBody,
  UpsertGamesEnvelope,
} from '../../schemas/games.js'
import { LeagueParams } from '../../schemas/leagues.js'
import { errorResponses } from '../openapi.js'
import { validatorCompiler } from '../validation.js'

const tags = ['games']

// The document shows the whole item schema, but only the envelope is checked up front: the service parses
// items one by one, so a bad item still leaves the valid items before it persisted.
const envelopeOnly = (route: Parameters<FastifySchemaCompiler<unknown>>[0]) =>
  validatorCompiler({
    ...route,
    schema: route.httpPart === 'body' ? UpsertGamesEnvelope : (route.schema as ZodType),
  })

export const gameRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  app.get(
    '/leagues/:leagueId/games',
    {
      schema: {
        operationId: 'listGames',
        tags,
        summary: 'Games of a league by startsAt ascending, with their positions',
        params: LeagueParams,
        response: { 200: DataEnvelope(z.array(Game)), ...errorResponses('league_not_found') },
      },
    },
    async (request) => ({ data: await listGames(deps, request.caller, request.params.leagueId) }),
  )

  app.post(
    '/leagues/:leagueId/games',
    {
      validatorCompiler: envelopeOnly,
      schema: {
        operationId: 'upsertGames',
        tags,
        summary: 'Batch-create games (1 to 500), upserting those with an externalId',
        description:
          'Games are processed in order. The first failing game is the answer, and the games before it stay persisted with their game.created events; re-posting the corrected batch is safe when every game has an externalId. A new game gets one open position. An upsert-update rewrites only the sport, startsAt, location, latitude and longitude the item carries.',
        params: LeagueParams,
        body: UpsertGamesBody,
        response: {
          201: DataEnvelope(z.object({ created: z.array(Game) })),
          ...errorResponses(
            'invalid_json',
            'no_games',
            'too_many_games',
            'source_reserved',
            'source_mismatch',
            'invalid_source',
            'invalid_startsAt',
            'invalid_sport',
            'invalid_location',
            'invalid_label',
            'invalid_payDollars',
            'invalid_latitude',
            'invalid_longitude',
            'invalid_externalId',
            'league_not_found',
            'external_id_conflict',
          ),
        },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send({ data: await upsertGames(deps, request.caller, request.params.leagueId, request.body) }),
  )

  app.get(
    '/games/:gameId',
    {
      schema: {
        operationId: 'getGame',
        tags,
        summary: 'A game with each position’s official and payment',
        params: GameParams,
        response: { 200: DataEnvelope(GameDetail), ...errorResponses('game_not_found') },
      },
    },
    async (request) => ({ data: await getGame(deps, request.caller, request.params.gameId) }),
  )

  app.patch(
    '/games/:gameId',
    {
      schema: {
        operationId: 'updateGame',
        tags,
        summary: 'Update sport, startsAt or location; only provided keys apply, status is refused',
        params: GameParams,
        body: UpdateGameBody,
        response: {
          200: DataEnvelope(Game),
          ...errorResponses(
            'invalid_json',
            'status_not_updatable',
            'invalid_sport',
            'invalid_startsAt',
            'invalid_location',
            'game_not_found',
          ),
        },
      },
    },
    async (request) => ({
      data: await updateGame(deps, request.caller, request.params.gameId, request.body),
    }),
  )

  app.delete(
    '/games/:gameId',
    {
      schema: {
        operationId: 'cancelGame',
        tags,
        summary: 'Cancel a game: open positions are cancelled, claims and payments kept',
        params: GameParams,
        response: { 200: DataEnvelope(GameDetail), ...errorResponses('game_not_found') },
      },
    },
    async (request) => ({ data: await cancelGame(deps, request.caller, request.params.gameId) }),
  )
}
