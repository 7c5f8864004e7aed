// How a tool reaches REST. In the HTTP server the operation is invoked in process for the caller the MCP
// request authenticated; the stdio bridge sends it over HTTP(S) to a RefDesk server with its key. Either
// way REST applies the key's scope, validates and answers, so the MCP layer adds no rules of its own.
import type { FaultLog } from '../operations/answer.js'
import type { PartnerCaller } from '../domain/core/caller.js'
import type { Deps } from '../domain/core/deps.js'
import type { Answer } from '../operations/answer.js'
import { invokeOperation, type Operation } from '../operations/operation.js'

/** One REST call: the operation, and its path parameters and query values as they would be in a URL. */
export interface RestCall {
  operation: Operation
  params?: Readonly<Record<string, string>>
  query?: Readonly<Record<string, string>>
  body?: unknown
}

export type Forward = (call: RestCall) => Promise<Answer>

export function inProcessForward(deps: Deps, caller: PartnerCaller, log: FaultLog): Forward {
  return ({ operation, params = {}, query = {}, body }) =>
    invokeOperation(operation, deps, caller, { params, query, body }, log)
}

/** The call's URL under the API base: `{param}` placeholders filled in, the query appended. */
export function restPath({ operation, params = {}, query = {} }: RestCall): string {
  const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(params[name] ?? ''),
  )
  const search = new URLSearchParams(query).toString()
  return search ? `${path}?${search}` : path
}

export function httpForward(baseUrl: string, key: string): Forward {
  const base = baseUrl.replace(/\/+$/, '')
  return async (call) => {
    const res = await fetch(`${base}${restPath(call)}`, {
      method: call.operation.method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(call.body !== undefined && { 'content-type': 'application/json' }),
      },
      ...(call.body !== undefined && { body: JSON.stringify(call.body) }),
    })
    const body = parse(await res.text())
    if (!call.operation.paged || res.status !== 200 || typeof body !== 'object' || body === null)
      return { status: res.status, body }
    // REST sends a page's cursor in its Link header; the tool's result carries it beside `data`.
    return { status: res.status, body: { ...body, nextCursor: nextCursorOf(res.headers.get('link')) } }
  }
}

/** The `cursor` of a `Link: <…>; rel="next"` header, or null when there is no next page. */
function nextCursorOf(link: string | null): string | null {
  const next = link?.match(/<([^>]*)>\s*;\s*rel="?next"?/)
  return next ? new URL(next[1]!, 'http://x').searchParams.get('cursor') : null
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}
