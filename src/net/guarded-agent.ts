// The connection pool of every outbound request to an address a partner or a person gave (webhook
// deliveries, busy calendars): each connection's address is checked by the guard, within the time-out.
import { Agent } from 'undici'
import { guardedLookup, type AddressPolicy } from './address-guard.js'

export interface GuardedAgentOptions {
  readonly policy: AddressPolicy
  readonly timeoutMs: number
  readonly connections: number
  readonly keepAliveTimeoutMs?: number
  /** Trust these CAs instead of the default store (in-process tests; processes use NODE_EXTRA_CA_CERTS). */
  readonly ca?: string | Buffer | undefined
}

export function guardedAgent(options: GuardedAgentOptions): Agent {
  return new Agent({
    connections: options.connections,
    ...(options.keepAliveTimeoutMs !== undefined && { keepAliveTimeout: options.keepAliveTimeoutMs }),
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    connect: {
      lookup: guardedLookup(options.policy),
      timeout: options.timeoutMs,
      ...(options.ca !== undefined && { ca: options.ca }),
    },
  })
}
