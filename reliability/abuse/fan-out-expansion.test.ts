// Resource abuse: webhook fan-out. A 100-game import once blocked /healthz for 8 s while its deliveries
// were written. Now a dispatcher expands a 16-endpoint import into its 8,000 deliveries after the commit,
// and the service keeps answering meanwhile.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startDispatcher, type Dispatcher } from '../../src/webhooks/dispatcher.js'
import type { TestApp } from '../../test/helpers/app.js'
import { testSettings } from '../../test/webhooks/dispatch.js'
import { CA, startReceiver, type Receiver } from '../../test/webhooks/receiver.js'
import { buildReliabilityApp } from '../lib/app.js'
import { recordFigure } from '../lib/figures.js'
import { deliveriesOf, ENDPOINTS, GAMES, gamesBatch } from './fan-out.js'

describe('resource abuse: expanding webhook fan-out', () => {
  let t: TestApp
  let receiver: Receiver | undefined
  let dispatcher: Dispatcher | undefined
  beforeEach(async () => {
    t = await buildReliabilityApp('abuse-fan-out')
  })
  afterEach(async () => {
    await dispatcher?.stop(0)
    await receiver?.close()
    await t.close()
  })

  it('expands a 16-endpoint import into its deliveries without stalling /healthz', async () => {
    receiver = await startReceiver()
    const p = await t.partner()
    for (let i = 0; i < ENDPOINTS; i++)
      expect((await p.post('/webhooks', { url: `${receiver.url}/${i}` })).status).toBe(201)
    const league = (await p.post('/leagues', { name: 'expanded' })).body.data
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' })
    dispatcher = startDispatcher({
      database: t.runtime.database,
      settings: testSettings({ concurrency: 32, perEndpointConcurrency: 4 }),
      ca: CA,
    })

    const latencies: number[] = []
    let probing = true
    const probe = (async () => {
      while (probing) {
        const started = performance.now()
        expect((await fetch(`${address}/healthz`)).status).toBe(200)
        latencies.push(performance.now() - started)
        await new Promise((r) => setTimeout(r, 10))
      }
    })()
    const expected = ENDPOINTS * GAMES
    const started = performance.now()
    expect((await p.post(`/leagues/${league.id}/games`, gamesBatch('expanded'))).status).toBe(201)
    while ((await deliveriesOf(t.deps.db, p.source)) < expected) await new Promise((r) => setTimeout(r, 20))
    const fannedOutMs = performance.now() - started
    probing = false
    await probe
    const worst = Math.max(...latencies)
    recordFigure({
      section: 'resource-abuse',
      metric: `fan-out: ${expected} deliveries expanded from one import (ms, info)`,
      value: Math.round(fannedOutMs),
      target: 'info',
      met: true,
    })
    recordFigure({
      section: 'resource-abuse',
      metric: 'fan-out: worst /healthz latency while the import is expanded and delivered (ms)',
      value: Math.round(worst),
      target: '<= 1000',
      met: worst <= 1000,
    })
    expect(await deliveriesOf(t.deps.db, p.source)).toBe(expected)
    expect(worst).toBeLessThanOrEqual(1000)
  })
})
