// Crews: positions on import, POST/DELETE /games/{gameId}/positions, and the level rule on assign.
import { describe, expect, it } from 'vitest'
import { useTestApp, type Partner } from '../helpers/app.js'
import { eventsOf, seedPosition } from '../helpers/fixtures.js'

const START = '2030-05-01T18:00:00.000Z'

describe('crews', () => {
  const t = useTestApp()

  async function leagueWithGame(p: Partner, item: object = {}) {
    const leagueId = (await p.post('/leagues', { name: 'L' })).body.data.id
    const res = await p.post(`/leagues/${leagueId}/games`, { games: [{ startsAt: START, ...item }] })
    expect(res.status).toBe(201)
    return { leagueId, game: res.body.data.created[0] }
  }

  async function official(p: Partner, leagueId: string, externalId: string, level?: number | null) {
    const res = await p.post(`/leagues/${leagueId}/officials`, {
      externalId,
      ...(level !== undefined && { level }),
    })
    expect(res.status).toBe(201)
    return res.body.data.userId as string
  }

  describe('positions on import', () => {
    it('creates the crew in order with defaults; without positions exactly one', async () => {
      const p = await t.partner()
      const crew = [
        { label: 'Referee', payDollars: 60, minLevel: 3 },
        { label: 'AR1', payDollars: 30 },
        { payDollars: 30, minLevel: null },
      ]
      const { game } = await leagueWithGame(p, { positions: crew })
      expect(game.positions).toEqual([
        {
          id: expect.any(String),
          label: 'Referee',
          payCents: 6000,
          payDollars: 60,
          status: 'open',
          minLevel: 3,
        },
        {
          id: expect.any(String),
          label: 'AR1',
          payCents: 3000,
          payDollars: 30,
          status: 'open',
          minLevel: null,
        },
        {
          id: expect.any(String),
          label: 'Official',
          payCents: 3000,
          payDollars: 30,
          status: 'open',
          minLevel: null,
        },
      ])
      const { game: single } = await leagueWithGame(p)
      expect(single.positions).toHaveLength(1)
    })

    it('an upsert-update leaves the positions alone', async () => {
      const p = await t.partner()
      const { leagueId, game } = await leagueWithGame(p, { externalId: 'g', positions: [{}, {}] })
      const again = await p.post(`/leagues/${leagueId}/games`, {
        games: [{ externalId: 'g', startsAt: START, positions: [{}, {}, {}] }],
      })
      expect(again.body.data.created[0].positions).toEqual(game.positions)
    })

    const invalid: [string, object][] = [
      ['with the item’s label', { label: 'X', positions: [{}] }],
      ['with the item’s payDollars', { payDollars: 5, positions: [{}] }],
      ['empty', { positions: [] }],
      ['eleven', { positions: Array.from({ length: 11 }, () => ({})) }],
      ['not an array', { positions: { label: 'X' } }],
      ['an item not an object', { positions: ['Referee'] }],
      ['null', { positions: null }],
    ]
    it.each(invalid)('%s → 400 invalid_positions, nothing written', async (_, item) => {
      const p = await t.partner()
      const leagueId = (await p.post('/leagues', { name: 'L' })).body.data.id
      const res = await p.post(`/leagues/${leagueId}/games`, { games: [{ startsAt: START, ...item }] })
      expect(res).toMatchObject({ status: 400, body: { error: 'invalid_positions' } })
      expect((await p.get(`/leagues/${leagueId}/games`)).body.data).toEqual([])
    })

    it.each([
      ['label', 5, 'invalid_label'],
      ['label', '\ud800', 'invalid_label'],
      ['label', 'x'.repeat(101), 'invalid_label'],
      ['payDollars', 'ten', 'invalid_payDollars'],
      ['minLevel', 0, 'invalid_minLevel'],
      ['minLevel', 6, 'invalid_minLevel'],
      ['minLevel', 2.5, 'invalid_minLevel'],
      ['minLevel', '3', 'invalid_minLevel'],
    ])('a position’s %s %j → 400 %s', async (field, value, code) => {
      const p = await t.partner()
      const leagueId = (await p.post('/leagues', { name: 'L' })).body.data.id
      const res = await p.post(`/leagues/${leagueId}/games`, {
        games: [{ startsAt: START, positions: [{ [field]: value }] }],
      })
      expect(res).toMatchObject({ status: 400, body: { error: code } })
      expect((await p.get(`/leagues/${leagueId}/games`)).body.data).toEqual([])
    })
  })

  describe('POST /games/{gameId}/positions', () => {
    it('adds an open position (201 GameDetail), reopens a claimed game, emits game.updated', async () => {
      const p = await t.partner()
      const { leagueId, game } = await leagueWithGame(p)
      const ref = await official(p, leagueId, 'ref')
      await p.post(`/games/${game.id}/assign`, { userId: ref })
      const res = await p.post(`/games/${game.id}/positions`, { label: 'AR', payDollars: 25.5, minLevel: 2 })
      expect(res.status).toBe(201)
      expect(res.body.data.status).toBe('open')
      expect(
        res.body.data.positions.map((x: any) => [x.label, x.status, x.minLevel, x.official?.id ?? null]),
      ).toEqual([
        ['Official', 'claimed', null, ref],
        ['AR', 'open', 2, null],
      ])
      const events = await eventsOf(t.deps.db, leagueId)
      const last = events.at(-1)!
      expect(last.event).toBe('game.updated')
      expect(last.data).toEqual((await p.get(`/leagues/${leagueId}/games`)).body.data[0])
      expect(await p.post(`/games/${game.id}/positions`, {})).toMatchObject({ status: 201 })
      expect((await p.get(`/games/${game.id}`)).body.data.positions[2]).toMatchObject({
        label: 'Official',
        payCents: 0,
        minLevel: null,
      })
    })

    it('refuses a cancelled or completed game with 409 game_closed', async () => {
      const p = await t.partner()
      const { game } = await leagueWithGame(p)
      await p.delete(`/games/${game.id}`)
      expect(await p.post(`/games/${game.id}/positions`, {})).toMatchObject({
        status: 409,
        body: { error: 'game_closed' },
      })
      await t.deps.db.updateTable('games').set({ status: 'completed' }).where('id', '=', game.id).execute()
      expect((await p.post(`/games/${game.id}/positions`, {})).body).toEqual({ error: 'game_closed' })
    })

    it('refuses an eleventh position with 409 too_many_positions, nothing written; cancelled rows are bounded too', async () => {
      const p = await t.partner()
      const { leagueId, game } = await leagueWithGame(p, {
        positions: Array.from({ length: 10 }, () => ({})),
      })
      const before = (await eventsOf(t.deps.db, leagueId)).length
      expect(await p.post(`/games/${game.id}/positions`, {})).toMatchObject({
        status: 409,
        body: { error: 'too_many_positions' },
      })
      expect((await p.get(`/games/${game.id}`)).body.data.positions).toHaveLength(10)
      expect(await eventsOf(t.deps.db, leagueId)).toHaveLength(before)
      // A removed position frees its place in the crew.
      expect((await p.delete(`/games/${game.id}/positions/${game.positions[0].id}`)).status).toBe(200)
      expect((await p.post(`/games/${game.id}/positions`, {})).status).toBe(201)
      // Removing and adding again stops at 30 rows in all.
      const rows = await t.deps.db
        .selectFrom('positions')
        .select('id')
        .where('game_id', '=', game.id)
        .execute()
      for (let i = rows.length; i < 30; i++) await seedPosition(t.deps.db, game.id, { status: 'cancelled' })
      expect((await p.delete(`/games/${game.id}/positions/${game.positions[1].id}`)).status).toBe(200)
      expect((await p.post(`/games/${game.id}/positions`, {})).body).toEqual({ error: 'too_many_positions' })
    })

    it.each([
      [{ minLevel: 9 }, 'invalid_minLevel'],
      [{ label: null }, 'invalid_label'],
      [{ payDollars: '1' }, 'invalid_payDollars'],
    ])('%j → 400 %s, nothing written', async (body, code) => {
      const p = await t.partner()
      const { game } = await leagueWithGame(p)
      expect((await p.post(`/games/${game.id}/positions`, body)).body).toEqual({ error: code })
      expect((await p.get(`/games/${game.id}`)).body.data.positions).toHaveLength(1)
    })

    it('takes source as every write does: own echoed, foreign 400 source_mismatch, app source_reserved', async () => {
      const p = await t.partner()
      const { game } = await leagueWithGame(p)
      expect((await p.post(`/games/${game.id}/positions`, { source: p.source })).status).toBe(201)
      expect(await p.post(`/games/${game.id}/positions`, { source: 'someone-else' })).toMatchObject({
        status: 400,
        body: { error: 'source_mismatch' },
      })
      expect((await p.post(`/games/${game.id}/positions`, { source: 'app' })).body).toEqual({
        error: 'source_reserved',
      })
      expect((await p.post(`/games/${game.id}/positions`, { source: 7 })).body).toEqual({
        error: 'invalid_source',
      })
      expect((await p.get(`/games/${game.id}`)).body.data.positions).toHaveLength(2)
    })

    it('answers 404 for another partner’s game', async () => {
      const p = await t.partner()
      const other = await t.partner()
      const { game } = await leagueWithGame(p)
      expect(await other.post(`/games/${game.id}/positions`, {})).toMatchObject({
        status: 404,
        body: { error: 'game_not_found' },
      })
      expect((await p.get(`/games/${game.id}`)).body.data.positions).toHaveLength(1)
    })
  })

  describe('DELETE /games/{gameId}/positions/{positionId}', () => {
    it('cancels an open position (200 GameDetail), rolls the status up, emits game.updated', async () => {
      const p = await t.partner()
      const { leagueId, game } = await leagueWithGame(p, { positions: [{}, { label: 'AR' }] })
      const ref = await official(p, leagueId, 'ref')
      await p.post(`/games/${game.id}/assign`, { userId: ref, positionId: game.positions[0].id })
      const res = await p.delete(`/games/${game.id}/positions/${game.positions[1].id}`)
      expect(res.status).toBe(200)
      expect(res.body.data).toMatchObject({ status: 'claimed' })
      expect(res.body.data.positions.map((x: any) => x.status)).toEqual(['claimed', 'cancelled'])
      const events = await eventsOf(t.deps.db, leagueId)
      expect(events.at(-1)).toEqual({
        event: 'game.updated',
        data: (await p.get(`/leagues/${leagueId}/games`)).body.data[0],
      })
    })

    it('refuses a claimed or cancelled position (position_not_open) and the last one (last_position)', async () => {
      const p = await t.partner()
      const { leagueId, game } = await leagueWithGame(p, { positions: [{}, {}, {}] })
      const [a, b, c] = game.positions.map((x: any) => x.id)
      const ref = await official(p, leagueId, 'ref')
      await p.post(`/games/${game.id}/assign`, { userId: ref, positionId: a })
      expect((await p.delete(`/games/${game.id}/positions/${a}`)).body).toEqual({
        error: 'position_not_open',
      })
      expect((await p.delete(`/games/${game.id}/positions/${b}`)).status).toBe(200)
      expect((await p.delete(`/games/${game.id}/positions/${b}`)).body).toEqual({
        error: 'position_not_open',
      })
      await p.delete(`/games/${game.id}/assign?positionId=${a}`)
      expect((await p.delete(`/games/${game.id}/positions/${a}`)).status).toBe(200)
      const last = await p.delete(`/games/${game.id}/positions/${c}`)
      expect(last).toMatchObject({ status: 409, body: { error: 'last_position' } })
      expect((await p.get(`/games/${game.id}`)).body.data).toMatchObject({ status: 'open' })
    })

    it('answers 404 for another partner’s game and for a position of another game', async () => {
      const p = await t.partner()
      const other = await t.partner()
      const { game } = await leagueWithGame(p, { positions: [{}, {}] })
      const { game: second } = await leagueWithGame(p, { positions: [{}, {}] })
      const url = `/games/${game.id}/positions/${game.positions[1].id}`
      expect((await other.delete(url)).body).toEqual({ error: 'game_not_found' })
      expect((await p.delete(`/games/${second.id}/positions/${game.positions[1].id}`)).body).toEqual({
        error: 'position_not_found',
      })
      expect((await p.get(`/games/${game.id}`)).body.data.positions.map((x: any) => x.status)).toEqual([
        'open',
        'open',
      ])
    })
  })

  describe('levels', () => {
    it('level on officials: set, kept by a re-post without it, cleared by null; invalid → invalid_level', async () => {
      const p = await t.partner()
      const { leagueId } = await leagueWithGame(p)
      const post = (body: object) => p.post(`/leagues/${leagueId}/officials`, { externalId: 'r', ...body })
      expect((await post({ level: 4 })).body.data.level).toBe(4)
      expect((await post({ name: 'R' })).body.data.level).toBe(4)
      expect((await post({ level: null })).body.data.level).toBe(null)
      for (const bad of [0, 6, 2.5, '3', true])
        expect((await post({ level: bad })).body).toEqual({ error: 'invalid_level' })
      expect((await p.get(`/leagues/${leagueId}/officials`)).body.data[0].level).toBe(null)
    })

    it('assign refuses an official below the position’s minLevel with 409 level_too_low', async () => {
      const p = await t.partner()
      const { leagueId, game } = await leagueWithGame(p, {
        positions: [
          { label: 'Referee', minLevel: 3 },
          { label: 'AR', minLevel: 1 },
        ],
      })
      const [referee, ar] = game.positions.map((x: any) => x.id)
      const none = await official(p, leagueId, 'none')
      const two = await official(p, leagueId, 'two', 2)
      const three = await official(p, leagueId, 'three', 3)
      const assign = (userId: string, positionId?: string) =>
        p.post(`/games/${game.id}/assign`, { userId, ...(positionId && { positionId }) })
      expect(await assign(none, ar)).toMatchObject({ status: 409, body: { error: 'level_too_low' } })
      expect((await assign(two, referee)).body).toEqual({ error: 'level_too_low' })
      // Without a positionId: the first open position the level allows.
      const taken = await assign(two)
      expect(taken.status).toBe(200)
      expect(taken.body.data.positions.map((x: any) => x.official?.id ?? null)).toEqual([null, two])
      expect((await assign(three, referee)).status).toBe(200)
      expect(
        (await eventsOf(t.deps.db, leagueId)).filter((e) => e.event === 'position.claimed'),
      ).toHaveLength(2)
    })
  })
})
