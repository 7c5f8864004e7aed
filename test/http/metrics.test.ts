// GET /metrics: the Prometheus exposition of requests by operation, MCP tool calls, the dispatcher's
// deliveries and the runtime's backlog, open or behind REFDESK_METRICS_TOKEN, or on a port of its own.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { buildHttp, serveMetrics, type App } from '../../src/app.js'
import { fanOut } from '../../src/webhooks/fan-out.js'
import { isPostgres, useTestApp } from '../helpers/app.js'
import { inMemoryMcp } from '../mcp/clients.js'
import { useDispatchers } from '../webhooks/dispatch.js'
import { startReceiver, type Receiver } from '../webhooks/receiver.js'
import { eventually } from '../helpers/eventually.js'

/** The value of one series in an exposition, 0 when absent. */
function value(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `))
  return line === undefined ? 0 : Number(line.slice(series.length + 1))
}

const TOKEN = 'scrape-secret'

describe('GET /metrics', () => {
  const t = useTestApp({ http: { metrics: { token: TOKEN } } })
  const dispatcher = useDispatchers(t)
  let extra: App | undefined
  let receiver: Receiver | undefined
  beforeEach(() => {
    extra = receiver = undefined
  })
  afterEach(async () => {
    await extra?.close()
    await receiver?.close()
  })

  const scrape = async (
    app: App = t.app,
    headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` },
  ) => {
    const res = await app.inject({ url: '/metrics', headers })
    return { status: res.statusCode, type: res.headers['content-type'], text: res.body }
  }

  it('counts requests by operation and status, with latency histograms and process metrics', async () => {
    const p = await t.partner()
    const series = 'refdesk_http_requests_total{operation="getGame",method="GET",status="404"}'
    const before = value((await scrape()).text, series)
    await p.get('/games/nope')
    await p.get('/games/nope')
    const { status, type, text } = await scrape()
    expect([status, type]).toEqual([200, expect.stringMatching(/^text\/plain; version=0\.0\.4/)])
    expect(value(text, series)).toBe(before + 2)
    expect(text).toContain(
      'refdesk_http_request_duration_seconds_bucket{le="+Inf",operation="getGame",method="GET",status="404"}',
    )
    for (const name of [
      'process_cpu_seconds_total',
      'nodejs_eventloop_lag_seconds',
      'refdesk_webhook_deliveries_pending',
    ])
      expect(text).toContain(`\n${name} `)
    // The PostgreSQL pool's use; SQLite has one embedded connection and no pool to report.
    expect(text.includes('\nrefdesk_db_pool_connections ')).toBe(isPostgres())
    // Ids never become labels.
    expect(text).not.toContain('nope')
  })

  it('counts MCP tool calls by tool and outcome', async () => {
    const p = await t.partner()
    const series = (outcome: string) => `refdesk_mcp_tool_calls_total{tool="get_game",outcome="${outcome}"}`
    const before = await scrape()
    const mcp = await inMemoryMcp(t.app, t.deps, p.key)
    try {
      await mcp.call('get_game', { gameId: 'nope' })
    } finally {
      await mcp.close()
    }
    const after = await scrape()
    expect(value(after.text, series('error'))).toBe(value(before.text, series('error')) + 1)
  })

  it('counts deliveries by outcome, their lag and leases, and reads the backlog', async () => {
    receiver = await startReceiver()
    const p = await t.partner()
    await p.post('/webhooks', { url: receiver.url, events: ['game.created'] })
    const league = (await p.post('/leagues', { name: 'L' })).body.data.id
    await p.post(`/leagues/${league}/games`, { games: [{ startsAt: '2026-05-02T15:00:00Z' }] })
    const committed = (await scrape()).text
    expect(value(committed, 'refdesk_outbox_events_unexpanded')).toBe(1)
    expect(value(committed, 'refdesk_webhook_deliveries_pending')).toBe(0)
    await fanOut(t.deps.db, t.deps.clock)
    const before = (await scrape()).text
    expect(value(before, 'refdesk_outbox_events_unexpanded')).toBe(0)
    expect(value(before, 'refdesk_webhook_deliveries_pending')).toBe(1)
    expect(value(before, 'refdesk_webhook_oldest_pending_seconds')).toBeGreaterThanOrEqual(0)
    await dispatcher()
    await receiver.waitForAccepted(1)
    await eventually(async () => {
      const text = (await scrape()).text
      expect(value(text, 'refdesk_webhook_deliveries_total{outcome="succeeded"}')).toBe(
        value(before, 'refdesk_webhook_deliveries_total{outcome="succeeded"}') + 1,
      )
      expect(value(text, 'refdesk_webhook_delivery_lag_seconds_count')).toBe(
        value(before, 'refdesk_webhook_delivery_lag_seconds_count') + 1,
      )
      expect(value(text, 'refdesk_webhook_attempts_total{result="succeeded"}')).toBeGreaterThan(0)
      expect(value(text, 'refdesk_webhook_leased_total')).toBeGreaterThan(
        value(before, 'refdesk_webhook_leased_total'),
      )
      expect(value(text, 'refdesk_webhook_deliveries_pending')).toBe(0)
    })
  })

  it('is closed on the service port without a token or a port of its own', async () => {
    extra = await buildHttp(t.runtime)
    expect((await scrape(extra, {})).status).toBe(404)
  })

  it('asks for the bearer token when one is set, and answers 401 the API’s way otherwise', async () => {
    extra = await buildHttp(t.runtime, undefined, { metrics: { token: TOKEN } })
    for (const headers of [{}, { authorization: 'Bearer wrong' }, { authorization: 'scrape-secret' }]) {
      const res = await extra.inject({ url: '/metrics', headers })
      expect([res.statusCode, res.json(), res.headers['www-authenticate']]).toEqual([
        401,
        { error: 'unauthorized' },
        'Bearer realm="refdesk-metrics"',
      ])
    }
    expect((await scrape(extra, { authorization: 'Bearer scrape-secret' })).status).toBe(200)
  })

  it('moves to a port of its own when one is set: the service port no longer answers it', async () => {
    extra = await buildHttp(t.runtime, undefined, { metrics: { port: 0 } })
    expect((await extra.inject({ url: '/metrics' })).statusCode).toBe(404)
    const server = await serveMetrics(t.runtime, { port: 0, host: '127.0.0.1' })
    try {
      const address = server.server.address() as { port: number }
      const res = await fetch(`http://127.0.0.1:${address.port}/metrics`)
      expect(res.status).toBe(200)
      expect(await res.text()).toContain('refdesk_webhook_deliveries_pending')
      expect((await fetch(`http://127.0.0.1:${address.port}/api/v1/`)).status).toBe(404)
    } finally {
      await server.close()
    }
  })
})
