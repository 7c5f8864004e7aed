// Schedule data (DESIGN "Running the assigning"): a league's time zone and assigning settings, a game's
// length and end, levels on officials and positions, and impossible dates refused.
import { describe, expect, it } from 'vitest'
import { useTestApp, type Partner } from '../helpers/app.js'
import { eventsOf } from '../helpers/fixtures.js'

const DEFAULTS = {
  timeZone: 'UTC',
  gameMinutes: 90,
  travelBufferMinutes: 30,
  maxGamesPerDay: null,
  conflictPolicy: 'allow',
}
const plus = (iso: string, minutes: number) => new Date(Date.parse(iso) + minutes * 60_000).toISOString()
const START = '2027-05-01T18:00:00.000Z'

describe('schedule data', () => {
  const t = useTestApp()

  async function league(p: Partner, body: object = {}) {
    const res = await p.post('/leagues', { name: 'L', ...body })
    expect(res.status).toBe(201)
    return res.body.data
  }

  describe('league settings', () => {
    it('defaults on create, shown in every League answer', async () => {
      const p = await t.partner()
      const created = await league(p)
      expect(created).toMatchObject(DEFAULTS)
      expect((await p.get(`/leagues/${created.id}`)).body.data).toMatchObject(DEFAULTS)
      expect((await p.get('/leagues')).body.data[0]).toMatchObject(DEFAULTS)
      expect((await p.patch(`/leagues/${created.id}`, { name: 'M' })).body.data).toMatchObject(DEFAULTS)
    })

    it('takes every setting on create and on PATCH, applying only the keys given', async () => {
      const p = await t.partner()
      const settings = {
        timeZone: 'America/Los_Angeles',
        gameMinutes: 75,
        travelBufferMinutes: 0,
        maxGamesPerDay: 20,
        conflictPolicy: 'refuse',
      }
      const created = await league(p, settings)
      expect(created).toMatchObject(settings)
      const patched = await p.patch(`/leagues/${created.id}`, { gameMinutes: 600, maxGamesPerDay: null })
      expect(patched).toMatchObject({
        status: 200,
        body: { data: { ...settings, gameMinutes: 600, maxGamesPerDay: null } },
      })
      const edges = { gameMinutes: 15, travelBufferMinutes: 240, maxGamesPerDay: 1, conflictPolicy: 'allow' }
      expect((await p.patch(`/leagues/${created.id}`, edges)).body.data).toMatchObject(edges)
    })

    it('an upsert re-post keeps the settings it omits and rewrites those it sends', async () => {
      const p = await t.partner()
      const first = await league(p, { externalId: 'L1', timeZone: 'Europe/Paris', gameMinutes: 60 })
      const again = await league(p, { externalId: 'L1', name: 'Renamed', travelBufferMinutes: 10 })
      expect(again).toMatchObject({
        id: first.id,
        name: 'Renamed',
        timeZone: 'Europe/Paris',
        gameMinutes: 60,
        travelBufferMinutes: 10,
        maxGamesPerDay: null,
        conflictPolicy: 'allow',
      })
    })

    it('stores timeZone by its canonical name on create, upsert and PATCH', async () => {
      const p = await t.partner()
      expect(await league(p, { externalId: 'L', timeZone: 'europe/berlin' })).toMatchObject({
        timeZone: 'Europe/Berlin',
      })
      const again = await league(p, { externalId: 'L', timeZone: 'AMERICA/NEW_YORK' })
      expect(again.timeZone).toBe('America/New_York')
      const patched = await p.patch(`/leagues/${again.id}`, { timeZone: 'utc' })
      expect(patched.body.data.timeZone).toBe('UTC')
      expect((await p.get(`/leagues/${again.id}`)).body.data.timeZone).toBe('UTC')
    })

    const invalid: [string, unknown][] = [
      ['timeZone', 'Mars/Olympus_Mons'],
      ['timeZone', '+01:00'],
      ['timeZone', ''],
      ['timeZone', 5],
      ['timeZone', null],
      ['timeZone', 'Europe/\ud800'],
      ['timeZone', `America/${'x'.repeat(100)}`],
      ['gameMinutes', 14],
      ['gameMinutes', 601],
      ['gameMinutes', 90.5],
      ['gameMinutes', '90'],
      ['gameMinutes', null],
      ['travelBufferMinutes', -1],
      ['travelBufferMinutes', 241],
      ['travelBufferMinutes', 1.5],
      ['travelBufferMinutes', true],
      ['maxGamesPerDay', 0],
      ['maxGamesPerDay', 21],
      ['maxGamesPerDay', 2.5],
      ['maxGamesPerDay', '3'],
      ['conflictPolicy', 'deny'],
      ['conflictPolicy', 'ALLOW'],
      ['conflictPolicy', null],
      ['conflictPolicy', 1],
    ]
    it.each(invalid)(
      '%s %j → 400 invalid_<field> on create, upsert and PATCH, nothing written',
      async (field, value) => {
        const p = await t.partner()
        const code = `invalid_${field}`
        expect((await p.post('/leagues', { name: 'New', [field]: value })).body).toEqual({ error: code })
        const existing = await league(p, { externalId: 'L1' })
        const upsert = await p.post('/leagues', { name: 'Changed', externalId: 'L1', [field]: value })
        expect(upsert).toMatchObject({ status: 400, body: { error: code } })
        const patch = await p.patch(`/leagues/${existing.id}`, { name: 'Changed', [field]: value })
        expect(patch).toMatchObject({ status: 400, body: { error: code } })
        const leagues = (await p.get('/leagues')).body.data
        expect(leagues).toHaveLength(1)
        expect(leagues[0]).toMatchObject({ name: 'L', ...DEFAULTS })
      },
    )

    it('publishes the ranges in OpenAPI', async () => {
      const doc = (await t.client().get('/openapi.json')).body
      const body = doc.paths['/api/v1/leagues'].post.requestBody.content['application/json'].schema
      expect(body.properties).toMatchObject({
        gameMinutes: { type: 'integer', minimum: 15, maximum: 600 },
        travelBufferMinutes: { type: 'integer', minimum: 0, maximum: 240 },
        conflictPolicy: { enum: ['allow', 'refuse'] },
        timeZone: { type: 'string' },
      })
      expect(doc.components.schemas.League.required).toEqual(expect.arrayContaining(Object.keys(DEFAULTS)))
    })
  })

  describe('game length', () => {
    it('a game lasts the league’s gameMinutes unless it has its own; endsAt follows', async () => {
      const p = await t.partner()
      const { id } = await league(p, { gameMinutes: 75 })
      const res = await p.post(`/leagues/${id}/games`, {
        games: [{ startsAt: START }, { startsAt: START, durationMinutes: 120 }],
      })
      expect(res.status).toBe(201)
      const [plain, long] = res.body.data.created
      expect(plain).toMatchObject({ durationMinutes: 75, endsAt: plus(START, 75) })
      expect(long).toMatchObject({ durationMinutes: 120, endsAt: plus(START, 120) })
      // The league's length changes: only the game without its own follows.
      await p.patch(`/leagues/${id}`, { gameMinutes: 45 })
      const games = (await p.get(`/leagues/${id}/games`)).body.data
      expect(
        games.map((g: { durationMinutes: number; endsAt: string }) => [g.durationMinutes, g.endsAt]),
      ).toEqual([
        [45, plus(START, 45)],
        [120, plus(START, 120)],
      ])
      expect((await p.get(`/games/${plain.id}`)).body.data).toMatchObject({ endsAt: plus(START, 45) })
    })

    it('an upsert-update rewrites durationMinutes when sent and keeps it when omitted', async () => {
      const p = await t.partner()
      const { id } = await league(p, { externalId: 'L', gameMinutes: 60 })
      const post = (item: object) => p.post(`/leagues/${id}/games`, { games: [{ externalId: 'g', ...item }] })
      await post({ startsAt: START })
      expect((await post({ startsAt: START, durationMinutes: 100 })).body.data.created[0]).toMatchObject({
        durationMinutes: 100,
        endsAt: plus(START, 100),
      })
      const later = plus(START, 60)
      expect((await post({ startsAt: later })).body.data.created[0]).toMatchObject({
        durationMinutes: 100,
        endsAt: plus(later, 100),
      })
      // A league upsert that changes gameMinutes leaves a game with its own length alone.
      await p.post('/leagues', { name: 'L', externalId: 'L', gameMinutes: 30 })
      expect((await p.get(`/leagues/${id}/games`)).body.data[0]).toMatchObject({ durationMinutes: 100 })
    })

    it('a league upsert that changes gameMinutes moves the ends of games without their own', async () => {
      const p = await t.partner()
      const { id } = await league(p, { externalId: 'L' })
      await p.post(`/leagues/${id}/games`, { games: [{ startsAt: START }] })
      await p.post('/leagues', { name: 'L', externalId: 'L', gameMinutes: 30 })
      expect((await p.get(`/leagues/${id}/games`)).body.data[0]).toMatchObject({
        durationMinutes: 30,
        endsAt: plus(START, 30),
      })
    })

    it('a new gameMinutes emits game.updated for each game without its own length, and only those', async () => {
      const p = await t.partner()
      const { id } = await league(p, { externalId: 'L' })
      const created = (
        await p.post(`/leagues/${id}/games`, {
          games: [{ startsAt: START }, { startsAt: START, durationMinutes: 120 }],
        })
      ).body.data.created
      await p.patch(`/leagues/${id}`, { gameMinutes: 45 })
      await p.post('/leagues', { name: 'L', externalId: 'L', gameMinutes: 30 })
      // The same length again moves nothing and emits nothing.
      await p.patch(`/leagues/${id}`, { gameMinutes: 30 })
      const events = (await eventsOf(t.deps.db, id)).filter((e) => e.event === 'game.updated')
      const plain = (await p.get(`/leagues/${id}/games`)).body.data[0]
      expect(events.map((e) => e.data)).toEqual([
        { ...plain, leagueId: id, durationMinutes: 45, endsAt: plus(START, 45) },
        { ...plain, leagueId: id },
      ])
      expect(plain).toMatchObject({ id: created[0].id, endsAt: plus(START, 30) })
    })

    it('PATCH takes durationMinutes, moves endsAt with startsAt, and emits game.updated', async () => {
      const p = await t.partner()
      const { id } = await league(p)
      const [game] = (await p.post(`/leagues/${id}/games`, { games: [{ startsAt: START }] })).body.data
        .created
      const res = await p.patch(`/games/${game.id}`, { durationMinutes: 50 })
      expect(res).toMatchObject({
        status: 200,
        body: { data: { durationMinutes: 50, endsAt: plus(START, 50) } },
      })
      const moved = plus(START, 24 * 60)
      const again = await p.patch(`/games/${game.id}`, { startsAt: moved })
      expect(again.body.data).toMatchObject({ durationMinutes: 50, endsAt: plus(moved, 50) })
      const events = await eventsOf(t.deps.db, id)
      expect(events.map((e) => e.event)).toEqual(['game.created', 'game.updated', 'game.updated'])
      expect(events[2]!.data).toEqual(again.body.data)
      // Unchanged: nothing written, no event.
      await p.patch(`/games/${game.id}`, { durationMinutes: 50 })
      expect(await eventsOf(t.deps.db, id)).toHaveLength(3)
    })

    const bad: unknown[] = [14, 601, 90.5, '90', null, true]
    it.each(bad)(
      'durationMinutes %j → 400 invalid_durationMinutes on import and PATCH, nothing written',
      async (value) => {
        const p = await t.partner()
        const { id } = await league(p)
        const res = await p.post(`/leagues/${id}/games`, {
          games: [{ startsAt: START, durationMinutes: value }],
        })
        expect(res).toMatchObject({ status: 400, body: { error: 'invalid_durationMinutes' } })
        expect((await p.get(`/leagues/${id}/games`)).body.data).toEqual([])
        const [game] = (await p.post(`/leagues/${id}/games`, { games: [{ startsAt: START }] })).body.data
          .created
        const patch = await p.patch(`/games/${game.id}`, { location: 'X', durationMinutes: value })
        expect(patch).toMatchObject({ status: 400, body: { error: 'invalid_durationMinutes' } })
        expect((await p.get(`/games/${game.id}`)).body.data).toMatchObject({
          location: '',
          durationMinutes: 90,
        })
      },
    )
  })

  describe('impossible dates', () => {
    const impossible = [
      '2027-02-30T10:00:00Z',
      '2027-02-29T10:00:00Z',
      '2027-02-29',
      '2027-04-31T10:00:00.000Z',
      '2027-06-31T10:00:00+02:00',
      '2100-02-29T00:00:00Z',
      'Feb 30 2027 10:00 UTC',
      '31 April 2027',
      '02/30/2027',
      // Real, but its game would end after the last storable instant (9999-12-31T23:59:59.999Z).
      '9999-12-31T23:00:00Z',
    ]
    it.each(impossible)(
      '%s → 400 invalid_startsAt:<value> on import and PATCH, never rolled over',
      async (value) => {
        const p = await t.partner()
        const { id } = await league(p)
        const res = await p.post(`/leagues/${id}/games`, { games: [{ startsAt: value }] })
        expect(res).toMatchObject({ status: 400, body: { error: `invalid_startsAt:${value}` } })
        expect((await p.get(`/leagues/${id}/games`)).body.data).toEqual([])
        const [game] = (await p.post(`/leagues/${id}/games`, { games: [{ startsAt: START }] })).body.data
          .created
        const patch = await p.patch(`/games/${game.id}`, { startsAt: value })
        expect(patch).toMatchObject({ status: 400, body: { error: `invalid_startsAt:${value}` } })
        expect((await p.get(`/games/${game.id}`)).body.data.startsAt).toBe(START)
      },
    )

    it.each([
      '2028-02-29T10:00:00Z',
      '2000-02-29T10:00:00Z',
      '2027-12-31T23:59:59Z',
      '2027-04-30 12:00+0200',
      '9999-12-31T13:59:59.999Z',
    ])('accepts the real date %s', async (value) => {
      const p = await t.partner()
      const { id } = await league(p)
      const res = await p.post(`/leagues/${id}/games`, { games: [{ startsAt: value }] })
      expect(res.status).toBe(201)
      expect(res.body.data.created[0].startsAt).toBe(new Date(value).toISOString())
    })
  })

  describe('ISO 8601 only', () => {
    // What V8's Date reads but ISO 8601 does not: "90" is 1990 to it, and a date-time without an offset
    // is the server's own wall clock, so the same request meant another instant on another server.
    it.each(['90', '2027-05-01T18:00', '2027-05-01T18:00:00.000', 'Apr 30 2027 10:00 UTC'])(
      '%s → the field’s code on import, PATCH and a window, nothing written',
      async (value) => {
        const p = await t.partner()
        const { id } = await league(p)
        const res = await p.post(`/leagues/${id}/games`, { games: [{ startsAt: value }] })
        expect(res).toMatchObject({ status: 400, body: { error: `invalid_startsAt:${value}` } })
        const [game] = (await p.post(`/leagues/${id}/games`, { games: [{ startsAt: START }] })).body.data
          .created
        const patch = await p.patch(`/games/${game.id}`, { startsAt: value })
        expect(patch).toMatchObject({ status: 400, body: { error: `invalid_startsAt:${value}` } })
        expect((await p.get(`/games/${game.id}`)).body.data.startsAt).toBe(START)
        const window = `from=${encodeURIComponent(value)}&to=${encodeURIComponent(START)}`
        const read = await p.get(`/leagues/${id}/officials/${game.id}/availability?${window}`)
        expect(read).toMatchObject({ status: 400, body: { error: 'invalid_from' } })
      },
    )
  })
})
