import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { EVENT_NAMES } from '../../domain/events.js'
import { DataEnvelope } from '../../schemas/common.js'
import { IndexDoc } from '../../schemas/index-doc.js'
import { errorResponses } from '../openapi.js'

/** Filled by the v1 plugin's onRoute hook: `METHOD /path` of every partner operation. */
export type EndpointList = string[]

const NOTES = {
  scope:
    'A key reads and writes only leagues of its source plus leagues granted to it; anything else answers 404 exactly like a nonexistent id.',
  source:
    'Omit `source` in bodies or echo your own; `app` is reserved (source_reserved), anything else is source_mismatch.',
  idempotency:
    'POST /leagues, POST /leagues/{leagueId}/games and POST /leagues/{leagueId}/officials upsert on (source, externalId) and are safe to repeat.',
  money:
    'Input payDollars is rounded to the cent and clamped at 0; output carries integer cents and float dollars.',
  time: 'Times are ISO 8601 UTC with milliseconds: YYYY-MM-DDTHH:MM:SS.sssZ.',
  errors:
    'Every error body is {"error":"<code>"}; statuses are 400, 401, 404, 409, or a plain 500 for faults.',
  openapi: 'GET /api/v1/openapi.json describes every operation (no key needed).',
}

export const indexRoutes: FastifyPluginAsyncZod<{ endpoints: EndpointList }> = async (app, { endpoints }) => {
  app.get(
    '/',
    {
      schema: {
        operationId: 'getIndex',
        tags: ['index'],
        summary: 'Authenticated smoke test and self-describing index',
        response: { 200: DataEnvelope(IndexDoc), ...errorResponses() },
      },
    },
    async (request) => ({
      data: {
        version: 'v1' as const,
        auth: 'Authorization: Bearer <API_KEY>',
        endpoints,
        mcp: `${request.protocol}://${request.host}/api/v1/mcp`,
        webhookEvents: [...EVENT_NAMES],
        notes: NOTES,
      },
    }),
  )
}
