import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { EVENT_NAMES } from '../schemas/events.js'
import { DataEnvelope } from '../schemas/common.js'
import { IndexDoc } from '../schemas/index-doc.js'
import { errorResponses } from './openapi.js'

/** Filled by the v1 plugin's onRoute hook: `METHOD /path` of every partner operation. */
export type EndpointList = string[]

const NOTES = {
  scope:
    'A key reads and writes only leagues of its source plus leagues granted to it; anything else answers 404 exactly like a nonexistent id.',
  source:
    'Omit `source` in bodies or echo your own; `app` is reserved (source_reserved), anything else is source_mismatch.',
  idempotency:
    'POST /leagues, POST /leagues/{leagueId}/games and POST /leagues/{leagueId}/officials upsert on (source, externalId) and are safe to repeat. POST /games/{gameId}/assign, POST /webhooks and POST /leagues/{leagueId}/games take an Idempotency-Key header: a retry with the same key and request within 24 h replays the first answer.',
  money:
    'Input payDollars is rounded to the cent and clamped at 0; output carries integer cents and float dollars.',
  time: 'Times are ISO 8601 UTC with milliseconds: YYYY-MM-DDTHH:MM:SS.sssZ.',
  errors:
    'Every error body is {"error":"<code>"}; statuses are 400, 401, 404, 409, 429 (rate_limited: wait the Retry-After seconds, then retry), or a plain 500 for faults.',
  openapi:
    'GET /api/v1/openapi.json describes every operation and webhook event (no key needed); /docs is its interactive reference.',
}

export const indexRoutes: FastifyPluginAsyncZod<{ endpoints: EndpointList }> = async (app, { endpoints }) => {
  app.get(
    '/',
    {
      schema: {
        operationId: 'getIndex',
        tags: ['index'],
        summary: 'Authenticated smoke test and self-describing index',
        description:
          'Answers 200 for any valid key: the operations this server offers, the MCP endpoint, the webhook event names and short notes on the rules every operation follows.',
        response: {
          200: DataEnvelope(IndexDoc).meta({ description: 'What this server offers.' }),
          ...errorResponses(),
        },
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
