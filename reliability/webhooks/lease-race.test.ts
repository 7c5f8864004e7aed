// A delivery record must stay consistent when an attempt outlives its lease (a slow receiver, or a group
// commit that lags under load, as seen on PostgreSQL in faults.test.ts): its `attempts` equals the attempts
// it recorded, and its status is what the last recorded attempt implies. The lease is shortened here
// (DispatcherOptions.leaseMs) so that answers arrive after several of its lengths: the dispatcher renews
// the leases of attempts still out (issue 21, item 15), and any renewal that comes too late must still
// leave the record consistent.
import { Webhook } from 'standardwebhooks'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { WebhookSettings } from '../../src/webhooks/settings.js'
import { parseAllowPrivate } from '../../src/net/address-guard.js'
import { startDispatcher, type Dispatcher } from '../../src/webhooks/dispatcher.js'
import { type TestApp } from '../../test/helpers/app.js'
import { CA } from '../../test/webhooks/receiver.js'
import { buildReliabilityApp } from '../lib/app.js'
import { recordFigure } from '../lib/figures.js'
import { rememberSecrets } from '../lib/logs.js'
import { startFaultReceiver, type Fault, type FaultReceiver } from './fault-receiver.js'

const EVENTS = 20

describe('an attempt that outlives its lease', () => {
  let t: TestApp
  let receiver: FaultReceiver
  let dispatcher: Dispatcher | undefined
  beforeEach(async () => {
    t = await buildReliabilityApp('webhook-lease-race')
  })
  afterEach(async () => {
    await dispatcher?.stop(0)
    await receiver?.close()
    await t.close()
  })

  it('never leaves attempts disagreeing with the recorded attempts, nor a status the last attempt contradicts', async () => {
    // 1st request: a 500 that takes longer than the lease (but not the timeout); 2nd: a 2xx after a
    // while; 3rd and later: a slow 2xx. A dispatcher that re-leases the row while its first attempt is
    // still out sends the 2nd copy with the stale attempt count; the 1st then records under the new lease.
    const script = (n: number): Fault =>
      n === 1
        ? { kind: 'status', status: 500, delayMs: 900 }
        : { kind: 'status', status: 200, delayMs: n === 2 ? 400 : 700 }
    receiver = await startFaultReceiver(script)
    const p = await t.partner()
    const endpoint = (await p.post('/webhooks', { url: receiver.url, events: ['game.created'] })).body.data
    rememberSecrets(endpoint.secret)
    const settings: WebhookSettings = {
      retrySchedule: [0, 50, 50],
      timeoutMs: 3000,
      policy: parseAllowPrivate('127.0.0.0/8'),
      concurrency: 64,
      perEndpointConcurrency: 64,
      sourceConcurrency: 64,
      pollIntervalMs: 50,
    }
    dispatcher = startDispatcher({
      database: t.runtime.database,
      settings,
      ca: CA,
      leaseMs: 600,
    })
    const league = (await p.post('/leagues', { name: 'lease race' })).body.data
    const games = Array.from({ length: EVENTS }, (_, i) => ({
      startsAt: new Date(Date.UTC(2026, 6, 1) + i * 3_600_000).toISOString(),
    }))
    expect((await p.post(`/leagues/${league.id}/games`, { games })).status).toBe(201)

    const rows = await vi.waitFor(
      async () => {
        const found = await t.deps.db
          .selectFrom('webhook_deliveries')
          .selectAll()
          .where('endpoint_id', '=', endpoint.id)
          .execute()
        expect(found).toHaveLength(EVENTS)
        expect(found.filter((r) => r.status === 'pending')).toEqual([])
        return found
      },
      { timeout: 30_000, interval: 50 },
    )
    // Let attempts still out (copies sent under a lost lease) come back before reading the history.
    await dispatcher.stop(5000)
    dispatcher = undefined
    const attempts = await t.deps.db
      .selectFrom('webhook_attempts')
      .select(['delivery_id', 'status_code', 'error'])
      .where(
        'delivery_id',
        'in',
        rows.map((r) => r.id),
      )
      .orderBy('seq')
      .execute()
    const wh = new Webhook(endpoint.secret, { format: 'raw' })
    const inconsistent: string[] = []
    for (const row of rows) {
      const own = attempts.filter((a) => a.delivery_id === row.id)
      const last = own.at(-1)
      const lastOk = last !== undefined && last.error === null
      if (row.attempts !== own.length)
        inconsistent.push(`${row.id}: attempts ${row.attempts}, ${own.length} recorded`)
      if (row.status !== (lastOk ? 'succeeded' : 'failed'))
        inconsistent.push(`${row.id}: ${row.status} after ${JSON.stringify(last)}`)
      for (const a of receiver.accepted.get(row.event_id) ?? [])
        expect(wh.verify(a.body, a.headers)).toBeTruthy()
    }
    recordFigure({
      section: 'webhook-faults',
      metric: 'attempt outliving its lease: deliveries whose attempts/status disagree with their history',
      value: inconsistent.length,
      target: '0',
      met: inconsistent.length === 0,
    })
    expect(inconsistent.slice(0, 3)).toEqual([])
  })
})
