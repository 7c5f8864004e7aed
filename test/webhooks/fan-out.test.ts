// Fan-out after commit: a change's transaction writes its events and no delivery, whatever the number of
// endpoints; a dispatcher's fanOut expands each event once, to the endpoints that want it and existed
// when it happened, a batch per transaction, exactly once across concurrent dispatchers.
import { describe, expect, it } from 'vitest'
import { grantLeague } from '../../src/domain/partners/api-keys.js'
import { openDatabase } from '../../src/store/database.js'
import { FAN_OUT_BATCH, fanOut } from '../../src/webhooks/fan-out.js'
import { isPostgres, testDatabaseUrl, useTestApp, type Partner } from '../helpers/app.js'

describe('fan-out', () => {
  const t = useTestApp()

  // On PostgreSQL the tests of this file share a database: count only what this test's source owns.
  const deliveries = async (p: Partner) =>
    Number(
      (
        await t.deps.db
          .selectFrom('webhook_deliveries as d')
          .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('e.source', '=', p.source)
          .executeTakeFirstOrThrow()
      ).n,
    )
  const unexpanded = async (leagueId: string) =>
    Number(
      (
        await t.deps.db
          .selectFrom('outbox_events')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('league_id', '=', leagueId)
          .where('fanned_out_at', 'is', null)
          .executeTakeFirstOrThrow()
      ).n,
    )

  async function importGames(p: Partner, leagueId: string, n: number, prefix = 'g') {
    const games = Array.from({ length: n }, (_, i) => ({
      externalId: `${prefix}-${i}`,
      startsAt: new Date(Date.UTC(2026, 4, 1) + i * 3_600_000).toISOString(),
    }))
    for (let i = 0; i < n; i += 500)
      expect((await p.post(`/leagues/${leagueId}/games`, { games: games.slice(i, i + 500) })).status).toBe(
        201,
      )
  }

  it('leaves the change’s transaction with its events only; fanOut makes one delivery per endpoint and event', async () => {
    const p = await t.partner()
    for (let i = 0; i < 16; i++) await p.post('/webhooks', { url: `https://hooks.example/${i}` })
    await p.post('/webhooks', { url: 'https://hooks.example/cancels', events: ['game.cancelled'] })
    const league = (await p.post('/leagues', { name: 'L' })).body.data
    await importGames(p, league.id, 30)

    expect(await deliveries(p)).toBe(0)
    expect(await unexpanded(league.id)).toBe(30)
    expect(await fanOut(t.deps.db, t.deps.clock)).toBe(30)
    expect(await unexpanded(league.id)).toBe(0)
    expect(await deliveries(p)).toBe(16 * 30)
    expect(await fanOut(t.deps.db, t.deps.clock)).toBe(0)
    expect(await deliveries(p)).toBe(16 * 30)
  })

  it('takes at most a batch of events per transaction and is called again for the rest', async () => {
    const p = await t.partner()
    await p.post('/webhooks', { url: 'https://hooks.example/all' })
    const league = (await p.post('/leagues', { name: 'L' })).body.data
    await importGames(p, league.id, FAN_OUT_BATCH + 50)
    expect(await fanOut(t.deps.db, t.deps.clock)).toBe(FAN_OUT_BATCH)
    expect(await deliveries(p)).toBe(FAN_OUT_BATCH)
    expect(await fanOut(t.deps.db, t.deps.clock)).toBe(50)
    expect(await deliveries(p)).toBe(FAN_OUT_BATCH + 50)
  })

  it('gives an event to no endpoint registered after it happened, nor to another source’s', async () => {
    const p = await t.partner()
    const other = await t.partner()
    const league = (await p.post('/leagues', { name: 'L' })).body.data
    await importGames(p, league.id, 2)
    await new Promise((r) => setTimeout(r, 5))
    const late = (await p.post('/webhooks', { url: 'https://hooks.example/late' })).body.data
    const stranger = (await other.post('/webhooks', { url: 'https://hooks.example/other' })).body.data
    await fanOut(t.deps.db, t.deps.clock)
    expect(await deliveries(p)).toBe(0)
    await importGames(p, league.id, 1, 'later')
    await fanOut(t.deps.db, t.deps.clock)
    const rows = await t.deps.db
      .selectFrom('webhook_deliveries')
      .select('endpoint_id')
      .where('endpoint_id', 'in', [late.id, stranger.id])
      .execute()
    expect(rows.map((r) => r.endpoint_id)).toEqual([late.id])
  })

  it('gives a granted key’s endpoint the league’s events from the grant on, not before', async () => {
    const p = await t.partner()
    const guest = await t.partner()
    const endpoint = (await guest.post('/webhooks', { url: 'https://hooks.example/guest' })).body.data
    const league = (await p.post('/leagues', { name: 'L' })).body.data
    await importGames(p, league.id, 2)
    await new Promise((r) => setTimeout(r, 5))
    await grantLeague(t.deps, guest.id, league.id)
    await importGames(p, league.id, 1, 'after-grant')
    await fanOut(t.deps.db, t.deps.clock)
    const rows = await t.deps.db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('outbox_events as o', 'o.id', 'd.event_id')
      .select('o.data')
      .where('d.endpoint_id', '=', endpoint.id)
      .execute()
    expect(rows.map((r) => JSON.parse(r.data).externalId)).toEqual(['after-grant-0'])
  })

  it('expands each event exactly once when dispatchers race', async () => {
    const p = await t.partner()
    for (let i = 0; i < 4; i++) await p.post('/webhooks', { url: `https://hooks.example/${i}` })
    const league = (await p.post('/leagues', { name: 'L' })).body.data
    await importGames(p, league.id, 3 * FAN_OUT_BATCH)
    // On PostgreSQL a second pool stands for a second process; SQLite serializes writers on one file.
    const second = isPostgres() ? openDatabase(await testDatabaseUrl()) : undefined
    try {
      const drain = async (db = t.deps.db) => {
        let events = 0
        for (let n = -1; n !== 0; events += n) n = await fanOut(db, t.deps.clock)
        return events
      }
      const taken = await Promise.all([drain(), drain(second?.db), drain()])
      expect(taken.reduce((a, b) => a + b, 0)).toBe(3 * FAN_OUT_BATCH)
    } finally {
      await second?.close()
    }
    expect(await deliveries(p)).toBe(4 * 3 * FAN_OUT_BATCH)
  })
})

describe('endpoints per source', () => {
  const t = useTestApp()

  it('caps a source at 16 endpoints with 409 endpoint_limit_reached, for every key of the source, even racing', async () => {
    const p = await t.partner()
    const sibling = await t.partner({ source: p.source })
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 ? p : sibling).post('/webhooks', { url: `https://h.example/${i}` }),
      ),
    )
    expect(answers.filter((a) => a.status === 201)).toHaveLength(16)
    for (const refused of answers.filter((a) => a.status !== 201)) {
      expect(refused.status).toBe(409)
      expect(refused.body).toEqual({ error: 'endpoint_limit_reached' })
    }
    expect((await p.get('/webhooks')).body.data).toHaveLength(16)
    expect((await (await t.partner()).post('/webhooks', { url: 'https://h.example/x' })).status).toBe(201)
    const [first] = (await p.get('/webhooks')).body.data
    await p.delete(`/webhooks/${first.id}`)
    expect((await p.post('/webhooks', { url: 'https://h.example/again' })).status).toBe(201)
  })
})
