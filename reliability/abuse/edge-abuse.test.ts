// Resource abuse at the HTTP edge, with one valid key or none: an MCP batch that would multiply one
// request (refused or capped before any of it runs), slow-body sockets (closed by the request time-out,
// or at once after their 401), and a burst past the per-key rate (429 with Retry-After).
import { connect, type Socket } from 'node:net'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { buildHttp, type App } from '../../src/app.js'
import { DEFAULT_HTTP_SETTINGS, type HttpSettings } from '../../src/http/settings.js'
import type { Partner, TestApp } from '../../test/helpers/app.js'
import { buildReliabilityApp } from '../lib/app.js'
import { recordFigure } from '../lib/figures.js'
import { debugLogger } from '../lib/logs.js'

const SECTION = 'resource-abuse'

describe('resource abuse at the HTTP edge', () => {
  let t: TestApp
  let app: App | undefined
  beforeEach(async () => {
    t = await buildReliabilityApp('abuse-edge')
  })
  afterEach(async () => {
    await app?.close()
    app = undefined
    await t.close()
  })

  async function listen(settings: Partial<HttpSettings>): Promise<number> {
    app = await buildHttp(t.runtime, debugLogger('abuse-edge-listening'), {
      http: { ...DEFAULT_HTTP_SETTINGS, ...settings },
    })
    await app.listen({ port: 0, host: '127.0.0.1' })
    return (app.server.address() as { port: number }).port
  }

  const mcp = (p: Partner, payload: unknown, version: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/mcp',
      headers: {
        authorization: `Bearer ${p.key}`,
        'content-type': 'application/json',
        'mcp-protocol-version': version,
      },
      payload: JSON.stringify(payload),
    })

  const toolCall = (id: number, name: string, args: Record<string, unknown>) => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: `refdesk_${name}`, arguments: args },
  })

  it('MCP batches: refused from 2025-06-18, capped before, imports counted across the batch', async () => {
    const GAMES = 2_000
    const p = await t.partner()
    const league = (await p.post('/leagues', { name: 'Big' })).body.data
    for (let i = 0; i < GAMES; i += 500) {
      const games = Array.from({ length: 500 }, (_, j) => ({
        externalId: `g-${i + j}`,
        startsAt: new Date(Date.UTC(2026, 8, 1) + (i + j) * 3_600_000).toISOString(),
      }))
      expect((await p.post(`/leagues/${league.id}/games`, { games })).status).toBe(201)
    }
    const reads = (n: number) =>
      Array.from({ length: n }, (_, i) => toolCall(i, 'get_league', { leagueId: league.id }))

    const one = await mcp(p, toolCall(0, 'get_league', { leagueId: league.id }), '2025-06-18')
    expect(one.statusCode).toBe(200)
    const oneBytes = one.rawPayload.length

    const started = performance.now()
    const refused = await mcp(p, reads(20), '2025-06-18')
    const refusedMs = performance.now() - started
    expect(refused.statusCode).toBe(400)
    const refusedBytes = refused.rawPayload.length

    const overCap = await mcp(p, reads(20), '2025-03-26')
    expect(overCap.statusCode).toBe(400)

    const capped = await mcp(p, reads(10), '2025-03-26')
    expect(capped.statusCode).toBe(200)
    const cappedRatio = capped.rawPayload.length / oneBytes

    const importing = (id: number) =>
      toolCall(id, 'upsert_games', {
        leagueId: league.id,
        games: Array.from({ length: 500 }, (_, j) => ({
          externalId: `b${id}-${j}`,
          startsAt: '2027-01-01T00:00:00Z',
        })),
        confirm: true,
      })
    const imports = await mcp(
      p,
      Array.from({ length: 3 }, (_, i) => importing(i)),
      '2025-03-26',
    )
    expect(imports.statusCode).toBe(400)
    const gamesAfter = (await p.get(`/leagues/${league.id}/games`)).body.data.length

    recordFigure({
      section: SECTION,
      metric: `MCP batch: 20 × get_league (${GAMES}-game league) under 2025-06-18: bytes out, answer time`,
      value: `${refusedBytes} B, ${refusedMs.toFixed(1)} ms (one call: ${oneBytes} B)`,
      target: 'refused, < 1 KB',
      met: refused.statusCode === 400 && refusedBytes < 1024,
    })
    recordFigure({
      section: SECTION,
      metric: 'MCP batch under 2025-03-26: 20 calls refused; 10 calls answer ≤ 10 × one call’s bytes',
      value: `${overCap.statusCode}; ${cappedRatio.toFixed(2)} ×`,
      target: '400; <= 10',
      met: overCap.statusCode === 400 && cappedRatio <= 10.01,
    })
    recordFigure({
      section: SECTION,
      metric: 'MCP batch: 3 × upsert_games of 500 games, games written',
      value: gamesAfter - GAMES,
      target: '0 (refused: 500 per batch)',
      met: imports.statusCode === 400 && gamesAfter === GAMES,
    })
    expect(refusedBytes).toBeLessThan(1024)
    expect(cappedRatio).toBeLessThanOrEqual(10.01)
    expect(gamesAfter).toBe(GAMES)
  })

  it('slow clients: slow-body sockets, with and without a key, are all closed', async () => {
    const SOCKETS = 200
    const AFTER_MS = 5_000
    const REQUEST_TIMEOUT_MS = 2_000
    const p = await t.partner()
    const port = await listen({ requestTimeoutMs: REQUEST_TIMEOUT_MS, headersTimeoutMs: 1_000 })
    const sockets: Socket[] = []
    const open = new Set<Socket>()
    const anonymous = new Set<Socket>()
    const timers: NodeJS.Timeout[] = []
    try {
      for (let i = 0; i < SOCKETS; i++) {
        const socket = connect(port, '127.0.0.1')
        sockets.push(socket)
        open.add(socket)
        socket.on('error', () => undefined)
        socket.on('close', () => open.delete(socket))
        const auth = i % 2 === 0 ? `Authorization: Bearer ${p.key}\r\n` : ''
        if (auth === '') anonymous.add(socket)
        socket.write(
          `POST /api/v1/leagues HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Length: 1000000\r\n\r\n{"name":"`,
        )
        timers.push(
          setInterval(() => {
            if (!socket.destroyed) socket.write('x')
          }, 100),
        )
      }
      const health = await fetch(`http://127.0.0.1:${port}/healthz`)
      expect(health.status).toBe(200)
      // Before the request time-out: only the close after each 401 can have ended the anonymous ones.
      await new Promise((resolve) => setTimeout(resolve, REQUEST_TIMEOUT_MS / 2))
      const anonymousOpen = [...anonymous].filter((socket) => open.has(socket)).length
      await new Promise((resolve) => setTimeout(resolve, AFTER_MS - REQUEST_TIMEOUT_MS / 2))
      recordFigure({
        section: SECTION,
        metric: `slow clients: unauthenticated slow-body sockets open ${REQUEST_TIMEOUT_MS / 2000} s after their 401`,
        value: `${anonymousOpen} of ${anonymous.size}`,
        target: '0',
        met: anonymousOpen === 0,
      })
      recordFigure({
        section: SECTION,
        metric: `slow clients: sockets open ${AFTER_MS / 1000} s after ${SOCKETS} slow-body requests (half unauthenticated; request time-out ${REQUEST_TIMEOUT_MS / 1000} s)`,
        value: `${open.size} of ${SOCKETS}`,
        target: '0',
        met: open.size === 0,
      })
      expect(open.size).toBe(0)
      expect(anonymousOpen).toBe(0)
    } finally {
      for (const timer of timers) clearInterval(timer)
      for (const socket of sockets) socket.destroy()
    }
  })

  it('rate limit: a burst past a key’s bucket answers 429 with Retry-After', async () => {
    const BURST = 50
    const REQUESTS = 300
    const port = await listen({ rateLimitPerSecond: 5, rateLimitBurst: BURST })
    const p = await t.partner()
    const other = await t.partner()
    const started = performance.now()
    const answers = await Promise.all(
      Array.from({ length: REQUESTS }, () =>
        fetch(`http://127.0.0.1:${port}/api/v1/leagues`, { headers: { authorization: `Bearer ${p.key}` } }),
      ),
    )
    const seconds = (performance.now() - started) / 1000
    const refused = answers.filter((res) => res.status === 429)
    const withRetryAfter = refused.filter((res) => Number(res.headers.get('retry-after')) >= 1)
    const bodies = (await Promise.all(refused.map((res) => res.json()))) as { error: string }[]
    for (const res of answers.filter((r) => r.status !== 429)) await res.arrayBuffer()
    const granted = REQUESTS - refused.length
    const allowed = BURST + Math.ceil(seconds * 5)
    const otherStatus = (
      await fetch(`http://127.0.0.1:${port}/api/v1/leagues`, {
        headers: { authorization: `Bearer ${other.key}` },
      })
    ).status
    recordFigure({
      section: SECTION,
      metric: `rate limit: 429 with Retry-After out of a burst of ${REQUESTS} (bucket ${BURST}, 5/s; ${seconds.toFixed(1)} s)`,
      value: `${withRetryAfter.length} of ${REQUESTS} (granted ${granted}, allowed ≤ ${allowed})`,
      target: 'granted ≤ bucket + refill; every refusal with Retry-After',
      met: granted <= allowed && withRetryAfter.length === refused.length && refused.length > 0,
    })
    expect(granted).toBeLessThanOrEqual(allowed)
    expect(withRetryAfter).toHaveLength(refused.length)
    expect(bodies.every((body) => body.error === 'rate_limited')).toBe(true)
    expect(otherStatus).toBe(200)
  })
})
