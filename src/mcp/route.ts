// POST {base_url}/mcp: MCP over Streamable HTTP, stateless. It sits inside the /api/v1 plugin, so the
// key is checked (401 {"error":"unauthorized"}) and the body capped (1 MiB, body_too_large) before any
// MCP handling, and tools run REST operations for that authenticated caller. A plain tools/call is
// answered straight away; anything else gets its own SDK server and transport. Nothing outlives the
// request, so any process can answer any call.
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js'
import type { FastifyPluginAsync, FastifyRequest } from 'fastify'
import type { Deps } from '../domain/core/deps.js'
import { ApiError } from '../domain/core/errors.js'
import { batchRefusal } from './batch.js'
import { inProcessForward } from './forward.js'
import { answerToolCall, createMcpServer } from './server.js'

export interface McpRouteOptions {
  deps: Deps
  /** Browser origins allowed to call (REFDESK_MCP_ALLOWED_ORIGINS). */
  allowedOrigins: readonly string[]
  /** JSON-RPC messages per batch, for protocol versions that have batches (REFDESK_MCP_MAX_BATCH). */
  maxBatch: number
}

function originSet(list: readonly string[]): Set<string> {
  return new Set(
    list.map((origin) => normalizeOrigin(origin.trim())).filter((o): o is string => o !== undefined),
  )
}

function normalizeOrigin(value: string): string | undefined {
  try {
    const origin = new URL(value).origin
    return origin === 'null' ? undefined : origin
  } catch {
    return undefined
  }
}

// The headers the stateless transport reads; the body is already parsed, and no tool reads the others.
const TRANSPORT_HEADERS = ['content-type', 'mcp-protocol-version', 'mcp-session-id'] as const

/**
 * The request as the SDK's web-standard transport reads it. This server only answers with JSON (never a
 * stream), so a client that omits the Accept header the SDK insists on still gets an answer instead of a
 * 406 outside the API's status set.
 */
function webRequest(request: FastifyRequest): Request {
  const headers = new Headers({ accept: 'application/json, text/event-stream' })
  for (const name of TRANSPORT_HEADERS) {
    const value = request.headers[name]
    if (typeof value === 'string') headers.set(name, value)
  }
  return new Request(`http://refdesk.invalid${request.url}`, { method: 'POST', headers })
}

/** The MCP endpoint, as a plugin for the /api/v1 scope. */
export const mcpRoutes =
  (options: McpRouteOptions): FastifyPluginAsync =>
  async (v1) => {
    const allowed = originSet(options.allowedOrigins)
    // The stateless server offers no server-to-client stream (GET) and has no session to end (DELETE);
    // the Streamable HTTP transport asks for 405 there, and clients then simply go on with POST.
    v1.route({
      method: ['GET', 'DELETE'],
      url: '/mcp',
      schema: { hide: true },
      handler: async (_request, reply) =>
        reply.code(405).header('allow', 'POST').send(new ApiError('method_not_allowed').body),
    })
    v1.post('/mcp', { schema: { hide: true }, config: { jsonBody: true } }, async (request, reply) => {
      // DNS rebinding: a page in a browser carries an Origin; partners' servers and local agents do not.
      // Keys never belong in a browser, so only an explicitly allowed origin gets through.
      const origin = request.headers.origin
      if (origin !== undefined) {
        const normalized = normalizeOrigin(origin)
        if (normalized === undefined || !allowed.has(normalized)) throw new ApiError('origin_not_allowed')
      }
      const version = request.headers['mcp-protocol-version']
      if (Array.isArray(request.body)) {
        const refusal = batchRefusal(
          request.body,
          typeof version === 'string' ? version : undefined,
          options.maxBatch,
        )
        if (refusal) {
          request.log.info({ messages: request.body.length, version }, 'mcp batch refused')
          return reply.code(400).send({ jsonrpc: '2.0', id: null, error: { code: -32600, message: refusal } })
        }
        // Each message is a call the key pays for, as if sent alone: the request's own token paid for one.
        request.takeTokens(reply, request.body.length - 1)
      }
      const forward = inProcessForward(options.deps, request.caller, request.log)
      // A protocol version the SDK does not support is its to refuse.
      if (typeof version !== 'string' || SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
        const answer = answerToolCall(request.body, forward)
        if (answer) return answer
      }
      const server = createMcpServer(forward)
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      })
      // The transport and the server report what they refuse or fail at only here (the server's errors
      // reach this handler too, once connected). Messages may quote the request, which can hold personal
      // data (keys travel in headers, never here): only their start is logged.
      transport.onerror = (error) =>
        request.log.warn({ err: { message: error.message.slice(0, 200) } }, 'mcp transport error')
      await server.connect(transport)
      try {
        const response = await transport.handleRequest(webRequest(request), { parsedBody: request.body })
        reply.code(response.status)
        response.headers.forEach((value, name) => void reply.header(name, value))
        return await response.text()
      } catch (error) {
        // Stops any handler still running. After a complete answer there is none, and both objects are
        // garbage once this request ends; closing them anyway would cost an Error (and its stack) per call.
        await server.close()
        throw error
      }
    })
  }
