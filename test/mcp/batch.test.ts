// JSON-RPC batches on the MCP endpoint: refused from protocol version 2025-06-18 (which has none), capped
// for older versions, with the games of a batch's imports counted together against one request's limit.
// What the transport refuses is logged, never silent.
import { Writable } from 'node:stream'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { buildTestApp, type Partner, type TestApp } from '../helpers/app.js'

const call = (id: number, name: string, args: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: `refdesk_${name}`, arguments: args },
})

const games = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => ({ externalId: `${prefix}-${i}`, startsAt: '2026-06-01T10:00:00Z' }))

describe('MCP JSON-RPC batches', () => {
  let t: TestApp
  let log: string[]
  beforeEach(async () => {
    log = []
    const stream = new Writable({
      write(chunk, _enc, done) {
        log.push(String(chunk))
        done()
      },
    })
    t = await buildTestApp({ logger: { level: 'info', stream }, http: { mcpMaxBatch: 4 } })
  })
  afterEach(async () => {
    await t.close()
  })

  const post = (p: Partner, payload: unknown, version?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/mcp',
      headers: {
        authorization: `Bearer ${p.key}`,
        'content-type': 'application/json',
        ...(version !== undefined && { 'mcp-protocol-version': version }),
      },
      payload: JSON.stringify(payload),
    })

  const leagueCount = async (p: Partner) => (await p.get('/leagues')).body.data.length

  it.each(['2025-06-18', '2025-11-25'])('refuses any batch under %s, running none of it', async (version) => {
    const p = await t.partner()
    const res = await post(p, [call(1, 'upsert_league', { name: 'a' }), call(2, 'list_leagues')], version)
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } })
    expect(res.json().error.message).toContain('no JSON-RPC batches')
    expect(await leagueCount(p)).toBe(0)
    expect(log.join('')).toContain('mcp batch refused')
  })

  it('serves a batch within the cap under 2025-03-26, or with no version named', async () => {
    const p = await t.partner()
    for (const version of ['2025-03-26', undefined]) {
      const res = await post(p, [call(1, 'list_leagues'), call(2, 'list_webhooks')], version)
      expect(res.statusCode).toBe(200)
      expect(
        res
          .json()
          .map((answer: { id: number }) => answer.id)
          .sort(),
      ).toEqual([1, 2])
    }
  })

  it('refuses a batch over the cap, running none of it', async () => {
    const p = await t.partner()
    const batch = Array.from({ length: 5 }, (_, i) => call(i, 'upsert_league', { name: `l${i}` }))
    for (const version of ['2025-03-26', undefined]) {
      const res = await post(p, batch, version)
      expect(res.statusCode).toBe(400)
      expect(res.json().error).toMatchObject({ code: -32600, message: expect.stringContaining('at most 4') })
    }
    expect(await leagueCount(p)).toBe(0)
  })

  it('counts the games of a batch’s imports together against the 500 of one request', async () => {
    const p = await t.partner()
    const league = (await p.post('/leagues', { name: 'Batch' })).body.data
    const importing = (id: number, n: number) =>
      call(id, 'upsert_games', { leagueId: league.id, games: games(`g${id}`, n), confirm: true })
    const refused = await post(p, [importing(1, 300), importing(2, 201)], '2025-03-26')
    expect(refused.statusCode).toBe(400)
    expect(refused.json().error.message).toContain('500 games together')
    expect((await p.get(`/leagues/${league.id}/games`)).body.data).toHaveLength(0)
    const served = await post(p, [importing(3, 300), importing(4, 200)], '2025-03-26')
    expect(served.statusCode).toBe(200)
    expect((await p.get(`/leagues/${league.id}/games`)).body.data).toHaveLength(500)
  })

  it('logs what the transport refuses, without the request’s content', async () => {
    const p = await t.partner()
    const unsupported = { jsonrpc: '2.0', id: 1, method: 'tools/list' }
    expect((await post(p, unsupported, '1999-01-01')).statusCode).toBe(400)
    const invalid = { jsonrpc: '2.0', id: 2, method: 'tools/list', email: 'x@example.com' }
    expect((await post(p, invalid, '2025-06-18')).statusCode).toBe(400)
    const text = log.join('')
    expect(text).toContain('mcp transport error')
    expect(text).toContain('Unsupported protocol version')
    expect(text).toContain('Invalid JSON-RPC message')
    expect(text).not.toContain('x@example.com')
  })
})
