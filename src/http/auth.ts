// Bearer-key authentication and the per-key rate limit for every /api/v1 route except the OpenAPI document.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { authenticate } from '../domain/api-keys.js'
import type { PartnerCaller } from '../domain/caller.js'
import type { Deps } from '../domain/deps.js'
import { ApiError } from '../domain/errors.js'
import type { RateLimiter } from './rate-limit.js'

declare module 'fastify' {
  interface FastifyRequest {
    caller: PartnerCaller
  }
  interface FastifyContextConfig {
    public?: boolean
    /** The route reads a JSON body without a body schema (MCP's JSON-RPC messages). */
    jsonBody?: boolean
  }
}

/** Checks the key, then takes one of its tokens: a key over its rate gets 429 with Retry-After. */
export function installAuth(app: FastifyInstance, deps: Deps, limiter?: RateLimiter): void {
  app.decorateRequest('caller', null as unknown as PartnerCaller)
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.routeOptions.config.public) return
    const caller = await authenticate(deps, request.headers.authorization)
    if (!caller) throw new ApiError('unauthorized')
    const retryAfter = limiter?.take(caller.keyId)
    if (retryAfter !== undefined) {
      reply.header('retry-after', String(retryAfter))
      throw new ApiError('rate_limited')
    }
    request.caller = caller
  })
}
