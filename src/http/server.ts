// Builds the Fastify app (never listens): plumbing at the root, the partner API under /api/v1. Other
// transports (MCP) are mounted into the authenticated /api/v1 scope by the composition root.
import { randomUUID } from 'node:crypto'
import { maxHeaderSize } from 'node:http'
import Fastify, {
  type FastifyInstance,
  type FastifyPluginAsync,
  type FastifyReply,
  type FastifyServerOptions,
} from 'fastify'
import { serializerCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod'
import type { Deps } from '../domain/core/deps.js'
import { ApiError } from '../domain/core/errors.js'
import { REST_OPERATIONS } from '../operations/index.js'
import { installAuth } from './auth.js'
import { BODY_LIMIT, installJsonParser } from './body.js'
import { answerClientError, installErrorHandling } from './errors.js'
import { registerDocs } from './docs.js'
import { healthRoutes } from './health.js'
import { indexRoutes, type EndpointList } from './index-doc.js'
import { registerOpenApi } from './openapi.js'
import { registerOperations } from './register.js'
import { validatorCompiler } from './validation.js'
import { observeHttpRequest } from '../metrics.js'
import { metricsRoute, type MetricsRouteOptions } from './metrics-route.js'
import { tokenBuckets } from './rate-limit.js'
import { DEFAULT_HTTP_SETTINGS, type HttpSettings } from './settings.js'

const API_PREFIX = '/api/v1'
const API_PATH = /^\/api\/v1(?:[/?]|$)/
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/

export interface ServerOptions {
  deps: Deps
  /** Resolves when the database answers; backs GET /readyz. */
  ping: () => Promise<void>
  logger?: FastifyServerOptions['logger']
  /** Where partners reach this server (REFDESK_PUBLIC_URL); the OpenAPI document's `servers`. */
  publicUrl: string
  /** GET /metrics on this server; left out when metrics are served on a port of their own. */
  metrics?: MetricsRouteOptions
  /** Plugins registered inside /api/v1, behind its key check and body reader (the MCP endpoint). */
  apiPlugins?: readonly FastifyPluginAsync[]
  /** Time-outs, the connection cap and the per-key rate limit; DEFAULT_HTTP_SETTINGS unless given. */
  http?: HttpSettings
  /** Which proxies' X-Forwarded-For names the client (REFDESK_TRUST_PROXY); none unless given. */
  trustProxy?: boolean | string
}

export type App = FastifyInstance

export async function buildServer(options: ServerOptions): Promise<App> {
  const http = options.http ?? DEFAULT_HTTP_SETTINGS
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: BODY_LIMIT,
    trustProxy: options.trustProxy ?? false,
    requestTimeout: http.requestTimeoutMs,
    connectionTimeout: http.idleTimeoutMs,
    keepAliveTimeout: http.keepAliveTimeoutMs,
    http: {
      headersTimeout: http.headersTimeoutMs,
      // Node checks the header and request time-outs on this period (30 s unless told), so a time-out
      // would otherwise fire up to 30 s late.
      connectionsCheckingInterval: Math.min(
        1000,
        Math.ceil(Math.min(http.headersTimeoutMs, http.requestTimeoutMs) / 4),
      ),
    },
    clientErrorHandler: answerClientError,
    // A caller's own Request-Id is kept when it is a sane token, so partners can correlate their logs.
    genReqId: (req) => {
      const given = req.headers['request-id']
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : `req_${randomUUID()}`
    },
    // As long as the request line itself may be: an id is never refused by the router for its length,
    // so an overlong one answers its resource's not-found code like any unknown id.
    routerOptions: { maxParamLength: maxHeaderSize },
    // A URL that cannot be decoded names no resource; Fastify's own 400 shape must not leak out.
    frameworkErrors: (_error, _request, reply) => {
      void (reply as FastifyReply).code(404).send(new ApiError('not_found').body)
    },
    return503OnClosing: false,
  }).withTypeProvider<ZodTypeProvider>()

  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(serializerCompiler)
  installErrorHandling(app)
  installJsonParser(app)
  app.server.maxConnections = http.maxConnections
  // Hooks on every request take the callback form: an async hook costs a promise per request.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('request-id', request.id)
    // Partner data must not be kept by a proxy or a client cache, refusals included.
    if (API_PATH.test(request.url)) reply.header('cache-control', 'no-store')
    done()
  })
  app.addHook('onSend', (request, reply, payload, done) => {
    // An answer given before the request's body arrived (a 401, a refused body): Node would otherwise go
    // on reading whatever the client still sends, for as long as it sends it, to reuse the socket.
    if (request.raw.complete === false) reply.header('connection', 'close')
    done(null, payload)
  })
  app.addHook('onResponse', (request, reply, done) => {
    // The route, never the URL: ids in paths would make a series per resource.
    const { schema, url } = request.routeOptions
    const operation = schema?.operationId ?? url ?? 'unmatched'
    observeHttpRequest(operation, request.method, reply.statusCode, reply.elapsedTime / 1000)
    done()
  })
  await registerOpenApi(app, { publicUrl: options.publicUrl, operations: REST_OPERATIONS })
  await app.register(healthRoutes, { ping: options.ping })
  await registerDocs(app)
  if (options.metrics) await app.register(metricsRoute(options.metrics))
  await app.register(
    async (v1) => {
      const endpoints: EndpointList = []
      v1.addHook('onRoute', (route) => {
        const methods = [route.method].flat().filter((m) => m !== 'HEAD')
        if (route.schema?.operationId && route.config?.public !== true) {
          const path = route.url.slice(API_PREFIX.length).replace(/:(\w+)/g, '{$1}') || '/'
          for (const method of methods) endpoints.push(`${method} ${path}`)
        }
      })
      const rate = { perSecond: http.rateLimitPerSecond, burst: http.rateLimitBurst }
      const limited = http.rateLimitPerSecond > 0
      installAuth(
        v1,
        options.deps,
        limited ? tokenBuckets(rate) : undefined,
        // Unknown keys by client address, at a key's rate: at most this many addresses remembered.
        limited ? tokenBuckets({ ...rate, maxBuckets: 10_000 }) : undefined,
      )
      v1.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger())
      await v1.register(indexRoutes, { endpoints })
      registerOperations(v1, options.deps, REST_OPERATIONS)
      for (const plugin of options.apiPlugins ?? []) await v1.register(plugin)
    },
    { prefix: API_PREFIX },
  )
  return app
}
