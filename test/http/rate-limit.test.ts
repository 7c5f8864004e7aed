// The per-key rate limit: a token bucket per API key, REST and MCP alike, answering 429 rate_limited
// with Retry-After once a key has spent its burst.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { tokenBuckets } from '../../src/http/rate-limit.js'
import { DEFAULT_HTTP_SETTINGS } from '../../src/http/settings.js'
import { buildTestApp, type TestApp } from '../helpers/app.js'

describe('token buckets', () => {
  it('grant the burst, then one request per refill, each key apart', () => {
    let now = 0
    const limiter = tokenBuckets({ perSecond: 2, burst: 3 }, () => now)
    expect([1, 2, 3].map(() => limiter.take('a'))).toEqual([undefined, undefined, undefined])
    expect(limiter.take('a')).toBe(1)
    expect(limiter.take('b')).toBeUndefined()
    now = 500
    expect(limiter.take('a')).toBeUndefined()
    expect(limiter.take('a')).toBe(1)
    now = 60_000
    expect([1, 2, 3].map(() => limiter.take('a'))).toEqual([undefined, undefined, undefined])
    expect(limiter.take('a')).toBe(1)
  })

  it('ask a slow rate’s caller to wait as long as the next token takes, in whole seconds', () => {
    let now = 0
    const limiter = tokenBuckets({ perSecond: 0.1, burst: 1 }, () => now)
    expect(limiter.take('a')).toBeUndefined()
    expect(limiter.take('a')).toBe(10)
    now = 4_000
    expect(limiter.take('a')).toBe(6)
  })

  it('take several tokens at once, all or none', () => {
    let now = 0
    const limiter = tokenBuckets({ perSecond: 1, burst: 5 }, () => now)
    expect(limiter.take('a', 4)).toBeUndefined()
    expect(limiter.take('a', 2)).toBe(1)
    expect(limiter.take('a')).toBeUndefined()
    expect(limiter.take('a')).toBe(1)
    now = 3_000
    expect(limiter.take('a', 4)).toBe(1)
    expect(limiter.take('a', 3)).toBeUndefined()
  })
})

describe('the rate limit over HTTP', () => {
  let t: TestApp
  beforeEach(async () => {
    t = await buildTestApp({
      http: { http: { ...DEFAULT_HTTP_SETTINGS, rateLimitPerSecond: 0.01, rateLimitBurst: 3 } },
    })
  })
  afterEach(async () => {
    await t.close()
  })

  it('answers 429 rate_limited with Retry-After once a key spent its burst; other keys go on', async () => {
    const p = await t.partner()
    const other = await t.partner()
    for (let i = 0; i < 3; i++) expect((await p.get('/leagues')).status).toBe(200)
    const refused = await p.post('/leagues', { name: 'one too many' })
    expect(refused).toMatchObject({ status: 429, body: { error: 'rate_limited' } })
    expect(refused.headers['retry-after']).toBe('100')
    expect(refused.headers['cache-control']).toBe('no-store')
    expect((await other.get('/leagues')).status).toBe(200)
  })

  it('counts MCP requests on the same key', async () => {
    const p = await t.partner()
    for (let i = 0; i < 3; i++) expect((await p.get('/')).status).toBe(200)
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/mcp',
      headers: { authorization: `Bearer ${p.key}`, 'content-type': 'application/json' },
      payload: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    })
    expect(res.statusCode).toBe(429)
    expect(res.json()).toEqual({ error: 'rate_limited' })
    expect(res.headers['retry-after']).toBe('100')
  })

  // Issue 21 item 9: a batch of N calls costs what N requests would.
  it('takes one token per message of an MCP batch, and runs none of a batch over the rate', async () => {
    const p = await t.partner()
    const batch = (n: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/mcp',
        headers: {
          authorization: `Bearer ${p.key}`,
          'content-type': 'application/json',
          'mcp-protocol-version': '2025-03-26',
        },
        payload: Array.from({ length: n }, (_, i) => ({
          jsonrpc: '2.0',
          id: i + 1,
          method: 'tools/call',
          params: { name: 'refdesk_upsert_league', arguments: { name: `L${i}` } },
        })),
      })
    const over = await batch(4)
    expect([over.statusCode, over.json(), over.headers['retry-after']]).toEqual([
      429,
      { error: 'rate_limited' },
      '100',
    ])
    // The refused batch spent its request's own token, as any request does: two are left, for two calls.
    const served = await batch(2)
    expect(served.statusCode).toBe(200)
    expect(served.json()).toHaveLength(2)
    expect(await p.get('/leagues')).toMatchObject({ status: 429, body: { error: 'rate_limited' } })
    // The two leagues of the served batch, none of the refused one.
    const leagues = await t.deps.db
      .selectFrom('leagues')
      .select('name')
      .where('source', '=', p.source)
      .execute()
    expect(leagues.map((l) => l.name).sort()).toEqual(['L0', 'L1'])
  })

  it('spends no key’s token on a request without a valid key: its client address pays, then waits', async () => {
    const p = await t.partner()
    const stranger = (authorization: string) =>
      t.app.inject({ url: '/api/v1/leagues', remoteAddress: '203.0.113.7', headers: { authorization } })
    for (let i = 0; i < 3; i++) expect((await stranger(`Bearer ${p.key}x`)).statusCode).toBe(401)
    // The address spent its burst on unknown keys: it is refused before any key is looked up.
    const refused = await stranger(`Bearer ${p.key}y`)
    expect([refused.statusCode, refused.json(), refused.headers['retry-after']]).toEqual([
      429,
      { error: 'rate_limited' },
      '100',
    ])
    for (let i = 0; i < 5; i++) expect((await t.client().get('/openapi.json')).status).toBe(200)
    // The partner's key, from its own address, has all of its tokens.
    for (let i = 0; i < 3; i++) expect((await p.get('/leagues')).status).toBe(200)
  })

  it('remembers at most maxBuckets client addresses, the longest idle forgotten first', () => {
    let now = 0
    const limiter = tokenBuckets({ perSecond: 0.01, burst: 1, maxBuckets: 2 }, () => now)
    for (const address of ['a', 'b']) limiter.take(address)
    expect([limiter.waitFor('a'), limiter.waitFor('b')]).toEqual([100, 100])
    now = 1
    limiter.take('c')
    expect([limiter.waitFor('a'), limiter.waitFor('b'), limiter.waitFor('c')]).toEqual([undefined, 100, 100])
  })
})
