// The one word for why an outbound request got no answer, stored on a delivery or a busy calendar and shown
// to partners and people: the guard's refusal, or the network's failure, by its code along the cause chain.
import { AddressRefusedError } from './address-guard.js'

const TLS_CODE = /^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO|DEPTH_ZERO|SELF_SIGNED|HOSTNAME_MISMATCH|ERR_CERT)/

export function networkErrorClass(error: unknown): string {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    if (e instanceof AddressRefusedError) return `address_refused:${e.reason}`
    const code = (e as { code?: unknown }).code
    if (typeof code !== 'string') continue
    if (code === 'ECONNREFUSED') return 'connection_refused'
    if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET') return 'connection_reset'
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'ENODATA') return 'dns_error'
    if (code.endsWith('TIMEOUT') || code === 'ETIMEDOUT') return 'timeout'
    if (TLS_CODE.test(code)) return 'tls_error'
    if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return 'unreachable'
  }
  return 'network_error'
}
