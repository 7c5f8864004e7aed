// An outbound GET under the webhook rules (a busy calendar's ICS feed): https only, every connection through
// the address guard (redirects too, so a public address cannot bounce the request to a private one), one
// time-out for the whole exchange and a cap on the body. Failures are named by class, never by the
// server's text, so nothing another site controls reaches a page or a log line.
import type { Agent } from 'undici'
import { GUARDED, literalAddress, refusalReason, type AddressPolicy } from './address-guard.js'
import { guardedAgent } from './guarded-agent.js'
import { isAddressRefusal, networkErrorClass } from './error-class.js'

export interface GetOptions {
  readonly policy: AddressPolicy
  readonly timeoutMs: number
  /** Bodies longer than this are refused (`too_large`). */
  readonly maxBytes: number
  /** Trust these CAs instead of the default store (in-process tests; processes use NODE_EXTRA_CA_CERTS). */
  readonly ca?: string | Buffer
}

export type GetResult =
  | { readonly ok: true; readonly text: string }
  /** `addressRefused`: the guard refused an address (its error is GUARDED, like an unroutable one). */
  | { readonly ok: false; readonly error: string; readonly addressRefused?: true }

const MAX_REDIRECTS = 3

/** A getter sharing one guarded connection pool. */
export function guardedGetter(options: GetOptions): (url: string) => Promise<GetResult> {
  const agent = guardedAgent({ ...options, connections: 4 })
  return (url) => get(agent, options, url)
}

async function get(agent: Agent, options: GetOptions, start: string): Promise<GetResult> {
  const controller = new AbortController()
  let timedOut = false
  const timer = setTimeout(() => {
    timedOut = true
    controller.abort()
  }, options.timeoutMs)
  try {
    let url = new URL(start)
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const refused = hopRefusal(url, options.policy)
      if (refused !== null) return refused
      const response = await agent.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: 'GET',
        headers: { accept: 'text/calendar, */*;q=0.5', 'user-agent': 'RefDesk busy-calendar reader' },
        signal: controller.signal,
      })
      const location = response.headers.location
      if (response.statusCode >= 300 && response.statusCode < 400 && typeof location === 'string') {
        await response.body.dump({ limit: 64 * 1024 }).catch(() => undefined)
        url = new URL(location, url)
        continue
      }
      if (response.statusCode < 200 || response.statusCode >= 300) {
        await response.body.dump({ limit: 64 * 1024 }).catch(() => undefined)
        return { ok: false, error: `http_status:${response.statusCode}` }
      }
      return await readCapped(response.body, options.maxBytes)
    }
    return { ok: false, error: 'too_many_redirects' }
  } catch (error) {
    if (timedOut) return { ok: false, error: 'timeout' }
    if (isAddressRefusal(error)) return { ok: false, error: GUARDED, addressRefused: true }
    return { ok: false, error: networkErrorClass(error) }
  } finally {
    clearTimeout(timer)
  }
}

function hopRefusal(url: URL, policy: AddressPolicy): GetResult | null {
  if (url.protocol !== 'https:') return { ok: false, error: 'https_required' }
  const literal = literalAddress(url.hostname)
  const refused = literal !== undefined && refusalReason(literal, policy) !== null
  return refused ? { ok: false, error: GUARDED, addressRefused: true } : null
}

async function readCapped(
  body: AsyncIterable<Buffer> & { destroy(): unknown },
  maxBytes: number,
): Promise<GetResult> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of body) {
    size += chunk.length
    if (size > maxBytes) {
      body.destroy()
      return { ok: false, error: 'too_large' }
    }
    chunks.push(chunk)
  }
  return { ok: true, text: Buffer.concat(chunks).toString('utf8') }
}
