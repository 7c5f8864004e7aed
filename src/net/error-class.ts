// The one word for why an outbound request got no answer, stored on a delivery or a busy calendar and shown
// to partners and people: the guard's refusal, or the network's failure, by its code along the cause chain.
import { AddressRefusedError, GUARDED } from './address-guard.js'

const TLS_CODE = /^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO|DEPTH_ZERO|SELF_SIGNED|HOSTNAME_MISMATCH|ERR_CERT)/

/** Whether the address guard refused the request's address, somewhere along the cause chain. */
export function isAddressRefusal(error: unknown): boolean {
  for (let e: unknown = error; e instanceof Error; e = e.cause)
    if (e instanceof AddressRefusedError) return true
  return false
}

/** A refused address reads as GUARDED, the class of one no route reaches, whatever the reason (L5). */
export function networkErrorClass(error: unknown): string {
  if (isAddressRefusal(error)) return GUARDED
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    const code = (e as { code?: unknown }).code
    if (typeof code !== 'string') continue
    if (code === 'ECONNREFUSED') return 'connection_refused'
    if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET') return 'connection_reset'
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'ENODATA') return 'dns_error'
    if (code.endsWith('TIMEOUT') || code === 'ETIMEDOUT') return 'timeout'
    if (TLS_CODE.test(code)) return 'tls_error'
    if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return GUARDED
  }
  return 'network_error'
}
