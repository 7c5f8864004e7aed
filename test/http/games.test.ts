import { describe, expect, it } from 'vitest'
import { grantLeague } from '../../src/domain/partners/api-keys.js'
import type { PositionStatus } from '../../src/store/tables.js'
import { useTestApp, type Partner } from '../helpers/app.js'
import { eventsOf, seedPayment, seedPosition, seedUser } from '../helpers/fixtures.js'

const startsAt = (hour: number) => `2026-05-01T${String(hour).padStart(2, '0')}:00:00.000Z`
/** The end of a game of the league's default length (90 minutes) starting at `iso`. */
const endsAt = (iso: string) => new Date(Date.parse(iso) + 90 * 60_000).toISOString()

describe('games', () => {
  const t = useTestApp()

  async function newLeague(p: Partner, name = 'League'): Promise<string> {
    return (await p.post('/leagues', { name })).body.data.id
  }

  const events = (leagueId: string) => eventsOf(t.deps.db, leagueId)

  async function postGames(p: Partner, leagueId: string, games: unknown[]) {
    return p.post(`/leagues/${leagueId}/games`, { games })
  }

  /** Adds a position to a game in the given state, with a claim (and a payment when completed). */
  async function addWorkedPosition(gameId: string, leagueId: string, status: PositionStatus) {
    const db = t.deps.db
    const userId = await seedUser(db, { name: 'Ref', source: 'fixture' })
    const positionId = await seedPosition(db, gameId, {
      label: status,
      payCents: 5000,
      status,
      officialId: userId,
    })
    if (status === 'completed') {
      await seedPayment(db, { positionId, officialId: userId, leagueId, amountCents: 5000 })
    }
    return { positionId, userId }
  }

  describe('POST /leagues/{leagueId}/games', () => {
    it('creates games, each with one open Official position, in input order', async () => {
      const p = await t.partner()
      const leagueId = await newLeague(p)
      const res = await postGames(p, leagueId, [
        { startsAt: startsAt(18), sport: 'soccer', location: 'Field 1', payDollars: 45 },
        { startsAt: startsAt(9), label: 'Referee', latitude: 40.5, longitude: -73.25, externalId: 'g-2' },
      ])
      expect(res.status).toBe(201)
      const position = { id: expect.any(String), status: 'open', minLevel: null }
      expect(res.body).toEqual({
        data: {
          created: [
            {
              id: expect.any(String),
              leagueId,
              sport: 'soccer',
              startsAt: startsAt(18),
              durationMinutes: 90,
              endsAt: endsAt(startsAt(18)),
              location: 'Field 1',
              venue: null,
              status: 'open',
              latitude: null,
              longitude: null,
              source: p.source,
              externalId: null,
              positions: [{ ...position, label: 'Official', payCents: 4500, payDollars: 45 }],
            },
            {
              id: expect.any(String),
              leagueId,
              sport: '',
              startsAt: startsAt(9),
              durationMinutes: 90,
              endsAt: endsAt(startsAt(9)),
              location: '',
              venue: null,
              status: 'open',
              latitude: 40.5,
              longitude: -73.25,
              source: p.source,
              externalId: 'g-2',
              positions: [{ ...position, label: 'Referee', payCents: 0, payDollars: 0 }],
            },
          ],
        },
      })
      const created = res.body.data.created
      expect(await events(leagueId)).toEqual(
        created.map((game: unknown) => ({ event: 'game.created', data: game })),
      )
    })

    it('accepts an echoed source', async () => {
      const p = await t.partner()
      const leagueId = await newLeague(p)
      const res = await p.post(`/leagues/${leagueId}/games`, {
        source: p.source,
        games: [{ startsAt: startsAt(1) }],
      })
      expect(res.status).toBe(201)
    })

    it('upsert-update rewrites only sport, startsAt, location and coordinates, and emits game.created', async () => {
      const p = await t.partner()
      const leagueId = await newLeague(p)
      const first = await postGames(p, leagueId, [
        {
          externalId: 'g-1',
          startsAt: startsAt(10),
          sport: 'soccer',
          location: 'Field 1',
          label: 'Center',
          payDollars: 40,
          latitude: 1,
          longitude: 2,
        },
      ])
      const [original] = first.body.data.created
      await addWorkedPosition(original.id, leagueId, 'claimed')
      const claimed = (await p.get(`/games/${original.id}`)).body.data.positions[1]
      const again = await postGames(p, leagueId, [
        {
          externalId: 'g-1',
          startsAt: '2026-05-02T08:00:00+02:00',
          sport: 'hockey',
          location: 'Rink',
          label: 'Linesman',
          payDollars: 99,
          latitude: 3,
          longitude: null,
        },
      ])
      expect(again.status).toBe(201)
      const updated = {
        ...original,
        sport: 'hockey',
        startsAt: '2026-05-02T06:00:00.000Z',
        endsAt: endsAt('2026-05-02T06:00:00.000Z'),
        location: 'Rink',
        latitude: 3,
        longitude: null,
      }
      const { official: _official, payment: _payment, ...claimedView } = claimed
      const positions = [...original.positions, claimedView]
      expect(again.body.data.created).toEqual([{ ...updated, positions }])
      expect((await p.get(`/leagues/${leagueId}/games`)).body.data).toEqual([{ ...updated, positions }])
      expect((await p.get(`/games/${original.id}`)).body.data.positions[1]).toEqual(claimed)
      expect(await events(leagueId)).toEqual([
        { event: 'game.created', data: original },
        { event: 'game.created', data: { ...updated, positions } },
      ])
    })

    it('upsert-update leaves the fields an item omits', async () => {
      const p = await t.partner()
      const leagueId = await newLeague(p)
      const item = { externalId: 'g-1', startsAt: startsAt(10), sport: 'soccer', location: 'Field 1' }
      const [original] = (await postGames(p, leagueId, [{ ...item, latitude: 1, longitude: 2 }])).body.data
        .created
      const moved = await postGames(p, leagueId, [{ externalId: 'g-1', startsAt: startsAt(11) }])
      expect(moved.body.data.created).toEqual([
        { ...original, startsAt: startsAt(11), endsAt: endsAt(startsAt(11)) },
      ])
      const blanked = await postGames(p, leagueId, [{ ...item, sport: '', latitude: null }])
      expect(blanked.body.data.created).toEqual([{ ...original, sport: '', latitude: null }])
    })

    it('treats a repeated externalId within one batch as an update of the game created earlier', async () => {
      const p = await t.partner()
      const leagueId = await newLeague(p)
      const res = await postGames(p, leagueId, [
        { externalId: 'dup', startsAt: startsAt(10), sport: 'soccer' },
        { externalId: 'dup', startsAt: startsAt(12), sport: 'rugby', payDollars: 80 },
      ])
      expect(res.status).toBe(201)
      const [first, second] = res.body.data.created
      expect(second).toEqual({
        ...first,
        startsAt: startsAt(12),
        endsAt: endsAt(startsAt(12)),
        sport: 'rugby',
      })
      expect(first).toMatchObject({ startsAt: startsAt(10), sport: 'soccer' })
      expect((await p.get(`/leagues/${leagueId}/games`)).body.data).toEqual([second])
      expect((await events(leagueId)).map((e) => e.data)).toEqual([first, second])
    })

    it('keeps the games before a failing item, with their events, and nothing after it', async () => {
      const p = await t.partner()
      const leagueId = await newLeague(p)
      const res = await postGames(p, leagueId, [
        { startsAt: startsAt(10), externalId: 'a' },
        { startsAt: startsAt(11), externalId: 'b' },
        { startsAt: 'next tuesday', externalId: 'c' },
        { startsAt: startsAt(12), externalId: 'd' },
      ])
      expect(res).toMatchObject({ status: 400, body: { error: 'invalid_startsAt:next tuesday' } })
      const games = (await p.get(`/leagues/${leagueId}/games`)).body.data
      expect(games.map((g: { externalId: string }) => g.externalId)).toEqual(['a', 'b'])
      expect(await events(leagueId)).toEqual(games.map((g: unknown) => ({ event: 'game.created', data: g })))
    })

    it('answers external_id_conflict for another league’s externalId, keeping the games before it', async () => {
      const p = await t.partner()
      const leagueA = await newLeague(p, 'A')
      const leagueB = await newLeague(p, 'B')
      const [taken] = (
        await postGames(p, leagueA, [{ externalId: 'shared', startsAt: startsAt(10), sport: 'soccer' }])
      ).body.data.created
      const res = await postGames(p, leagueB, [
        { externalId: 'b-1', startsAt: startsAt(9) },
        { externalId: 'shared', startsAt: startsAt(20), sport: 'hockey' },
        { externalId: 'b-2', startsAt: startsAt(8) },
      ])
      expect(res).toMatchObject({ status: 409, body: { error: 'external_id_conflict' } })
      expect((await p.get(`/games/${taken.id}`)).body.data).toMatchObject({
        leagueId: leagueA,
        startsAt: startsAt(10),
        sport: 'soccer',
      })
      const inB = (await p.get(`/leagues/${leagueB}/games`)).body.data
      expect(inB.map((g: { externalId: string }) => g.externalId)).toEqual(['b-1'])
      expect(await events(leagueB)).toEqual([{ event: 'game.created', data: inB[0] }])
      expect(await events(leagueA)).toHaveLength(1)
    })

    it.each([
      [0.125, 13],
      [1.005, 101],
      [12.345, 1235],
      [19.99, 1999],
      [0.004, 0],
      [-5, 0],
      [1_000_000, 100_000_000],
    ])('rounds payDollars %d to %d cents', async (payDollars, payCents) => {
      const p = await t.partner()
      const leagueId = await newLeague(p)
      const res = await postGames(p, leagueId, [{ startsAt: startsAt(10), payDollars }])
      expect(res.body.data.created[0].positions[0]).toMatchObject({ payCents, payDollars: payCents / 100 })
    })

    it.each([
      ['2026-05-01T10:00:00-05:00', '2026-05-01T15:00:00.000Z'],
      ['2026-05-01T10:00:00Z', '2026-05-01T10:00:00.000Z'],
      ['2026-05-01T10:00:00.5+01:30', '2026-05-01T08:30:00.500Z'],
    ])('normalises startsAt %s to %s', async (given, stored) => {
      const p = await t.partner()
      const leagueId = await newLeague(p)
      const res = await postGames(p, leagueId, [{ startsAt: given }])
      expect(res.body.data.created[0].startsAt).toBe(stored)
    })

    const item = { startsAt: startsAt(10) }
    it.each([
      [{}, 'no_games'],
      [{ games: 'x' }, 'no_games'],
      [{ games: {} }, 'no_games'],
      [{ games: [] }, 'no_games'],
      [{ games: Array.from({ length: 501 }, () => item) }, 'too_many_games'],
      [{ source: 'app', games: [item] }, 'source_reserved'],
      [{ source: 'someone-else', games: [item] }, 'source_mismatch'],
      [{ source: 'x'.repeat(41), games: [item] }, 'invalid_source'],
      [{ source: 5, games: [item] }, 'invalid_source'],
      [{ games: [{}] }, 'invalid_startsAt:'],
      [{ games: [{ startsAt: 'soon' }] }, 'invalid_startsAt:soon'],
      [{ games: [{ startsAt: 12 }] }, 'invalid_startsAt:12'],
      [{ games: [{ ...item, sport: 1 }] }, 'invalid_sport'],
      [{ games: [{ ...item, location: false }] }, 'invalid_location'],
      [{ games: [{ ...item, label: null }] }, 'invalid_label'],
      [{ games: [{ ...item, payDollars: '10' }] }, 'invalid_payDollars'],
      [{ games: [{ ...item, payDollars: 1_000_000.01 }] }, 'invalid_payDollars'],
      [{ games: [{ ...item, latitude: 91 }] }, 'invalid_latitude'],
      [{ games: [{ ...item, longitude: 'west' }] }, 'invalid_longitude'],
      [{ games: [{ ...item, externalId: 7 }] }, 'invalid_externalId'],
      [{ games: [{ ...item, externalId: '' }] }, 'invalid_externalId'],
      [{ games: [5] }, 'invalid_json'],
      [[item], 'invalid_json'],
    ])('%j → 400 %s, nothing persisted', async (body, code) => {
      const p = await t.partner()
      const leagueId = await newLeague(p)
      const res = await p.post(`/leagues/${leagueId}/games`, body)
      expect(res).toEqual(expect.objectContaining({ status: 400, body: { error: code } }))
      expect((await p.get(`/leagues/${leagueId}/games`)).body.data).toEqual([])
      expect(await events(leagueId)).toEqual([])
    })

    it('answers 400 invalid_json for a missing body', async () => {
      const p = await t.partner()
      const leagueId = await newLeague(p)
      expect(await p.post(`/leagues/${leagueId}/games`)).toMatchObject({
        status: 400,
        body: { error: 'invalid_json' },
      })
    })

    it('writes games into a granted league under the key’s own source', async () => {
      const owner = await t.partner()
      const guest = await t.partner()
      const leagueId = await newLeague(owner)
      expect((await postGames(guest, leagueId, [item])).body).toEqual({ error: 'league_not_found' })
      await grantLeague(t.deps, guest.id, leagueId)
      const res = await postGames(guest, leagueId, [{ ...item, externalId: 'x' }])
      expect(res.status).toBe(201)
      expect(res.body.data.created[0]).toMatchObject({ leagueId, source: guest.source })
    })
  })

  describe('GET /leagues/{leagueId}/games', () => {
    it('lists by startsAt ascending with positions but no official or payment', async () => {
      const p = await t.partner()
      const leagueId = await newLeague(p)
      const { created } = (
        await postGames(p, leagueId, [
          { startsAt: startsAt(15), sport: 'b' },
          { startsAt: startsAt(9), sport: 'a' },
          { startsAt: startsAt(20), sport: 'c' },
        ])
      ).body.data
      const list = await p.get(`/leagues/${leagueId}/games`)
      expect(list.status).toBe(200)
      expect(list.body.data).toEqual([created[1], created[0], created[2]])
      expect(Object.keys(list.body.data[0].positions[0]).sort()).toEqual([
        'id',
        'label',
        'minLevel',
        'payCents',
        'payDollars',
        'status',
      ])
    })

    it('answers an empty list for a league without games', async () => {
      const p = await t.partner()
      const leagueId = await newLeague(p)
      expect(await p.get(`/leagues/${leagueId}/games`)).toMatchObject({ status: 200, body: { data: [] } })
    })
  })

  describe('GET /games/{gameId}', () => {
    it('answers the GameDetail, positions with official and payment', async () => {
      const p = await t.partner()
      const leagueId = await newLeague(p)
      const [game] = (await postGames(p, leagueId, [{ startsAt: startsAt(10), payDollars: 30 }])).body.data
        .created
      const { userId } = await addWorkedPosition(game.id, leagueId, 'claimed')
      const res = await p.get(`/games/${game.id}`)
      expect(res.status).toBe(200)
      expect(res.body.data).toEqual({
        ...game,
        positions: [
          { ...game.positions[0], official: null, payment: null },
          {
            id: expect.any(String),
            label: 'claimed',
            payCents: 5000,
            payDollars: 50,
            status: 'claimed',
            minLevel: null,
            official: { id: userId, name: 'Ref', email: `${userId}@example.test`, claimStatus: 'confirmed' },
            payment: null,
          },
        ],
      })
    })
  })

  describe('PATCH /games/{gameId}', () => {
    async function newGame(p: Partner) {
      const leagueId = await newLeague(p)
      const [game] = (
        await postGames(p, leagueId, [{ startsAt: startsAt(10), sport: 'soccer', location: 'Field 1' }])
      ).body.data.created
      return { leagueId, game }
    }

    it('applies only the provided keys and emits game.updated', async () => {
      const p = await t.partner()
      const { leagueId, game } = await newGame(p)
      const res = await p.patch(`/games/${game.id}`, {
        location: 'Field 2',
        startsAt: '2026-06-01T12:00:00+02:00',
      })
      const updated = {
        ...game,
        location: 'Field 2',
        startsAt: '2026-06-01T10:00:00.000Z',
        endsAt: endsAt('2026-06-01T10:00:00.000Z'),
      }
      expect(res).toMatchObject({ status: 200, body: { data: updated } })
      expect(res.body.data).toEqual(updated)
      expect((await p.get(`/games/${game.id}`)).body.data).toMatchObject({
        sport: 'soccer',
        location: 'Field 2',
      })
      expect((await events(leagueId)).slice(1)).toEqual([{ event: 'game.updated', data: updated }])
    })

    it('changes nothing and emits nothing for an empty body or unchanged values', async () => {
      const p = await t.partner()
      const { leagueId, game } = await newGame(p)
      for (const body of [{}, { sport: 'soccer', startsAt: '2026-05-01T12:00:00+02:00' }]) {
        expect(await p.patch(`/games/${game.id}`, body)).toMatchObject({ status: 200, body: { data: game } })
      }
      expect(await events(leagueId)).toHaveLength(1)
    })

    it('accepts an echoed source', async () => {
      const p = await t.partner()
      const { game } = await newGame(p)
      const res = await p.patch(`/games/${game.id}`, { location: 'Field 7', source: p.source })
      expect(res).toMatchObject({ status: 200, body: { data: { location: 'Field 7' } } })
    })

    it.each([
      [{ status: 'cancelled' }, 'status_not_updatable'],
      [{ status: null, sport: 'hockey' }, 'status_not_updatable'],
      [{ sport: 'hockey', status: 'open' }, 'status_not_updatable'],
      [{ startsAt: 'garbage', status: 'open' }, 'status_not_updatable'],
      [{ sport: 5, status: 'open' }, 'status_not_updatable'],
      [{ sport: 5 }, 'invalid_sport'],
      [{ location: null }, 'invalid_location'],
      [{ startsAt: 'garbage' }, 'invalid_startsAt:garbage'],
      [{ startsAt: null }, 'invalid_startsAt:null'],
      [{ sport: 'hockey', source: 'someone-else' }, 'source_mismatch'],
      [{ location: 'Elsewhere', source: 'app' }, 'source_reserved'],
      [{ sport: 'hockey', source: 'x'.repeat(41) }, 'invalid_source'],
      [['sport'], 'invalid_json'],
    ])('%j → 400 %s, nothing applied', async (body, code) => {
      const p = await t.partner()
      const { leagueId, game } = await newGame(p)
      expect(await p.patch(`/games/${game.id}`, body)).toMatchObject({ status: 400, body: { error: code } })
      expect((await p.get(`/games/${game.id}`)).body.data).toMatchObject({ sport: 'soccer', status: 'open' })
      expect(await events(leagueId)).toHaveLength(1)
    })
  })

  describe('DELETE /games/{gameId}', () => {
    it('cancels open positions, keeps claimed and completed ones with their payments, emits game.cancelled', async () => {
      const p = await t.partner()
      const leagueId = await newLeague(p)
      const [game] = (await postGames(p, leagueId, [{ startsAt: startsAt(10) }])).body.data.created
      await addWorkedPosition(game.id, leagueId, 'claimed')
      await addWorkedPosition(game.id, leagueId, 'completed')
      const before = (await p.get(`/games/${game.id}`)).body.data
      const res = await p.delete(`/games/${game.id}`)
      expect(res.status).toBe(200)
      const [open, claimed, completed] = before.positions
      const cancelled = {
        ...before,
        status: 'cancelled',
        positions: [{ ...open, status: 'cancelled' }, claimed, completed],
      }
      expect(res.body).toEqual({ data: cancelled })
      expect(completed.payment).toMatchObject({ amountCents: 5000, status: 'pending' })
      expect((await p.get(`/games/${game.id}`)).body.data).toEqual(cancelled)
      expect((await events(leagueId)).slice(1)).toEqual([
        { event: 'game.cancelled', data: { ...cancelled, leagueId } },
      ])
    })

    it('answers the current GameDetail for an already cancelled game, without a new event', async () => {
      const p = await t.partner()
      const leagueId = await newLeague(p)
      const [game] = (await postGames(p, leagueId, [{ startsAt: startsAt(10) }])).body.data.created
      const first = await p.delete(`/games/${game.id}`)
      expect(await p.delete(`/games/${game.id}`)).toMatchObject({ status: 200, body: first.body })
      expect((await events(leagueId)).map((e) => e.event)).toEqual(['game.created', 'game.cancelled'])
    })
  })

  it('documents the whole game item schema although only the envelope is validated up front', async () => {
    const doc = (await t.client().get('/openapi.json')).body
    const body =
      doc.paths['/api/v1/leagues/{leagueId}/games'].post.requestBody.content['application/json'].schema
    expect(body.properties.games).toMatchObject({
      minItems: 1,
      maxItems: 500,
      items: { required: ['startsAt'] },
    })
    expect(Object.keys(body.properties.games.items.properties).sort()).toEqual([
      'durationMinutes',
      'externalId',
      'label',
      'latitude',
      'location',
      'longitude',
      'payDollars',
      'positions',
      'sport',
      'startsAt',
      'venue',
    ])
  })

  it('answers 404 for unknown and other sources’ leagues and games, touching nothing', async () => {
    const owner = await t.partner()
    const other = await t.partner()
    const leagueId = await newLeague(owner)
    const [game] = (await postGames(owner, leagueId, [{ startsAt: startsAt(10), externalId: 'g' }])).body.data
      .created
    const leagueMissing = { status: 404, body: { error: 'league_not_found' } }
    const gameMissing = { status: 404, body: { error: 'game_not_found' } }
    for (const id of [leagueId, 'no-such-league']) {
      expect(await other.get(`/leagues/${id}/games`)).toMatchObject(leagueMissing)
      expect(await postGames(other, id, [{ startsAt: startsAt(11), externalId: 'g' }])).toMatchObject(
        leagueMissing,
      )
    }
    for (const id of [game.id, 'no-such-game']) {
      expect(await other.get(`/games/${id}`)).toMatchObject(gameMissing)
      expect(await other.patch(`/games/${id}`, { sport: 'hijack' })).toMatchObject(gameMissing)
      expect(await other.delete(`/games/${id}`)).toMatchObject(gameMissing)
    }
    expect((await owner.get(`/leagues/${leagueId}/games`)).body.data).toEqual([game])
    expect(await events(leagueId)).toHaveLength(1)
  })
})
