import type { FastifyPluginAsync } from 'fastify'

/** Liveness (process up) and readiness (database reachable); no key needed. */
export const healthRoutes: FastifyPluginAsync<{ ping: () => Promise<void> }> = async (app, { ping }) => {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }))
  app.get('/readyz', { schema: { hide: true } }, async (request, reply) => {
    try {
      await ping()
      return { status: 'ok' }
    } catch (err) {
      request.log.warn({ err }, 'readiness check failed')
      return reply.status(503).send({ status: 'unavailable' })
    }
  })
}
