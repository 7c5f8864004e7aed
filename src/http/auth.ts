// Bearer-key authentication for every /api/v1 route except the OpenAPI document.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { authenticate } from '../domain/api-keys.js'
import type { PartnerCaller } from '../domain/caller.js'
import type { Deps } from '../domain/deps.js'
import { ApiError } from '../domain/errors.js'

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

export function installAuth(app: FastifyInstance, deps: Deps): void {
  app.decorateRequest('caller', null as unknown as PartnerCaller)
  app.addHook('onRequest', async (request: FastifyRequest) => {
    if (request.routeOptions.config.public) return
    const caller = await authenticate(deps, request.headers.authorization)
    if (!caller) throw new ApiError('unauthorized')
    request.caller = caller
  })
}
