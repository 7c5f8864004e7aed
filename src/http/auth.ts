// Bearer-key authentication and the per-key rate limit for every /api/v1 route except the OpenAPI document.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { authenticate } from '../domain/partners/api-keys.js'
import type { PartnerCaller } from '../domain/core/caller.js'
import type { Deps } from '../domain/core/deps.js'
import { ApiError } from '../domain/core/errors.js'
import type { RateLimiter } from './rate-limit.js'

declare module 'fastify' {
  interface FastifyRequest {
    caller: PartnerCaller
    /**
     * Takes `count` more tokens of the caller's key, for a request that carries more than one call (an MCP
     * batch: one token per message): throws 429 rate_limited with Retry-After when the key is over its rate.
     */
    takeTokens(reply: FastifyReply, count: number): void
  }
  interface FastifyContextConfig {
    public?: boolean
    /** The route reads a JSON body without a body schema (MCP's JSON-RPC messages). */
    jsonBody?: boolean
  }
}

/**
 * Checks the key, then takes one of its tokens: a key over its rate gets 429 with Retry-After. A request
 * whose key is unknown takes a token of its client address instead (`clients`), and once that address
 * has spent them, its requests answer 429 before any key is looked up: guessing keys, or a client
 * misconfigured in a loop, costs the service no more than a partner's key may.
 */
export function installAuth(
  app: FastifyInstance,
  deps: Deps,
  limiter?: RateLimiter,
  clients?: RateLimiter,
): void {
  const refuse = (reply: FastifyReply, retryAfter: number | undefined) => {
    if (retryAfter === undefined) return
    reply.header('retry-after', String(retryAfter))
    throw new ApiError('rate_limited')
  }
  const take = (reply: FastifyReply, keyId: string, count: number) =>
    refuse(reply, limiter?.take(keyId, count))
  app.decorateRequest('caller', null as unknown as PartnerCaller)
  app.decorateRequest('takeTokens', function (this: FastifyRequest, reply: FastifyReply, count: number) {
    if (count > 0) take(reply, this.caller.keyId, count)
  })
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.routeOptions.config.public) return
    refuse(reply, clients?.waitFor(request.ip))
    const caller = await authenticate(deps, request.headers.authorization)
    if (!caller) {
      clients?.take(request.ip)
      throw new ApiError('unauthorized')
    }
    take(reply, caller.keyId, 1)
    request.caller = caller
  })
}
