// GET /metrics: the Prometheus text exposition, outside /api/v1 (no partner key). With a token set it asks
// for `Authorization: Bearer <token>`, compared in constant time; a 401 is the API's own.
import { createHash, timingSafeEqual } from 'node:crypto'
import Fastify, { type FastifyInstance, type FastifyPluginAsync } from 'fastify'
import type { Registry } from 'prom-client'
import { ApiError } from '../domain/core/errors.js'
import { exposition, METRICS_CONTENT_TYPE } from '../metrics.js'

export interface MetricsRouteOptions {
  /** Bearer token the scraper must send; none: open. */
  token?: string
  /** The runtime's own gauges (backlog, pool), read at scrape time. */
  runtime?: Registry
}

const digest = (text: string) => createHash('sha256').update(text).digest()

export const metricsRoute =
  (options: MetricsRouteOptions): FastifyPluginAsync =>
  async (app) => {
    const expected = options.token === undefined ? undefined : digest(`Bearer ${options.token}`)
    app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
      const given = request.headers.authorization
      if (expected && !(given !== undefined && timingSafeEqual(digest(given), expected))) {
        reply.header('www-authenticate', 'Bearer realm="refdesk-metrics"')
        return reply.code(401).send(new ApiError('unauthorized').body)
      }
      return reply.type(METRICS_CONTENT_TYPE).send(await exposition(options.runtime))
    })
  }

/** A server of /metrics alone, for REFDESK_METRICS_PORT (and the only one a worker runs). */
export async function buildMetricsServer(options: MetricsRouteOptions): Promise<FastifyInstance> {
  const app = Fastify({ logger: false })
  app.setNotFoundHandler((_request, reply) => reply.code(404).send(new ApiError('not_found').body))
  await app.register(metricsRoute(options))
  return app
}
