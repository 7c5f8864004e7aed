// Issue 21, item 1: one partner's slow or hanging endpoints must not delay another tenant's webhooks. A
// dispatcher starts attempts round-robin over sources, each with at most `sourceConcurrency` in flight, so
// the hanging source holds its share and no more; and a source's test examples have an hourly quota.
import { afterEach, describe, expect, it } from 'vitest'
import { fanOut } from '../../src/webhooks/fan-out.js'
import { useTestApp, type Partner } from '../helpers/app.js'
import { useDispatchers } from './dispatch.js'
import { startReceiver, type Receiver } from './receiver.js'
import { eventually } from '../helpers/eventually.js'

describe('fair share between sources', () => {
  const t = useTestApp()
  const dispatcher = useDispatchers(t)
  const receivers: Receiver[] = []
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((r) => r.close()))
  })

  async function receiver(fallback: 'hang' | 204) {
    const r = await startReceiver()
    r.fallback = fallback
    receivers.push(r)
    return r
  }

  async function importGames(p: Partner, n: number) {
    const league = (await p.post('/leagues', { name: 'L' })).body.data
    const games = Array.from({ length: n }, (_, i) => ({
      startsAt: new Date(Date.UTC(2026, 5, 1) + i * 3_600_000).toISOString(),
    }))
    expect((await p.post(`/leagues/${league.id}/games`, { games })).status).toBe(201)
  }

  it('a source whose endpoints all hang holds its share of the slots; another source is delivered meanwhile', async () => {
    const hanging = await t.partner()
    const hung: Receiver[] = []
    // Four endpoints, each its own origin, with more attempts between them than the dispatcher has slots.
    for (let i = 0; i < 4; i++) {
      const r = await receiver('hang')
      hung.push(r)
      await hanging.post('/webhooks', { url: r.url, events: ['game.created'] })
    }
    const other = await t.partner()
    const answering = await receiver(204)
    await other.post('/webhooks', { url: answering.url, events: ['game.created'] })
    // A timeout far beyond the test: a slot the hanging source takes stays taken.
    await dispatcher({ timeoutMs: 600_000, concurrency: 8, perEndpointConcurrency: 4, sourceConcurrency: 4 })
    await importGames(hanging, 4)
    const hungCount = () => hung.reduce((n, r) => n + r.received.length, 0)
    await eventually(() => expect(hungCount()).toBe(4))

    await importGames(other, 1)
    await answering.waitForAccepted(1)
    expect(hungCount()).toBe(4)
  })

  it('sends at most 60 test examples a source an hour, over all its endpoints: the 61st is 409 test_event_limit_reached', async () => {
    const p = await t.partner()
    const r = await receiver(204)
    const ids: string[] = []
    for (let i = 0; i < 2; i++)
      ids.push((await p.post('/webhooks', { url: r.url, events: ['game.created'] })).body.data.id)
    for (let i = 0; i < 60; i++) {
      const res = await p.post(`/webhooks/${ids[i % 2]}/test`, { event: 'game.created' })
      expect(res.status).toBe(202)
    }
    for (const id of ids)
      expect(await p.post(`/webhooks/${id}/test`, { event: 'game.created' })).toMatchObject({
        status: 409,
        body: { error: 'test_event_limit_reached' },
      })
    // Another source has its own quota.
    const other = await t.partner()
    const otherId = (await other.post('/webhooks', { url: r.url })).body.data.id
    expect((await other.post(`/webhooks/${otherId}/test`, { event: 'game.created' })).status).toBe(202)
    // An hour after the oldest example, one more may go.
    const oldest = await t.deps.db
      .selectFrom('webhook_deliveries')
      .select(['id'])
      .where('endpoint_id', 'in', ids)
      .orderBy('seq')
      .executeTakeFirstOrThrow()
    await t.deps.db
      .updateTable('webhook_deliveries')
      .set({ created_at: new Date(Date.now() - 3_600_001).toISOString() })
      .where('id', '=', oldest.id)
      .execute()
    expect((await p.post(`/webhooks/${ids[0]}/test`, { event: 'game.created' })).status).toBe(202)
    expect((await p.post(`/webhooks/${ids[1]}/test`, { event: 'game.created' })).status).toBe(409)
  })
})

describe('the source of a delivery', () => {
  const t = useTestApp()

  it('is the source that owns its endpoint, for deliveries of fan-out and of test examples', async () => {
    const p = await t.partner()
    const endpoint = (await p.post('/webhooks', { url: 'https://hooks.example.com/x' })).body.data
    await p.post(`/webhooks/${endpoint.id}/test`, { event: 'game.created' })
    const league = (await p.post('/leagues', { name: 'L' })).body.data
    await p.post(`/leagues/${league.id}/games`, { games: [{ startsAt: '2026-05-01T18:00:00Z' }] })
    await fanOut(t.deps.db, t.deps.clock)
    const owner = await t.deps.db
      .selectFrom('webhook_endpoints')
      .select('source')
      .where('id', '=', endpoint.id)
      .executeTakeFirstOrThrow()
    const rows = await t.deps.db
      .selectFrom('webhook_deliveries')
      .select('source')
      .where('endpoint_id', '=', endpoint.id)
      .execute()
    expect(rows.map((r) => r.source)).toEqual([owner.source, owner.source])
  })
})
