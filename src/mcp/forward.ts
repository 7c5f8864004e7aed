// How a tool reaches REST. In the HTTP server the call is injected in process with the caller's own
// Authorization header; the stdio bridge sends it over HTTP(S) to a RefDesk server. Either way REST
// applies the key's scope, validates and answers, so the MCP layer adds no rules of its own.
import type { FastifyInstance } from 'fastify'

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE'

export interface Forwarded {
  status: number
  body: unknown
}

/** `path` is relative to the API base (`/games/…`) and may carry a query string. */
export type Forward = (method: Method, path: string, body?: unknown) => Promise<Forwarded>

export function injectForward(
  app: FastifyInstance,
  prefix: string,
  authorization: string,
  requestId: string,
): Forward {
  return async (method, path, body) => {
    const res = await app.inject({
      method,
      url: `${prefix}${path}`,
      // The MCP request's id travels along, so the REST log lines of one tool call share it.
      headers: { authorization, 'request-id': requestId },
      ...(body !== undefined && { payload: body as object }),
    })
    return { status: res.statusCode, body: parse(res.body) }
  }
}

export function httpForward(baseUrl: string, key: string, fetchImpl: typeof fetch = fetch): Forward {
  const base = baseUrl.replace(/\/+$/, '')
  return async (method, path, body) => {
    const res = await fetchImpl(`${base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    })
    return { status: res.status, body: parse(await res.text()) }
  }
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}
