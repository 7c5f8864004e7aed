// The webhook toolkit against a real local receiver: test events, redelivery, recovery and the endpoint
// health that disables a failing endpoint (its clock moved by the test). Every operation answers another
// source's ids exactly like missing ones.
import { Webhook } from 'standardwebhooks'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Clock } from '../../src/clock.js'
import { sampleEventData } from '../../src/domain/partners/sample-events.js'
import { EVENT_DATA, EVENT_NAMES } from '../../src/schemas/events.js'
import { useTestApp, type Partner } from '../helpers/app.js'
import { useDispatchers } from './dispatch.js'
import { startReceiver, type Receiver } from './receiver.js'
import { eventually } from '../helpers/eventually.js'

const DAY = 86_400_000
const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString()

describe('the webhook toolkit', () => {
  const t = useTestApp()
  const dispatcher = useDispatchers(t)
  let receiver: Receiver
  beforeEach(async () => {
    receiver = await startReceiver()
  })
  afterEach(async () => {
    await receiver.close()
  })

  async function register(p: Partner, events: string[] = []) {
    const res = await p.post('/webhooks', { url: receiver.url, events })
    expect(res.status).toBe(201)
    return res.body.data as { id: string; secret: string }
  }

  const deliveries = async (p: Partner, id: string, query = '') =>
    (await p.get(`/webhooks/${id}/deliveries?limit=200${query}`)).body.data as any[]

  async function importGames(p: Partner, n: number) {
    const league = (await p.post('/leagues', { name: 'L' })).body.data
    const games = Array.from({ length: n }, (_, i) => ({
      startsAt: `2026-06-${String(i + 1).padStart(2, '0')}T10:00:00Z`,
    }))
    expect((await p.post(`/leagues/${league.id}/games`, { games })).status).toBe(201)
    return league
  }

  const settled = (p: Partner, id: string, status: string, n: number) =>
    eventually(async () => {
      const rows = await deliveries(p, id)
      expect(rows.filter((d) => d.status === status)).toHaveLength(n)
      return rows
    }, 25)

  describe('POST /webhooks/{webhookId}/test', () => {
    it('sends a signed example of the event, marked test, recorded like any delivery', async () => {
      const p = await t.partner()
      const endpoint = await register(p, ['game.created'])
      await dispatcher()
      const res = await p.post(`/webhooks/${endpoint.id}/test`, { event: 'position.claimed' })
      expect(res.status).toBe(202)
      expect(res.body.data).toMatchObject({
        endpointId: endpoint.id,
        event: 'position.claimed',
        status: 'pending',
        attempts: 0,
        eventId: expect.stringMatching(/^evt_/),
      })
      const [got] = await receiver.waitForAccepted(1)
      expect(got!.headers['webhook-id']).toBe(res.body.data.eventId)
      expect(new Webhook(endpoint.secret, { format: 'raw' }).verify(got!.body, got!.headers)).toEqual(
        got!.json,
      )
      expect(Object.keys(got!.json)).toEqual(['id', 'event', 'createdAt', 'data', 'test'])
      expect(got!.json).toMatchObject({ id: res.body.data.eventId, event: 'position.claimed', test: true })
      expect(EVENT_DATA['position.claimed'].parse(got!.json.data)).toEqual(got!.json.data)
      expect(got!.json.data.game.source).toBe(p.source)
      const [listed] = await settled(p, endpoint.id, 'succeeded', 1)
      expect(listed).toMatchObject({ id: res.body.data.id, attempts: 1, lastStatusCode: 204 })
    })

    it.each(EVENT_NAMES)('gives %s an example of its documented data', (event) => {
      const data = sampleEventData(event, 'acme', Date.parse('2026-04-20T09:30:00.000Z'))
      expect(EVENT_DATA[event].parse(data)).toEqual(data)
    })

    it('refuses a missing or unknown event, and another source’s endpoint like a missing one', async () => {
      const p = await t.partner()
      const other = await t.partner()
      const endpoint = await register(p)
      const theirs = await register(other)
      expect(await p.post(`/webhooks/${endpoint.id}/test`, {})).toMatchObject({
        status: 400,
        body: { error: 'invalid_event' },
      })
      expect(await p.post(`/webhooks/${endpoint.id}/test`, { event: 'game.exploded' })).toMatchObject({
        status: 400,
        body: { error: 'unknown_event:game.exploded' },
      })
      for (const id of [theirs.id, 'nonexistent00000000000000'])
        expect(await p.post(`/webhooks/${id}/test`, { event: 'game.created' })).toMatchObject({
          status: 404,
          body: { error: 'endpoint_not_found' },
        })
      expect(await deliveries(other, theirs.id)).toEqual([])
    })
  })

  describe('POST /webhooks/{webhookId}/deliveries/{deliveryId}/retry', () => {
    it('sends a failed delivery again now with the same webhook-id, and a succeeded one too', async () => {
      const p = await t.partner()
      const endpoint = await register(p)
      receiver.script(500)
      await dispatcher({ retrySchedule: [0] })
      await importGames(p, 1)
      const [failed] = await settled(p, endpoint.id, 'failed', 1)
      expect(failed).toMatchObject({ attempts: 1, lastStatusCode: 500, lastError: 'http_status' })

      const res = await p.post(`/webhooks/${endpoint.id}/deliveries/${failed.id}/retry`)
      expect(res.status).toBe(202)
      expect(res.body.data).toMatchObject({ id: failed.id, status: 'pending', attempts: 1 })
      const [again] = await settled(p, endpoint.id, 'succeeded', 1)
      expect(again).toMatchObject({ id: failed.id, attempts: 2, lastStatusCode: 204, lastError: null })
      expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([failed.eventId, failed.eventId])

      expect((await p.post(`/webhooks/${endpoint.id}/deliveries/${failed.id}/retry`)).status).toBe(202)
      await eventually(() => expect(receiver.accepted()).toHaveLength(2), 25)
      await eventually(async () => expect((await deliveries(p, endpoint.id))[0].attempts).toBe(3))
    })

    it('answers another source’s endpoint or delivery like a missing one', async () => {
      const p = await t.partner()
      const other = await t.partner()
      const mine = await register(p)
      const theirs = await register(other)
      await dispatcher()
      await importGames(other, 1)
      const [delivery] = await settled(other, theirs.id, 'succeeded', 1)
      const retry = (who: Partner, endpointId: string, deliveryId: string) =>
        who.post(`/webhooks/${endpointId}/deliveries/${deliveryId}/retry`)
      expect(await retry(p, theirs.id, delivery.id)).toMatchObject({
        status: 404,
        body: { error: 'endpoint_not_found' },
      })
      expect(await retry(p, mine.id, delivery.id)).toMatchObject({
        status: 404,
        body: { error: 'delivery_not_found' },
      })
      expect(await retry(p, mine.id, 'nonexistent00000000000000')).toMatchObject({
        status: 404,
        body: { error: 'delivery_not_found' },
      })
      expect((await deliveries(other, theirs.id))[0]).toMatchObject({ status: 'succeeded', attempts: 1 })
    })
  })

  describe('POST /webhooks/{webhookId}/recover', () => {
    it('queues every failed delivery since then again and says how many', async () => {
      const p = await t.partner()
      const endpoint = await register(p)
      receiver.fallback = 503
      await dispatcher({ retrySchedule: [0] })
      await importGames(p, 3)
      await settled(p, endpoint.id, 'failed', 3)

      receiver.fallback = 204
      const future = new Date(Date.now() + 60_000).toISOString()
      expect(await p.post(`/webhooks/${endpoint.id}/recover`, { since: future })).toMatchObject({
        status: 200,
        body: { data: { recovered: 0 } },
      })
      const res = await p.post(`/webhooks/${endpoint.id}/recover`, { since: hoursAgo(1) })
      expect(res).toMatchObject({ status: 200, body: { data: { recovered: 3 } } })
      const rows = await settled(p, endpoint.id, 'succeeded', 3)
      expect(rows.every((d) => d.attempts === 2)).toBe(true)
      expect(await p.post(`/webhooks/${endpoint.id}/recover`, { since: hoursAgo(1) })).toMatchObject({
        body: { data: { recovered: 0 } },
      })
    })

    it.each([
      [{}, 'invalid_since'],
      [{ since: 42 }, 'invalid_since'],
      [{ since: 'yesterday' }, 'invalid_since'],
      [{ since: '2026-02-30T00:00:00' }, 'invalid_since'],
      [{ since: hoursAgo(14 * 24 + 1) }, 'invalid_since'],
    ])('refuses %j with %s', async (body, code) => {
      const p = await t.partner()
      const endpoint = await register(p)
      expect(await p.post(`/webhooks/${endpoint.id}/recover`, body)).toMatchObject({
        status: 400,
        body: { error: code },
      })
    })

    it('answers another source’s endpoint like a missing one, and leaves its deliveries failed', async () => {
      const p = await t.partner()
      const other = await t.partner()
      const theirs = await register(other)
      receiver.fallback = 500
      await dispatcher({ retrySchedule: [0] })
      await importGames(other, 1)
      await settled(other, theirs.id, 'failed', 1)
      expect(await p.post(`/webhooks/${theirs.id}/recover`, { since: hoursAgo(1) })).toMatchObject({
        status: 404,
        body: { error: 'endpoint_not_found' },
      })
      expect((await deliveries(other, theirs.id))[0]).toMatchObject({ status: 'failed', attempts: 1 })
    })
  })

  describe('endpoint health', () => {
    // The dispatcher reads this clock for what is due too: a day ahead, the events the test creates
    // meanwhile are due at once.
    function fakeClock(): Clock & { advance(ms: number): void } {
      let now = Date.now() + DAY
      return { now: () => now, advance: (ms) => void (now += ms) }
    }

    async function endpointOf(p: Partner, id: string) {
      return ((await p.get('/webhooks')).body.data as any[]).find((e) => e.id === id)
    }

    it('disables an endpoint whose every attempt failed for 5 days; enable resumes new events only', async () => {
      const p = await t.partner()
      const endpoint = await register(p)
      const clock = fakeClock()
      receiver.fallback = 500
      // The first attempt fails; the second is 30 days away on the dispatcher's clock (which the test
      // moves 5 days), so the delivery is still pending when the endpoint is disabled.
      await dispatcher({ retrySchedule: [0, 30 * DAY], disableAfterMs: 5 * DAY }, undefined, clock)
      await importGames(p, 1)
      await eventually(async () => expect((await deliveries(p, endpoint.id))[0].attempts).toBe(1))

      clock.advance(5 * DAY - 60_000)
      await importGames(p, 1)
      await eventually(async () => expect(receiver.received).toHaveLength(2))
      await eventually(async () => expect((await deliveries(p, endpoint.id))[0].attempts).toBe(1))
      expect(await endpointOf(p, endpoint.id)).toMatchObject({ disabled: false, disabledAt: null })

      clock.advance(60_000)
      await importGames(p, 1)
      const disabled = await eventually(async () => {
        const found = await endpointOf(p, endpoint.id)
        expect(found.disabled).toBe(true)
        return found
      })
      expect(disabled.disabledAt).toBe(new Date(clock.now()).toISOString())
      const failed = await settled(p, endpoint.id, 'failed', 3)
      expect(failed.map((d) => d.lastError)).toEqual([
        'endpoint_disabled',
        'endpoint_disabled',
        'endpoint_disabled',
      ])
      expect(receiver.received).toHaveLength(3)

      // While disabled: nothing is sent; new events are kept failed, and the toolkit refuses to send.
      await importGames(p, 1)
      await settled(p, endpoint.id, 'failed', 4)
      expect(receiver.received).toHaveLength(3)
      const newest = (await deliveries(p, endpoint.id))[0]
      expect(newest).toMatchObject({ attempts: 0, lastError: 'endpoint_disabled', nextAttemptAt: null })
      for (const res of [
        await p.post(`/webhooks/${endpoint.id}/test`, { event: 'game.created' }),
        await p.post(`/webhooks/${endpoint.id}/deliveries/${newest.id}/retry`),
        await p.post(`/webhooks/${endpoint.id}/recover`, { since: hoursAgo(1) }),
      ])
        expect(res).toMatchObject({ status: 409, body: { error: 'endpoint_disabled' } })

      const other = await t.partner()
      expect(await other.post(`/webhooks/${endpoint.id}/enable`)).toMatchObject({
        status: 404,
        body: { error: 'endpoint_not_found' },
      })
      receiver.fallback = 204
      const enabled = await p.post(`/webhooks/${endpoint.id}/enable`)
      expect(enabled).toMatchObject({
        status: 200,
        body: { data: { id: endpoint.id, disabled: false, disabledAt: null } },
      })
      await importGames(p, 1)
      await settled(p, endpoint.id, 'succeeded', 1)
      expect((await deliveries(p, endpoint.id, '&status=failed')).length).toBe(4)
      expect(await p.post(`/webhooks/${endpoint.id}/recover`, { since: hoursAgo(1) })).toMatchObject({
        body: { data: { recovered: 4 } },
      })
      await settled(p, endpoint.id, 'succeeded', 5)
    })

    it('keeps an endpoint that succeeded in between', async () => {
      const p = await t.partner()
      const endpoint = await register(p)
      const clock = fakeClock()
      receiver.script(500, 204, 500)
      await dispatcher({ retrySchedule: [0], disableAfterMs: 5 * DAY }, undefined, clock)
      await importGames(p, 1)
      await settled(p, endpoint.id, 'failed', 1)
      clock.advance(DAY)
      await importGames(p, 1)
      await settled(p, endpoint.id, 'succeeded', 1)
      clock.advance(4 * DAY + 60_000)
      await importGames(p, 1)
      await settled(p, endpoint.id, 'failed', 2)
      expect(await endpointOf(p, endpoint.id)).toMatchObject({ disabled: false })
    })
  })
})
