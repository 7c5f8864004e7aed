// Builds the Fastify app (never listens): plumbing at the root, the partner API under /api/v1.
import { randomUUID } from 'node:crypto'
import fastifySwagger from '@fastify/swagger'
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify'
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod'
import type { Deps } from '../domain/deps.js'
import { ApiError } from '../domain/errors.js'
import { mcpRoutes } from '../mcp/route.js'
import { installAuth } from './auth.js'
import { installErrorHandling } from './errors.js'
import { registerOperations } from './operation.js'
import { assignmentOperations } from './routes/assignments.js'
import { gameOperations } from './routes/games.js'
import { healthRoutes } from './routes/health.js'
import { indexRoutes, type EndpointList } from './routes/index.js'
import { leagueOperations } from './routes/leagues.js'
import { officialOperations } from './routes/officials.js'
import { paymentOperations } from './routes/payments.js'
import { webhookOperations } from './routes/webhooks.js'
import { validatorCompiler } from './validation.js'

export const API_PREFIX = '/api/v1'
export const BODY_LIMIT = 1024 * 1024
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/

export interface ServerOptions {
  deps: Deps
  /** Resolves when the database answers; backs GET /readyz. */
  ping: () => Promise<void>
  logger?: FastifyServerOptions['logger']
  /** Browser origins allowed on /api/v1/mcp; default `$REFDESK_MCP_ALLOWED_ORIGINS`, else none. */
  mcpAllowedOrigins?: readonly string[]
}

export type App = FastifyInstance

/** Every REST operation but the index, in the order the index and the OpenAPI document list them. */
export const OPERATIONS = [
  ...leagueOperations,
  ...gameOperations,
  ...officialOperations,
  ...assignmentOperations,
  ...paymentOperations,
  ...webhookOperations,
]

export async function buildServer(options: ServerOptions): Promise<App> {
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: BODY_LIMIT,
    // A caller's own Request-Id is kept when it is a sane token, so partners can correlate their logs.
    genReqId: (req) => {
      const given = req.headers['request-id']
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : `req_${randomUUID()}`
    },
    routerOptions: { maxParamLength: 200 },
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
  app.addHook('onRequest', async (request, reply) => {
    reply.header('request-id', request.id)
  })

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'RefDesk Partner API',
        version: 'v1',
        description: 'Sports-officiating scheduling: leagues, games, officials, assignments and payouts.',
      },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'key_<48 hex>' } },
      },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  })

  await app.register(healthRoutes, { ping: options.ping })
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
      installAuth(v1, options.deps)
      v1.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger())
      await v1.register(indexRoutes, { endpoints })
      registerOperations(v1, options.deps, OPERATIONS)
      await v1.register(mcpRoutes, { deps: options.deps, allowedOrigins: options.mcpAllowedOrigins })
    },
    { prefix: API_PREFIX },
  )
  return app
}

// An empty body parses to `undefined` (a body endpoint then answers invalid_json), and an operation that
// takes no body ignores one of any size and content type, so a stray body never adds a status the
// operation does not document. Bodies are read here rather than by Fastify (`parseAs`), whose 1 MiB cap
// would otherwise answer body_too_large to a stray body too; a stray body is drained, never buffered.
// `__proto__` and `constructor.prototype` keys are dropped rather than rejected.
function installJsonParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('remove', 'remove')
  const takesBody = (request: FastifyRequest) =>
    Boolean(request.routeOptions.schema?.body || request.routeOptions.config.jsonBody)
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', (request, payload, done) => {
    if (!takesBody(request)) return drain(payload, done)
    const limit = request.routeOptions.bodyLimit ?? BODY_LIMIT
    readText(payload, limit, Number(request.headers['content-length']), (error, text) => {
      if (error) return done(error, undefined)
      if (text === '') return done(null, undefined)
      parse(request, text!, done)
    })
  })
  // Any other content type (Fastify's text/plain parser included) is no JSON body (invalid_json) where
  // one is taken, and ignored where none is.
  app.removeContentTypeParser('text/plain')
  app.addContentTypeParser('*', (request, payload, done) => {
    if (takesBody(request)) return done(new ApiError('invalid_json'), undefined)
    drain(payload, done)
  })
}

type ParserDone = (error: Error | null, body?: unknown) => void

function drain(payload: NodeJS.ReadableStream, done: ParserDone): void {
  payload.on('error', (error: Error) => done(error, undefined))
  payload.on('end', () => done(null, undefined))
  payload.resume()
}

function readText(
  payload: NodeJS.ReadableStream,
  limit: number,
  declaredLength: number,
  done: (error: Error | null, text?: string) => void,
): void {
  if (declaredLength > limit) return done(new ApiError('body_too_large'))
  const chunks: Buffer[] = []
  let size = 0
  const finish = (error: Error | null, text?: string) => {
    payload.removeListener('data', onData)
    payload.removeListener('end', onEnd)
    payload.removeListener('error', finish)
    done(error, text)
  }
  const onData = (chunk: Buffer | string) => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
    size += bytes.length
    if (size > limit) return finish(new ApiError('body_too_large'))
    chunks.push(bytes)
  }
  // One decode at the end keeps multi-byte characters split across chunks intact.
  const onEnd = () => finish(null, Buffer.concat(chunks, size).toString('utf8'))
  payload.on('data', onData)
  payload.on('end', onEnd)
  payload.on('error', finish)
  payload.resume()
}
