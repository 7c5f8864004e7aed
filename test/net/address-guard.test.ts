import { inspect } from 'node:util'
import { describe, expect, it } from 'vitest'
import {
  guardedLookup,
  parseAllowPrivate,
  refusalForUrl,
  refusalReason,
  STRICT_POLICY,
} from '../../src/net/address-guard.js'

// Each form as a partner could write it; WHATWG URL parsing normalizes decimal, octal and hex IPv4 before
// the guard sees the host, and the guard classifies what reaches it.
const REFUSED: [string, string][] = [
  ['https://127.0.0.1/', 'loopback'],
  ['https://127.1/', 'loopback'],
  ['https://2130706433/', 'loopback'],
  ['https://0x7f000001/', 'loopback'],
  ['https://0x7f.0.0.1/', 'loopback'],
  ['https://017700000001/', 'loopback'],
  ['https://0177.0.0.01/', 'loopback'],
  ['https://127.000.000.001/', 'loopback'],
  ['https://127.255.255.254:8443/x', 'loopback'],
  ['https://[::1]/', 'loopback'],
  ['https://[0:0:0:0:0:0:0:1]/', 'loopback'],
  ['https://localhost/', 'loopback'],
  ['https://LOCALHOST/', 'loopback'],
  ['https://[::ffff:127.0.0.1]/', 'ipv4_mapped'],
  ['https://[::ffff:7f00:1]/', 'ipv4_mapped'],
  ['https://[::ffff:10.0.0.1]/', 'ipv4_mapped'],
  ['https://[::ffff:8.8.8.8]/', 'ipv4_mapped'],
  ['https://[::127.0.0.1]/', 'ipv4_compatible'],
  ['https://0.0.0.0/', 'unspecified'],
  ['https://0/', 'unspecified'],
  ['https://[::]/', 'unspecified'],
  ['https://10.0.0.1/', 'private'],
  ['https://10.255.255.255/', 'private'],
  ['https://172.16.0.1/', 'private'],
  ['https://172.31.255.254/', 'private'],
  ['https://192.168.1.1/', 'private'],
  ['https://0xc0a80101/', 'private'],
  ['https://3232235777/', 'private'],
  ['https://012.0.0.1/', 'private'],
  ['https://169.254.169.254/latest/meta-data/', 'metadata'],
  ['https://0xa9fea9fe/', 'metadata'],
  ['https://2852039166/', 'metadata'],
  ['https://0251.0376.0251.0376/', 'metadata'],
  ['https://169.254.170.2/', 'metadata'],
  ['https://[fd00:ec2::254]/', 'metadata'],
  ['https://100.100.100.200/', 'metadata'],
  ['https://168.63.129.16/', 'metadata'],
  ['https://192.0.0.192/', 'metadata'],
  ['https://169.254.1.1/', 'link_local'],
  ['https://[fe80::1]/', 'link_local'],
  ['https://[fc00::1]/', 'unique_local'],
  ['https://[fd12:3456::1]/', 'unique_local'],
  ['https://100.64.0.1/', 'carrier_grade_nat'],
  ['https://100.127.255.255/', 'carrier_grade_nat'],
  ['https://224.0.0.1/', 'multicast'],
  ['https://239.255.255.250/', 'multicast'],
  ['https://[ff02::1]/', 'multicast'],
  ['https://255.255.255.255/', 'broadcast'],
  ['https://240.0.0.1/', 'reserved'],
  ['https://192.0.2.1/', 'reserved'],
  ['https://198.51.100.7/', 'reserved'],
  ['https://203.0.113.9/', 'reserved'],
  ['https://198.18.0.1/', 'reserved'],
  ['https://[2001:db8::1]/', 'reserved'],
  ['https://[64:ff9b::a00:1]/', 'rfc6052'],
  ['https://[2002:7f00:1::]/', '6to4'],
  ['https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/', 'teredo'],
  ['https://[fec0::1]/', 'deprecated_site_local'],
]

const ALLOWED = [
  'https://8.8.8.8/',
  'https://1.1.1.1:8443/hook',
  'https://93.184.216.34/',
  'https://172.32.0.1/',
  'https://100.128.0.1/',
  'https://[2606:4700:4700::1111]/',
  'https://[2001:4860:4860::8888]/',
]

describe('address guard', () => {
  it(`has a table of at least 40 refused forms (${REFUSED.length})`, () => {
    expect(REFUSED.length).toBeGreaterThanOrEqual(40)
  })

  it.each(REFUSED)('refuses %s (%s)', async (url, reason) => {
    expect(await refusalForUrl(url, STRICT_POLICY)).toBe(reason)
  })

  it.each(ALLOWED)('lets %s through', async (url) => {
    expect(await refusalForUrl(url, STRICT_POLICY)).toBeNull()
  })

  it('REFDESK_WEBHOOK_ALLOW_PRIVATE=true lets private ranges through but never metadata', () => {
    const open = parseAllowPrivate('true')
    expect(refusalReason('127.0.0.1', open)).toBeNull()
    expect(refusalReason('10.1.2.3', open)).toBeNull()
    expect(refusalReason('::ffff:127.0.0.1', open)).toBeNull()
    expect(refusalReason('169.254.169.254', open)).toBe('metadata')
  })

  it('REFDESK_WEBHOOK_ALLOW_PRIVATE as CIDRs lets exactly those through', () => {
    const listed = parseAllowPrivate('127.0.0.0/8, 10.1.0.0/16,::1')
    expect(refusalReason('127.0.0.1', listed)).toBeNull()
    expect(refusalReason('10.1.200.3', listed)).toBeNull()
    expect(refusalReason('::1', listed)).toBeNull()
    expect(refusalReason('10.2.0.1', listed)).toBe('private')
    expect(refusalReason('192.168.0.1', listed)).toBe('private')
  })

  it.each(['', 'false', undefined])('REFDESK_WEBHOOK_ALLOW_PRIVATE=%j is strict', (value) => {
    expect(parseAllowPrivate(value)).toEqual(STRICT_POLICY)
  })

  it('rejects a value that is neither true nor CIDRs', () => {
    expect(() => parseAllowPrivate('yes')).toThrow(/REFDESK_WEBHOOK_ALLOW_PRIVATE/)
  })

  it('a name refused at connection names the class only, never the addresses it resolved to', async () => {
    const error = await new Promise<unknown>((resolve) =>
      guardedLookup(STRICT_POLICY)('localhost', { all: true }, (err) => resolve(err)),
    )
    expect(error).toMatchObject({ name: 'AddressRefusedError', reason: 'loopback' })
    // Everything a log line or a message could be built from: message, stack, own fields.
    const shown = [String(error), inspect(error, { depth: 5 }), JSON.stringify(error)].join('\n')
    expect(shown).toContain('loopback')
    expect(shown).not.toMatch(/127\.0\.0\.1|::1\b/)
  })
})
