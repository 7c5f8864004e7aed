// One delivery attempt: POST the signed envelope, success = 2xx within the timeout. Redirects are not
// followed (undici never follows without an interceptor). Failures are named by class, never by message,
// so no partner-controlled text or secret ends up in the delivery record.
import { EventEmitter } from 'node:events'
import type { Agent } from 'undici'
import { GUARDED, literalAddress, refusalReason, type AddressPolicy } from '../net/address-guard.js'
import { guardedAgent } from '../net/guarded-agent.js'
import { networkErrorClass } from '../net/error-class.js'
import { envelopeBody, signedHeaders, type Envelope } from './sign.js'

export interface TransportOptions {
  policy: AddressPolicy
  timeoutMs: number
  /** Sockets per endpoint origin. */
  connectionsPerOrigin: number
  /** Trust these CAs instead of the default store (in-process tests; processes use NODE_EXTRA_CA_CERTS). */
  ca?: string | Buffer
}

export function createAgent(options: TransportOptions): Agent {
  return guardedAgent({
    policy: options.policy,
    timeoutMs: options.timeoutMs,
    connections: options.connectionsPerOrigin,
    keepAliveTimeoutMs: 30_000,
    ca: options.ca,
  })
}

export interface AttemptResult {
  ok: boolean
  statusCode: number | null
  error: string | null
}

const RESPONSE_BODY_LIMIT = 64 * 1024

/**
 * What undici reads of an attempt's signal: `aborted`, `reason` and an 'abort' event, which an
 * EventEmitter provides for less than an AbortController and its AbortSignal (an EventTarget) cost.
 */
class Abort extends EventEmitter {
  aborted = false
  reason: unknown = undefined
  abort(): void {
    if (this.aborted) return
    this.aborted = true
    this.emit('abort')
  }
}

interface Target {
  origin: string
  path: string
  /** Why the policy refuses the URL's literal address, or null (a name is checked when connecting). */
  refused: string | null
}

/**
 * Endpoint URLs as parsed, per address policy: every delivery to an endpoint would otherwise parse its
 * URL and, for a literal address, the address and the policy's ranges again. Bounded: emptied when full.
 */
const targets = new WeakMap<AddressPolicy, Map<string, Target>>()
const MAX_TARGETS = 4096

function targetOf(href: string, policy: AddressPolicy): Target {
  let byUrl = targets.get(policy)
  if (byUrl === undefined) targets.set(policy, (byUrl = new Map()))
  let target = byUrl.get(href)
  if (target === undefined) {
    const url = new URL(href)
    const literal = literalAddress(url.hostname)
    target = {
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      refused: literal === undefined ? null : refusalReason(literal, policy),
    }
    if (byUrl.size >= MAX_TARGETS) byUrl.clear()
    byUrl.set(href, target)
  }
  return target
}

export async function attempt(
  agent: Agent,
  options: Pick<TransportOptions, 'policy' | 'timeoutMs'>,
  target: { url: string; secret: string },
  envelope: Envelope,
  signal?: AbortSignal,
): Promise<AttemptResult> {
  const { origin, path, refused } = targetOf(target.url, options.policy)
  if (refused !== null) return { ok: false, statusCode: null, error: GUARDED }
  const body = envelopeBody(envelope)
  // One abort with a plain timer: AbortSignal.timeout() and AbortSignal.any() per attempt cost a
  // twentieth of a dispatcher's CPU. The timeout covers the whole exchange, body included.
  const controller = new Abort()
  let timedOut = false
  const timer = setTimeout(() => {
    timedOut = true
    controller.abort()
  }, options.timeoutMs)
  const stop = () => controller.abort()
  signal?.addEventListener('abort', stop, { once: true })
  try {
    const response = await agent.request({
      origin,
      path,
      method: 'POST',
      headers: signedHeaders(target.secret, envelope.id, body),
      body,
      signal: controller,
    })
    await response.body.dump({ limit: RESPONSE_BODY_LIMIT }).catch(() => undefined)
    const ok = response.statusCode >= 200 && response.statusCode < 300
    return { ok, statusCode: response.statusCode, error: ok ? null : 'http_status' }
  } catch (error) {
    return { ok: false, statusCode: null, error: timedOut ? 'timeout' : networkErrorClass(error) }
  } finally {
    clearTimeout(timer)
    signal?.removeEventListener('abort', stop)
  }
}
