// Where an outbound request (a webhook delivery, a busy-calendar fetch) may connect. Only globally
// routable unicast addresses pass by default: loopback, private, link-local, CGNAT, multicast, unspecified,
// reserved, IPv4-mapped/-embedding IPv6 and cloud metadata addresses are refused. Names are resolved once,
// in the socket's own `lookup`, and the socket connects to exactly the addresses checked (no DNS-rebinding
// window).
import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import { isIP, type LookupFunction } from 'node:net'
import ipaddr from 'ipaddr.js'

type Address = ipaddr.IPv4 | ipaddr.IPv6

export interface AddressPolicy {
  /** REFDESK_WEBHOOK_ALLOW_PRIVATE=true: every range except cloud metadata passes (development only). */
  readonly allowAll: boolean
  /** REFDESK_WEBHOOK_ALLOW_PRIVATE as a CIDR list: these pass, metadata included if listed. */
  readonly allowed: readonly [Address, number][]
}

export const STRICT_POLICY: AddressPolicy = { allowAll: false, allowed: [] }

// Instance-metadata services that sit on otherwise "public" or already-refused addresses, named so the
// refusal reason says what was stopped.
const METADATA: readonly [Address, number][] = [
  '169.254.169.254/32', // AWS, GCP, Azure IMDS, OpenStack, DigitalOcean
  '169.254.170.2/32', // AWS ECS task metadata
  '168.63.129.16/32', // Azure wire server
  '100.100.100.200/32', // Alibaba Cloud
  '192.0.0.192/32', // Oracle Cloud
  'fd00:ec2::254/128', // AWS IMDS over IPv6
].map((cidr) => ipaddr.parseCIDR(cidr))

const IPV4_COMPATIBLE: readonly [Address, number][] = [ipaddr.parseCIDR('::/96')]

/**
 * How every message that reaches a partner or a person (a delivery's error, a calendar's last error) names
 * a refused address, whatever the guard path (a literal address, a name's lookup, a redirect) and whatever
 * the reason: the same class as an address no route reaches, so the messages map nothing of what lies
 * behind the guard (issue 36, L5).
 */
export const GUARDED = 'unreachable'

/**
 * A refusal names its class only, never the address: what an internal name resolves to must not reach a
 * delivery record, a log line or any message built from this error.
 */
export class AddressRefusedError extends Error {
  constructor(readonly reason: string) {
    super(`address refused: ${reason}`)
    this.name = 'AddressRefusedError'
  }
}

export function parseAllowPrivate(value: string | undefined): AddressPolicy {
  const text = (value ?? '').trim()
  if (text === '' || text === 'false') return STRICT_POLICY
  if (text === 'true') return { allowAll: true, allowed: [] }
  const allowed = text.split(',').map((part) => {
    const cidr = part.trim()
    try {
      return cidr.includes('/')
        ? ipaddr.parseCIDR(cidr)
        : ([ipaddr.parse(cidr), cidr.includes(':') ? 128 : 32] as [Address, number])
    } catch {
      throw new Error(`REFDESK_WEBHOOK_ALLOW_PRIVATE: "${cidr}" is neither true nor a CIDR`)
    }
  })
  return { allowAll: false, allowed }
}

const LOOPBACK: readonly [Address, number][] = ['127.0.0.0/8', '::1/128'].map((cidr) =>
  ipaddr.parseCIDR(cidr),
)

/** The policy with loopback let through too (REFDESK_WEBHOOK_DEV_LOCALHOST). */
export function withLoopback(policy: AddressPolicy): AddressPolicy {
  return { allowAll: policy.allowAll, allowed: [...policy.allowed, ...LOOPBACK] }
}

const inAny = (ip: Address, list: readonly [Address, number][]) =>
  list.some(([base, bits]) => base.kind() === ip.kind() && ip.match(base, bits))

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)

/** Why the address must not be contacted under the policy, or null when it may be. */
export function refusalReason(address: string, policy: AddressPolicy): string | null {
  if (!ipaddr.isValid(address)) return 'invalid_address'
  const ip = ipaddr.parse(address)
  if (inAny(ip, policy.allowed)) return null
  if (inAny(ip, METADATA)) return 'metadata'
  const range = ip.range()
  // ::a.b.c.d (deprecated IPv4-compatible) reaches the embedded IPv4 address on some stacks.
  const reason = range !== 'unicast' ? snake(range) : inAny(ip, IPV4_COMPATIBLE) ? 'ipv4_compatible' : null
  return policy.allowAll ? null : reason
}

/** A URL's host as an IP literal (brackets stripped), or undefined for a name. */
export function literalAddress(hostname: string): string | undefined {
  const host = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname
  return isIP(host) === 0 ? undefined : host
}

/**
 * Why registering a URL with this host must be refused: a literal address the policy refuses (the URL
 * parser has already normalised decimal, octal, hex and IPv4-mapped forms). Names pass: they are checked
 * when a delivery connects, since what they resolve to can change.
 */
export function hostRefusal(hostname: string, policy: AddressPolicy): string | null {
  const literal = literalAddress(hostname)
  return literal === undefined ? null : refusalReason(literal, policy)
}

export function guardedLookup(policy: AddressPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0)
      const refused = addresses.map((a) => refusalReason(a.address, policy)).find((r) => r !== null)
      if (refused) return callback(new AddressRefusedError(refused), '', 0)
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses)
      const first = addresses[0]!
      callback(null, first.address, first.family)
    })
  }
}

/** The refusal a delivery to `url` would meet, resolving a name the way the socket would. */
export async function refusalForUrl(url: string, policy: AddressPolicy): Promise<string | null> {
  const { hostname } = new URL(url)
  const literal = literalAddress(hostname)
  if (literal !== undefined) return refusalReason(literal, policy)
  return new Promise((resolve) => {
    guardedLookup(policy)(hostname, { all: true }, (error) => {
      resolve(error instanceof AddressRefusedError ? error.reason : error ? 'dns_error' : null)
    })
  })
}
