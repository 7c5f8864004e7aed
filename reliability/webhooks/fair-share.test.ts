// Issue 21, item 1: one tenant's hanging endpoints must cost other tenants nothing measurable. A partner
// registers 16 endpoints that never answer and imports games, so its attempts alone would fill every slot
// of the dispatcher (32) for the whole timeout; meanwhile another tenant's events are delivered one at a
// time, each timed from its commit to its arrival. Before the fair share, such an event arrived after
// 73 s; the target is 2 s at most for every one of them.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { parseAllowPrivate } from '../../src/net/address-guard.js'
import { startDispatcher, type Dispatcher } from '../../src/webhooks/dispatcher.js'
import type { WebhookSettings } from '../../src/webhooks/settings.js'
import type { TestApp } from '../../test/helpers/app.js'
import { CA, startReceiver, type Receiver } from '../../test/webhooks/receiver.js'
import { buildReliabilityApp } from '../lib/app.js'
import { recordFigure } from '../lib/figures.js'
import { rememberSecrets } from '../lib/logs.js'

const HANGING_ENDPOINTS = 16
const HANGING_GAMES = 64
const OTHER_EVENTS = 20
const TARGET_MS = 2000

describe('one tenant with 16 hanging endpoints', () => {
  let t: TestApp
  const receivers: Receiver[] = []
  let dispatcher: Dispatcher | undefined
  beforeEach(async () => {
    t = await buildReliabilityApp('webhook-fair-share')
  })
  afterEach(async () => {
    await dispatcher?.stop(0)
    await Promise.all(receivers.splice(0).map((r) => r.close()))
    await t.close()
  })

  it('delays no other tenant: each of its deliveries arrives within 2 s of its commit', () => measure(false))

  // Issue 36, L3: endpoints of both tenants behind one host, whose connections the hanging ones held.
  it('delays no tenant sharing the hanging endpoints’ host either', () => measure(true))

  async function measure(sameHost: boolean) {
    const hanging = await t.partner()
    // Behind one host (a relay), the hanging tenant's endpoints are paths of the other's receiver.
    const answering = await startReceiver()
    receivers.push(answering)
    for (let i = 0; i < HANGING_ENDPOINTS; i++) {
      const r = sameHost ? answering : await startReceiver()
      const url = sameHost ? `${answering.url}/hanging-${i}` : r.url
      if (sameHost) answering.byPath.set(new URL(url).pathname, 'hang')
      else {
        r.fallback = 'hang'
        receivers.push(r)
      }
      const endpoint = (await hanging.post('/webhooks', { url, events: ['game.created'] })).body.data
      rememberSecrets(endpoint.secret)
    }
    const other = await t.partner()
    const endpoint = (await other.post('/webhooks', { url: answering.url, events: ['game.created'] })).body
      .data
    rememberSecrets(endpoint.secret)

    // The defaults (docs/webhooks.md), loopback allowed.
    const settings: WebhookSettings = {
      retrySchedule: [0, 5_000, 300_000],
      timeoutMs: 15_000,
      policy: parseAllowPrivate('127.0.0.0/8'),
      concurrency: 32,
      perEndpointConcurrency: 4,
      sourceConcurrency: 8,
      pollIntervalMs: 1000,
    }
    dispatcher = startDispatcher({ database: t.runtime.database, settings, ca: CA })
    const league = (await hanging.post('/leagues', { name: 'hanging' })).body.data
    const games = Array.from({ length: HANGING_GAMES }, (_, i) => ({
      startsAt: new Date(Date.UTC(2026, 6, 1) + i * 3_600_000).toISOString(),
    }))
    expect((await hanging.post(`/leagues/${league.id}/games`, { games })).status).toBe(201)
    const hungCount = () =>
      sameHost
        ? answering.received.filter((r) => r.path !== new URL(answering.url).pathname).length
        : receivers.reduce((n, r) => n + (r === answering ? 0 : r.received.length), 0)
    await vi.waitFor(() => expect(hungCount()).toBeGreaterThanOrEqual(settings.sourceConcurrency!), {
      timeout: 60_000,
      interval: 20,
    })

    const otherLeague = (await other.post('/leagues', { name: 'other' })).body.data
    const latencies: number[] = []
    for (let i = 0; i < OTHER_EVENTS; i++) {
      const committed = performance.now()
      const res = await other.post(`/leagues/${otherLeague.id}/games`, {
        games: [{ startsAt: new Date(Date.UTC(2026, 7, 1) + i * 3_600_000).toISOString() }],
      })
      expect(res.status).toBe(201)
      const [received] = (await answering.waitForAccepted(i + 1)).slice(i)
      latencies.push(received!.receivedAt - committed)
    }
    const worst = Math.round(Math.max(...latencies))
    recordFigure({
      section: 'webhook-faults',
      metric: `another tenant's delivery latency while one tenant has ${HANGING_ENDPOINTS} hanging endpoints${sameHost ? ' on its host' : ''} (worst of ${OTHER_EVENTS}, ms)`,
      value: worst,
      target: `<= ${TARGET_MS}`,
      met: worst <= TARGET_MS,
    })
    expect(worst).toBeLessThanOrEqual(TARGET_MS)
    // The hanging tenant held its share and no more.
    expect(hungCount()).toBe(settings.sourceConcurrency)
  }
})
