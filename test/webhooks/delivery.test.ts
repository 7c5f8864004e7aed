import { EVENT_NAMES } from '../../src/schemas/events.js'
import { Webhook } from 'standardwebhooks'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { grantLeague } from '../../src/domain/partners/api-keys.js'
import { chargePayment, completeGame, markNoShow } from '../../src/domain/payments/payments.js'
import { simulatedProcessor } from '../../src/domain/core/payment-processor.js'
import { useTestApp, type Partner } from '../helpers/app.js'
import { schemaValidator } from '../openapi/helpers.js'
import { useDispatchers } from './dispatch.js'
import { startReceiver, type Receiver } from './receiver.js'
import { CONSOLE_CALLER } from '../../src/domain/core/caller.js'
import { withdrawClaim } from '../../src/domain/assignments/assignments.js'
import { eventually } from '../helpers/eventually.js'

describe('webhook delivery', () => {
  const t = useTestApp()
  const dispatcher = useDispatchers(t)
  let receiver: Receiver
  beforeEach(async () => {
    receiver = await startReceiver()
  })
  afterEach(async () => {
    await receiver.close()
  })

  async function register(p: Partner, events: string[] = [], url = receiver.url) {
    const res = await p.post('/webhooks', { url, events })
    expect(res.status).toBe(201)
    return res.body.data as { id: string; secret: string }
  }

  async function deliveries(p: Partner, endpointId: string) {
    return (await p.get(`/webhooks/${endpointId}/deliveries?limit=200`)).body.data as any[]
  }

  async function leagueWithGame(p: Partner, body: Record<string, unknown> = {}) {
    const league = (await p.post('/leagues', { name: 'L', ...body })).body.data
    const game = (
      await p.post(`/leagues/${league.id}/games`, {
        games: [{ startsAt: '2026-05-01T18:00:00Z', payDollars: 45 }],
      })
    ).body.data.created[0]
    return { league, game }
  }

  it('delivers each event (the spec’s 12 and position.withdrawn) with DESIGN’s data, signed, verifiable with standardwebhooks', async () => {
    const p = await t.partner()
    const endpoint = await register(p)
    await dispatcher()
    const { league, game } = await leagueWithGame(p, { paymentMode: 'platform' })
    const updated = (await p.patch(`/games/${game.id}`, { location: 'Field 9' })).body.data
    const joined = (await p.post(`/leagues/${league.id}/officials`, { externalId: 'o1', name: 'Olive' })).body
      .data
    const approved = (await p.post(`/leagues/${league.id}/officials`, { externalId: 'o1' })).body.data
    const claimed = (await p.post(`/games/${game.id}/assign`, { userId: joined.userId })).body.data
    const positionId = game.positions[0].id
    const released = (await p.delete(`/games/${game.id}/assign?positionId=${positionId}`)).body.data
    await p.post(`/games/${game.id}/assign`, { userId: joined.userId })
    const withdrawn = await withdrawClaim(t.deps, CONSOLE_CALLER, positionId)
    await p.post(`/games/${game.id}/assign`, { userId: joined.userId })
    const completed = await completeGame(t.deps, CONSOLE_CALLER, game.id)
    const noShow = await markNoShow(t.deps, CONSOLE_CALLER, positionId)
    // A second game carries the payment events (the no-show above removed the first one's payment).
    const second = (
      await p.post(`/leagues/${league.id}/games`, {
        games: [{ startsAt: '2026-05-02T18:00:00Z', payDollars: 30 }],
      })
    ).body.data.created[0]
    await p.post(`/games/${second.id}/assign`, { userId: joined.userId })
    const secondDone = await completeGame(t.deps, CONSOLE_CALLER, second.id)
    const paid = await chargePayment(t.deps, CONSOLE_CALLER, secondDone.positions[0]!.payment!.id)
    const third = (
      await p.post(`/leagues/${league.id}/games`, {
        games: [{ startsAt: '2026-05-03T18:00:00Z', payDollars: 30 }],
      })
    ).body.data.created[0]
    await p.post(`/games/${third.id}/assign`, { userId: joined.userId })
    const thirdDone = await completeGame(t.deps, CONSOLE_CALLER, third.id)
    const failed = await chargePayment(
      { ...t.deps, paymentProcessor: simulatedProcessor('failed') },
      CONSOLE_CALLER,
      thirdDone.positions[0]!.payment!.id,
    )
    const cancelled = (await p.delete(`/games/${third.id}`)).body.data
    const removed = (await p.delete(`/leagues/${league.id}/officials/${joined.userId}`)).body.data
    expect(removed).toEqual({ removed: true })

    const outbox = await t.deps.db.selectFrom('outbox_events').selectAll().orderBy('seq').execute()
    expect(new Set(outbox.map((e) => e.event))).toEqual(new Set(EVENT_NAMES))
    const received = await receiver.waitForAccepted(outbox.length)
    expect(received).toHaveLength(outbox.length)

    const wh = new Webhook(endpoint.secret, { format: 'raw' })
    const byId = new Map(received.map((r) => [r.json.id, r]))
    // What the OpenAPI document's webhooks section promises for each event is what arrives.
    const doc = (await t.app.inject({ url: '/api/v1/openapi.json' })).json()
    const compile = schemaValidator(doc)
    for (const event of outbox) {
      const r = byId.get(event.id)!
      const validate = compile(doc.webhooks[event.event].post.requestBody.content['application/json'].schema)
      expect(validate(r.json), `${event.event}: ${JSON.stringify(validate.errors)}`).toBe(true)
      expect(r.headers['webhook-id']).toBe(event.id)
      expect(r.headers['webhook-timestamp']).toMatch(/^\d+$/)
      expect(r.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/)
      expect(r.headers['content-type']).toBe('application/json')
      expect(wh.verify(r.body, r.headers)).toEqual(r.json)
      expect(r.json).toEqual({
        id: event.id,
        event: event.event,
        createdAt: event.created_at,
        data: JSON.parse(event.data),
      })
      expect(Object.keys(r.json)).toEqual(['id', 'event', 'createdAt', 'data'])
      expect(r.json.data.leagueId).toBe(league.id)
    }
    // A tampered body fails verification.
    const any = received[0]!
    expect(() => wh.verify(any.body.replace('"id"', '"Id"'), any.headers)).toThrow()

    const data = (name: string) =>
      outbox.filter((e) => e.event === name).map((e) => byId.get(e.id)!.json.data)
    const { positions: _p, ...gameWithoutPositions } = game
    expect(data('game.created')[0]).toMatchObject({ ...gameWithoutPositions, leagueId: league.id })
    expect(data('game.updated')).toEqual([{ ...updated, leagueId: league.id }])
    expect(data('official.joined')).toEqual([{ leagueId: league.id, official: joined }])
    expect(data('official.approved')).toEqual([{ leagueId: league.id, official: approved }])
    expect(data('position.claimed')[0]).toEqual({
      leagueId: league.id,
      game: claimed,
      positionId,
      official: expect.objectContaining({ id: joined.userId }),
    })
    expect(data('position.released')).toEqual([
      {
        leagueId: league.id,
        game: released,
        positionId,
        official: expect.objectContaining({ id: joined.userId }),
      },
    ])
    expect(data('position.withdrawn')).toEqual([
      {
        leagueId: league.id,
        game: withdrawn,
        positionId,
        official: expect.objectContaining({ id: joined.userId }),
      },
    ])
    expect(withdrawn.positions[0]).toMatchObject({ status: 'open', official: null })
    expect(data('game.completed')[0]).toEqual({ ...completed, leagueId: league.id })
    expect(data('official.no_show')).toEqual([
      {
        leagueId: league.id,
        game: noShow,
        positionId,
        official: expect.objectContaining({ id: joined.userId }),
      },
    ])
    expect(data('payment.paid')).toEqual([{ leagueId: league.id, payment: paid }])
    expect(data('payment.failed')).toEqual([{ leagueId: league.id, payment: failed }])
    expect(data('game.cancelled')).toEqual([{ ...cancelled, leagueId: league.id }])
    expect(data('official.removed')).toEqual([
      {
        leagueId: league.id,
        official: expect.objectContaining({ userId: joined.userId }),
        reopenedPositionIds: [],
      },
    ])

    const listed = await eventually(async () => {
      const rows = await deliveries(p, endpoint.id)
      expect(rows.filter((d) => d.status === 'succeeded')).toHaveLength(outbox.length)
      return rows
    })
    expect(listed.every((d) => d.attempts === 1 && d.lastStatusCode === 204)).toBe(true)
    expect(listed[0]).toMatchObject({ lastError: null, nextAttemptAt: null, deliveredAt: expect.any(String) })
  })

  it('filters by event name and scope: a second source gets nothing, a granted key’s endpoint gets the league', async () => {
    const p = await t.partner()
    const other = await t.partner()
    const guest = await t.partner()
    const onlyUpdates = await register(p, ['game.updated'])
    const all = await register(p)
    const stranger = await register(other)
    const granted = await register(guest)
    await dispatcher()
    const { league, game } = await leagueWithGame(p)
    await grantLeague(t.deps, guest.id, league.id)
    await p.patch(`/games/${game.id}`, { location: 'Elsewhere' })

    await eventually(async () => {
      expect((await deliveries(p, all.id)).map((d) => [d.event, d.status])).toEqual([
        ['game.updated', 'succeeded'],
        ['game.created', 'succeeded'],
      ])
      expect((await deliveries(p, onlyUpdates.id)).map((d) => [d.event, d.status])).toEqual([
        ['game.updated', 'succeeded'],
      ])
      expect((await deliveries(guest, granted.id)).map((d) => [d.event, d.status])).toEqual([
        ['game.updated', 'succeeded'],
      ])
    }, 50)
    expect(await deliveries(other, stranger.id)).toEqual([])
    expect(receiver.received).toHaveLength(4)
  })

  it('sends position.withdrawn to endpoints with an empty list or that name it, not to those that do not', async () => {
    const p = await t.partner()
    const named = await register(p, ['position.withdrawn'])
    const all = await register(p)
    const released = await register(p, ['position.released'])
    await dispatcher()
    const { league, game } = await leagueWithGame(p)
    const official = (await p.post(`/leagues/${league.id}/officials`, { externalId: 'o1', name: 'Olive' }))
      .body.data
    await p.post(`/games/${game.id}/assign`, { userId: official.userId })
    await withdrawClaim(t.deps, CONSOLE_CALLER, game.positions[0].id)

    await eventually(async () => {
      expect((await deliveries(p, named.id)).map((d) => [d.event, d.status])).toEqual([
        ['position.withdrawn', 'succeeded'],
      ])
      expect((await deliveries(p, all.id)).map((d) => d.event)).toEqual([
        'position.withdrawn',
        'position.claimed',
        'official.joined',
        'game.created',
      ])
    }, 50)
    expect(await deliveries(p, released.id)).toEqual([])
  })

  it('retries after 500, a timeout and a connection reset, then succeeds with the same webhook-id', async () => {
    const p = await t.partner()
    const endpoint = await register(p)
    receiver.script(500, 'hang', 'reset', 200)
    await dispatcher({ retrySchedule: [0, 50, 50, 50], timeoutMs: 300 })
    await leagueWithGame(p)
    const [ok] = await receiver.waitForAccepted(1)
    expect(receiver.received).toHaveLength(4)
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id']))).toEqual(new Set([ok!.json.id]))
    await eventually(async () => {
      expect((await deliveries(p, endpoint.id))[0]).toMatchObject({ status: 'succeeded' })
    })
    const [delivery] = await deliveries(p, endpoint.id)
    expect(delivery).toMatchObject({ attempts: 4, lastStatusCode: 200, lastError: null, nextAttemptAt: null })
    const attempts = await t.deps.db
      .selectFrom('webhook_attempts')
      .select(['status_code', 'error'])
      .where('delivery_id', '=', delivery.id)
      .orderBy('seq')
      .execute()
    expect(attempts).toEqual([
      { status_code: 500, error: 'http_status' },
      { status_code: null, error: 'timeout' },
      { status_code: null, error: 'connection_reset' },
      { status_code: 200, error: null },
    ])
  })

  it('marks the delivery failed after the last attempt of the schedule; redirects count as failures', async () => {
    const p = await t.partner()
    const endpoint = await register(p)
    receiver.fallback = 302
    await dispatcher({ retrySchedule: [0, 20, 20] })
    await leagueWithGame(p)
    await eventually(async () => {
      expect((await deliveries(p, endpoint.id))[0]).toMatchObject({ status: 'failed' })
    }, 50)
    const [delivery] = await deliveries(p, endpoint.id)
    expect(delivery).toMatchObject({
      attempts: 3,
      lastStatusCode: 302,
      lastError: 'http_status',
      nextAttemptAt: null,
      deliveredAt: null,
      lastAttemptAt: expect.any(String),
    })
    expect(receiver.received).toHaveLength(3)
  })

  it('shows retries as pending with a next attempt while the receiver is down', async () => {
    const p = await t.partner()
    const endpoint = await register(p)
    receiver.fallback = 503
    await dispatcher({ retrySchedule: [0, 3_600_000] })
    await leagueWithGame(p)
    await eventually(async () => {
      expect((await deliveries(p, endpoint.id))[0]).toMatchObject({ attempts: 1 })
    })
    const [delivery] = await deliveries(p, endpoint.id)
    expect(delivery).toMatchObject({ status: 'pending', lastStatusCode: 503, lastError: 'http_status' })
    expect(Date.parse(delivery.nextAttemptAt) - Date.parse(delivery.lastAttemptAt)).toBeGreaterThanOrEqual(
      3_600_000,
    )
  })

  it('waits the schedule’s first delay before the first attempt', async () => {
    const p = await t.partner()
    const endpoint = await register(p)
    await dispatcher({ retrySchedule: [300, 50] })
    await leagueWithGame(p)
    await receiver.waitForAccepted(1)
    const [delivery] = await eventually(async () => {
      const rows = await deliveries(p, endpoint.id)
      expect(rows[0]).toMatchObject({ status: 'succeeded', attempts: 1 })
      return rows
    })
    expect(Date.parse(delivery.lastAttemptAt) - Date.parse(delivery.createdAt)).toBeGreaterThanOrEqual(300)
  })

  it('records a refused address as unreachable, whatever the guard path, and never connects', async () => {
    const p = await t.partner()
    const endpoint = await register(p, [], receiver.url)
    await dispatcher({ retrySchedule: [0], policy: { allowAll: false, allowed: [] } })
    await leagueWithGame(p)
    await eventually(async () => {
      expect((await deliveries(p, endpoint.id))[0]).toMatchObject({ status: 'failed' })
    })
    expect((await deliveries(p, endpoint.id))[0]).toMatchObject({
      attempts: 1,
      lastStatusCode: null,
      lastError: 'unreachable',
    })
    const byName = await register(p, [], receiver.url.replace('127.0.0.1', 'localhost'))
    await p.post('/leagues', { name: 'no events' })
    const { league } = await leagueWithGame(p)
    expect(league).toBeTruthy()
    await eventually(async () => {
      expect((await deliveries(p, byName.id))[0]).toMatchObject({
        status: 'failed',
        lastError: 'unreachable',
      })
    })
    expect(receiver.received).toEqual([])
  })

  it('a slow endpoint does not hold up another endpoint’s deliveries', async () => {
    const p = await t.partner()
    const slow = await startReceiver()
    try {
      slow.fallback = 'hang'
      await register(p, [], slow.url)
      await register(p)
      await dispatcher({ concurrency: 4, perEndpointConcurrency: 2, timeoutMs: 10_000 })
      const league = (await p.post('/leagues', { name: 'L' })).body.data
      const games = Array.from({ length: 10 }, (_, i) => ({ startsAt: `2026-05-${10 + i}T18:00:00Z` }))
      await p.post(`/leagues/${league.id}/games`, { games })
      await receiver.waitForAccepted(10)
      expect(slow.received.length).toBeLessThanOrEqual(2)
    } finally {
      await slow.close()
    }
  })

  it('a hanging endpoint does not hold up another endpoint on the same host', async () => {
    // Two tenants behind one relay host: the hanging one's attempts must not hold the host's connections.
    const hanging = await t.partner()
    const other = await t.partner()
    receiver.byPath.set('/hooks/slow', 'hang')
    await register(hanging, [], `${receiver.url}/slow`)
    await register(other, [], `${receiver.url}/fast`)
    await dispatcher({ concurrency: 8, perEndpointConcurrency: 2, timeoutMs: 60_000 })
    const games = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ startsAt: `2026-05-${10 + i}T18:00:00Z` }))
    const slowLeague = (await hanging.post('/leagues', { name: 'slow' })).body.data
    await hanging.post(`/leagues/${slowLeague.id}/games`, { games: games(4) })
    // Its endpoint's concurrency of attempts hangs, holding as many connections to the host.
    await eventually(() => expect(receiver.received.length).toBe(2))
    const fastLeague = (await other.post('/leagues', { name: 'fast' })).body.data
    await other.post(`/leagues/${fastLeague.id}/games`, { games: games(3) })
    const accepted = await receiver.waitForAccepted(3)
    expect(accepted.every((r) => r.path === '/hooks/fast')).toBe(true)
    receiver.answerHung(204)
  })

  it('leases a fast endpoint’s backlog in batches, without waiting for a poll, never sending more at once than its concurrency', async () => {
    const p = await t.partner()
    const endpoint = await register(p, ['game.created'])
    const league = (await p.post('/leagues', { name: 'L' })).body.data
    const games = Array.from({ length: 300 }, (_, i) => ({
      startsAt: '2026-05-01T18:00:00Z',
      externalId: `b${i}`,
    }))
    await p.post(`/leagues/${league.id}/games`, { games })
    // No wake-up comes after the commit and the poll is a minute away: only the dispatcher's own
    // re-leasing can deliver the backlog in time.
    const running = await dispatcher({ perEndpointConcurrency: 2, pollIntervalMs: 60_000 })
    let mostLeased = 0
    await eventually(async () => {
      const { n } = await t.deps.db
        .selectFrom('webhook_deliveries')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('lease_owner', '=', running.owner)
        .executeTakeFirstOrThrow()
      mostLeased = Math.max(mostLeased, Number(n))
      expect(receiver.accepted().length).toBe(300)
    }, 5)
    expect(mostLeased).toBeGreaterThan(2)
    expect(receiver.maxConcurrent).toBeLessThanOrEqual(2)
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(300)
    await eventually(async () => {
      const rows = await deliveries(p, endpoint.id)
      expect(rows.filter((d) => d.status === 'succeeded')).toHaveLength(200)
    })
  })
})
