// The assignor over REST (issue 26): candidates, plans as drafts, publishing through the race-safe claim.
import { describe, expect, it } from 'vitest'
import { setHomePoint } from '../../src/domain/people/profiles.js'
import { useTestApp, type Partner } from '../helpers/app.js'
import { eventsOf, joinLeagueAs, seedClaim, seedGame, uniqueEmail } from '../helpers/fixtures.js'

const WINDOW = { from: '2030-05-01T00:00:00.000Z', to: '2030-05-03T00:00:00.000Z' }
const at = (hour: number, day = 1) => `2030-05-0${day}T${String(hour).padStart(2, '0')}:00:00.000Z`

describe('the assignor over REST', () => {
  const t = useTestApp()

  async function official(p: Partner, leagueId: string, name: string) {
    const email = uniqueEmail(name)
    const res = await p.post(`/leagues/${leagueId}/officials`, { externalId: name, name, email })
    expect(res.status).toBe(201)
    // Joined, so the league weighs their home point and games (DESIGN "Consent").
    await joinLeagueAs(t.deps, leagueId, email)
    return { userId: res.body.data.userId as string, name, email: res.body.data.email as string }
  }

  /** A game at a point; its positions open unless claimed. */
  async function game(leagueId: string, startsAt: string, claims: (string | undefined)[] = [undefined]) {
    const seeded = await seedGame(t.deps.db, leagueId, {
      startsAt,
      // A field per start: games apart in time are at different places, so the travel buffer applies.
      location: `Field at ${startsAt}`,
      positions: claims.map((officialId) => (officialId ? { officialId } : {})),
    })
    await t.deps.db
      .updateTable('games')
      .set({ latitude: 52.52, longitude: 13.405 })
      .where('id', '=', seeded.id)
      .execute()
    return seeded
  }

  describe('GET /games/{gameId}/candidates', () => {
    it('ranks eligible officials by distance from home, and names the rule that excludes the others', async () => {
      const p = await league_(t)
      const { leagueId, partner } = p
      const near = await official(partner, leagueId, 'Near')
      const far = await official(partner, leagueId, 'Far')
      const busy = await official(partner, leagueId, 'Busy')
      const unknown = await official(partner, leagueId, 'Unknown')
      await setHomePoint(t.deps, near, { latitude: 52.5, longitude: 13.4 })
      await setHomePoint(t.deps, far, { latitude: 48.1372, longitude: 11.5756 })
      await setHomePoint(t.deps, busy, { latitude: 52.52, longitude: 13.405 })
      const target = await game(leagueId, at(10))
      // Busy holds a game ending at 10:00 (90 minutes): within the 30-minute buffer of this one's start.
      await game(leagueId, '2030-05-01T08:30:00.000Z', [busy.userId])
      const res = await partner.get(`/games/${target.id}/candidates?positionId=${target.positionIds[0]}`)
      expect(res.status).toBe(200)
      expect(res.body.data).toEqual([
        {
          userId: near.userId,
          name: 'Near',
          level: null,
          eligible: true,
          reasons: [],
          gamesInWindow: 0,
          distanceKm: 2,
        },
        // Unknown distance weighs 25 km, Munich 504 km (whole km: no trilateration of a home).
        {
          userId: unknown.userId,
          name: 'Unknown',
          level: null,
          eligible: true,
          reasons: [],
          gamesInWindow: 0,
          distanceKm: null,
        },
        {
          userId: far.userId,
          name: 'Far',
          level: null,
          eligible: true,
          reasons: [],
          gamesInWindow: 0,
          distanceKm: 504,
        },
        {
          userId: busy.userId,
          name: 'Busy',
          level: null,
          eligible: false,
          reasons: ['schedule_conflict'],
          gamesInWindow: 1,
          distanceKm: 0,
        },
      ])
      // Without positionId: the game's first open position, the same answer.
      expect((await partner.get(`/games/${target.id}/candidates`)).body).toEqual(res.body)
    })

    it('answers the scoped 404s', async () => {
      const { leagueId, partner } = await league_(t)
      const target = await game(leagueId, at(10))
      const other = await t.partner()
      expect((await other.get(`/games/${target.id}/candidates`)).body).toEqual({ error: 'game_not_found' })
      expect((await partner.get('/games/nope/candidates')).status).toBe(404)
      const wrong = await partner.get(`/games/${target.id}/candidates?positionId=nope`)
      expect(wrong.status).toBe(404)
      expect(wrong.body).toEqual({ error: 'position_not_found' })
    })
  })

  describe('plans', () => {
    it('plans a window as a draft: proposals with why, unfilled positions with the rules that left them open', async () => {
      const { leagueId, partner } = await league_(t)
      const ann = await official(partner, leagueId, 'Ann')
      const bob = await official(partner, leagueId, 'Bob')
      // Two games at once with two positions each: two officials fill two of the four positions.
      const g1 = await game(leagueId, at(10), [undefined, undefined])
      const g2 = await game(leagueId, at(10), [undefined])
      const res = await partner.post(`/leagues/${leagueId}/assignment-plans`, WINDOW)
      expect(res.status).toBe(201)
      const plan = res.body.data
      expect(plan).toMatchObject({ leagueId, status: 'draft', ...WINDOW, publishedAt: null, outcome: null })
      expect(plan.stats).toMatchObject({ positions: 3, filled: 2, optimal: true })
      expect(plan.proposals).toHaveLength(2)
      for (const proposal of plan.proposals) {
        expect([ann.userId, bob.userId]).toContain(proposal.userId)
        expect(proposal.why).toMatch(
          /^Best of 2 eligible officials; distance unknown; their 1st planned game/,
        )
      }
      expect(new Set(plan.proposals.map((x: { userId: string }) => x.userId)).size).toBe(2)
      expect(plan.unfilled).toHaveLength(1)
      expect(plan.unfilled[0].reasons).toEqual([
        {
          code: 'planned_elsewhere',
          count: 2,
          userIds: expect.arrayContaining([ann.userId, bob.userId]),
        },
      ])
      const all = [...g1.positionIds, ...g2.positionIds]
      expect(all).toContain(plan.unfilled[0].positionId)
      const read = await partner.get(`/assignment-plans/${plan.id}`)
      expect(read.status).toBe(200)
      expect(read.body.data).toEqual(plan)
      // A draft assigns nothing.
      expect(await eventsOf(t.deps.db, leagueId)).not.toContainEqual(
        expect.objectContaining({ event: 'position.claimed' }),
      )
    })

    it('says which rule excluded whom for a position nobody may take', async () => {
      const { leagueId, partner } = await league_(t)
      const ann = await official(partner, leagueId, 'Ann')
      await game(leagueId, at(9), [ann.userId])
      const open = await game(leagueId, at(10))
      const plan = (await partner.post(`/leagues/${leagueId}/assignment-plans`, WINDOW)).body.data
      expect(plan.proposals).toEqual([])
      expect(plan.unfilled).toEqual([
        {
          gameId: open.id,
          positionId: open.positionIds[0],
          startsAt: at(10),
          label: 'Official',
          reasons: [{ code: 'schedule_conflict', count: 1, userIds: [ann.userId] }],
        },
      ])
    })

    it('is deterministic for the same data', async () => {
      const { leagueId, partner } = await league_(t)
      for (const name of ['A', 'B', 'C', 'D', 'E']) await official(partner, leagueId, name)
      for (let hour = 8; hour < 18; hour += 1) await game(leagueId, at(hour), [undefined, undefined])
      const first = (await partner.post(`/leagues/${leagueId}/assignment-plans`, WINDOW)).body.data
      const second = (await partner.post(`/leagues/${leagueId}/assignment-plans`, WINDOW)).body.data
      expect(second.id).not.toBe(first.id)
      expect(second.proposals).toEqual(first.proposals)
      expect(second.unfilled).toEqual(first.unfilled)
      expect(first.stats.optimal).toBe(true)
    })

    it('refuses a bad window, and answers the scoped 404s', async () => {
      const { leagueId, partner } = await league_(t)
      const path = `/leagues/${leagueId}/assignment-plans`
      const refused = async (body: unknown, code: string) => {
        const res = await partner.post(path, body)
        expect(res.status, JSON.stringify(body)).toBe(400)
        expect(res.body).toEqual({ error: code })
      }
      await refused({ from: 12 }, 'invalid_from')
      await refused({ from: 'soon' }, 'invalid_from')
      await refused({ from: '2030-05-01T00:00:00Z\ud800' }, 'invalid_from')
      await refused({ to: [] }, 'invalid_to')
      await refused({ ...WINDOW, to: WINDOW.from }, 'invalid_to')
      await refused({ from: WINDOW.from, to: '2030-06-02T00:00:00.000Z' }, 'invalid_to')
      await refused('x'.repeat(10), 'invalid_json')
      expect(
        await t.deps.db
          .selectFrom('assignment_plans')
          .select('id')
          .where('league_id', '=', leagueId)
          .execute(),
      ).toEqual([])
      const other = await t.partner()
      expect((await other.post(path, {})).body).toEqual({ error: 'league_not_found' })
      const plan = (await partner.post(path, {})).body.data
      expect(plan.stats.positions).toBe(0)
      for (const [method, url] of [
        ['get', `/assignment-plans/${plan.id}`],
        ['post', `/assignment-plans/${plan.id}/publish`],
        ['get', '/assignment-plans/nope'],
      ] as const) {
        const res = await (method === 'get' ? other.get(url) : other.post(url))
        expect(res.status).toBe(404)
        expect(res.body).toEqual({ error: 'plan_not_found' })
      }
    })
  })

  describe('POST /assignment-plans/{planId}/publish', () => {
    it('assigns each proposal (position.claimed), once; skips what was taken or came into conflict meanwhile', async () => {
      const { leagueId, partner } = await league_(t)
      const ann = await official(partner, leagueId, 'Ann')
      const bob = await official(partner, leagueId, 'Bob')
      const carl = await official(partner, leagueId, 'Carl')
      const g1 = await game(leagueId, at(10))
      const g2 = await game(leagueId, at(14))
      const g3 = await game(leagueId, at(10, 2))
      const plan = (await partner.post(`/leagues/${leagueId}/assignment-plans`, WINDOW)).body.data
      expect(plan.proposals).toHaveLength(3)
      const proposalOf = (positionId: string) =>
        plan.proposals.find((x: { positionId: string }) => x.positionId === positionId)
      // Meanwhile g1's position is taken by Carl, and whoever was planned for g2 takes a game at its time.
      const takenBy = proposalOf(g1.positionIds[0]!).userId === carl.userId ? ann : carl
      expect((await partner.post(`/games/${g1.id}/assign`, { userId: takenBy.userId })).status).toBe(200)
      const g2Official = proposalOf(g2.positionIds[0]!).userId
      await seedClaim(t.deps.db, (await game(leagueId, at(14))).positionIds[0]!, g2Official)
      await t.deps.db
        .updateTable('positions')
        .set({ status: 'claimed' })
        .where('status', '=', 'open')
        .where('id', 'not in', [...g2.positionIds, ...g3.positionIds, ...g1.positionIds])
        .execute()
      const before = (await eventsOf(t.deps.db, leagueId)).length
      const res = await partner.post(`/assignment-plans/${plan.id}/publish`)
      expect(res.status).toBe(200)
      expect(res.body.data).toEqual({
        assigned: [g3.positionIds[0]],
        skipped: [
          { positionId: g1.positionIds[0], error: 'position_taken' },
          { positionId: g2.positionIds[0], error: 'schedule_conflict' },
        ],
      })
      const events = (await eventsOf(t.deps.db, leagueId)).slice(before)
      expect(events.map((e) => [e.event, e.data.positionId, e.data.official.id])).toEqual([
        ['position.claimed', g3.positionIds[0], proposalOf(g3.positionIds[0]!).userId],
      ])
      const read = (await partner.get(`/assignment-plans/${plan.id}`)).body.data
      expect(read).toMatchObject({ status: 'published', outcome: res.body.data })
      expect(read.publishedAt).toEqual(expect.any(String))
      const again = await partner.post(`/assignment-plans/${plan.id}/publish`)
      expect(again.status).toBe(409)
      expect(again.body).toEqual({ error: 'plan_already_published' })
      expect(bob.userId).toBeTruthy()
    })
  })

  describe('a reviewable, partial plan (issue 36 item 6)', () => {
    it('proposals carry their game: time, place, venue, sport and the position’s label', async () => {
      const { leagueId, partner } = await league_(t)
      await official(partner, leagueId, 'Ann')
      const g = await game(leagueId, at(10))
      await t.deps.db.updateTable('games').set({ venue: 'North Park' }).where('id', '=', g.id).execute()
      const plan = (await partner.post(`/leagues/${leagueId}/assignment-plans`, WINDOW)).body.data
      expect(plan.proposals[0].game).toEqual({
        startsAt: at(10),
        location: `Field at ${at(10)}`,
        venue: 'North Park',
        sport: expect.any(String),
        label: 'Official',
      })
      expect((await partner.get(`/assignment-plans/${plan.id}`)).body.data.proposals[0].game).toEqual(
        plan.proposals[0].game,
      )
    })

    it('publishes only the positions named; unknown ones are refused whole', async () => {
      const { leagueId, partner } = await league_(t)
      await official(partner, leagueId, 'Ann')
      const g1 = await game(leagueId, at(10))
      const g2 = await game(leagueId, at(14))
      const plan = (await partner.post(`/leagues/${leagueId}/assignment-plans`, WINDOW)).body.data
      expect(plan.proposals).toHaveLength(2)
      const path = `/assignment-plans/${plan.id}/publish`
      for (const body of [{ positionIds: ['nope'] }, { positionIds: [] }, { positionIds: 'x' }]) {
        const refused = await partner.post(path, body)
        expect(refused.status, JSON.stringify(body)).toBe(400)
        expect(refused.body).toEqual({ error: 'invalid_positionIds' })
      }
      expect((await partner.get(`/assignment-plans/${plan.id}`)).body.data.status).toBe('draft')
      const res = await partner.post(path, { positionIds: [g2.positionIds[0]] })
      expect(res.body.data).toEqual({ assigned: [g2.positionIds[0]], skipped: [] })
      const claimed = (await eventsOf(t.deps.db, leagueId)).filter((e) => e.event === 'position.claimed')
      expect(claimed.map((e) => e.data.positionId)).toEqual([g2.positionIds[0]])
      expect(g1.positionIds[0]).not.toBe(g2.positionIds[0])
    })

    it('edits a draft: removes, then sets an official each rule allows', async () => {
      const { leagueId, partner } = await league_(t)
      const ann = await official(partner, leagueId, 'Ann')
      const bob = await official(partner, leagueId, 'Bob')
      const g = await game(leagueId, at(10))
      const plan = (await partner.post(`/leagues/${leagueId}/assignment-plans`, WINDOW)).body.data
      const positionId = g.positionIds[0]!
      const other = plan.proposals[0].userId === ann.userId ? bob : ann
      const removed = await partner.patch(`/assignment-plans/${plan.id}`, { remove: [positionId] })
      expect(removed.status).toBe(200)
      expect(removed.body.data.proposals).toEqual([])
      expect(removed.body.data.unfilled).toEqual([
        {
          gameId: g.id,
          positionId,
          startsAt: at(10),
          label: 'Official',
          reasons: [{ code: 'removed', count: 0, userIds: [] }],
        },
      ])
      expect(removed.body.data.stats).toMatchObject({ filled: 0, leadsFilled: 0 })
      const set = await partner.patch(`/assignment-plans/${plan.id}`, {
        set: [{ positionId, userId: other.userId }],
      })
      expect(set.status).toBe(200)
      expect(set.body.data.proposals).toMatchObject([
        { positionId, userId: other.userId, name: other.name, game: { startsAt: at(10) } },
      ])
      expect(set.body.data.proposals[0].why).toMatch(/^Chosen by the organizer; distance unknown/)
      expect(set.body.data.unfilled).toEqual([])
      expect(set.body.data.stats).toMatchObject({ filled: 1, leadsFilled: 1 })
      expect((await partner.get(`/assignment-plans/${plan.id}`)).body.data).toEqual(set.body.data)
      const published = await partner.post(`/assignment-plans/${plan.id}/publish`)
      expect(published.body.data).toEqual({ assigned: [positionId], skipped: [] })
      const again = await partner.patch(`/assignment-plans/${plan.id}`, { remove: [positionId] })
      expect(again.status).toBe(409)
      expect(again.body).toEqual({ error: 'plan_already_published' })
    })

    it('refuses a set with the rule’s code and changes nothing', async () => {
      const { leagueId, partner } = await league_(t)
      const ann = await official(partner, leagueId, 'Ann')
      const bob = await official(partner, leagueId, 'Bob')
      // Bob holds a game at 09:00 (90 minutes): 10:00 is within the travel buffer.
      await game(leagueId, at(9), [bob.userId])
      const crew = await game(leagueId, at(10), [undefined, undefined])
      const later = await game(leagueId, at(10, 2))
      const plan = (await partner.post(`/leagues/${leagueId}/assignment-plans`, WINDOW)).body.data
      const path = `/assignment-plans/${plan.id}`
      const annHolds = plan.proposals.find((x: { userId: string }) => x.userId === ann.userId)
      expect(crew.positionIds).toContain(annHolds.positionId)
      const otherSeat = crew.positionIds.find((id) => id !== annHolds.positionId)!
      const refused = async (body: unknown, status: number, code: string) => {
        const res = await partner.patch(path, body)
        expect(res.status, JSON.stringify(body)).toBe(status)
        expect(res.body).toEqual({ error: code })
      }
      // One official, one position a game: Ann already has the crew's other seat in this plan.
      await refused({ set: [{ positionId: otherSeat, userId: ann.userId }] }, 409, 'schedule_conflict')
      // Bob's own game is within the buffer of the crew's.
      await refused({ set: [{ positionId: otherSeat, userId: bob.userId }] }, 409, 'schedule_conflict')
      // A level above Bob's.
      await t.deps.db
        .updateTable('positions')
        .set({ min_level: 3 })
        .where('id', '=', later.positionIds[0]!)
        .execute()
      await refused({ set: [{ positionId: later.positionIds[0], userId: bob.userId }] }, 409, 'level_too_low')
      // The removal before a refused set is not kept either.
      await refused(
        { remove: [annHolds.positionId], set: [{ positionId: otherSeat, userId: bob.userId }] },
        409,
        'schedule_conflict',
      )
      await refused({ remove: ['nope'] }, 400, 'invalid_remove')
      await refused({ set: [{ positionId: 'nope', userId: ann.userId }] }, 400, 'invalid_set')
      await refused({ set: [{ positionId: otherSeat }] }, 400, 'invalid_set')
      await refused({ set: [{ positionId: otherSeat, userId: 'nobody' }] }, 409, 'not_a_league_official')
      expect((await partner.get(path)).body.data).toEqual(plan)
    })

    it('counts the official’s other proposals of the plan towards the daily limit', async () => {
      const { leagueId, partner } = await league_(t)
      expect((await partner.patch(`/leagues/${leagueId}`, { maxGamesPerDay: 1 })).status).toBe(200)
      await official(partner, leagueId, 'Ann')
      await official(partner, leagueId, 'Bob')
      const morning = await game(leagueId, at(10))
      const evening = await game(leagueId, at(16))
      const plan = (await partner.post(`/leagues/${leagueId}/assignment-plans`, WINDOW)).body.data
      const holder = plan.proposals.find(
        (x: { positionId: string }) => x.positionId === morning.positionIds[0],
      ).userId
      const res = await partner.patch(`/assignment-plans/${plan.id}`, {
        set: [{ positionId: evening.positionIds[0], userId: holder }],
      })
      expect(res.status).toBe(409)
      expect(res.body).toEqual({ error: 'daily_limit_reached' })
      // Without the morning proposal, the evening is theirs to take.
      const moved = await partner.patch(`/assignment-plans/${plan.id}`, {
        remove: [morning.positionIds[0]],
        set: [{ positionId: evening.positionIds[0], userId: holder }],
      })
      expect(moved.status).toBe(200)
      expect(moved.body.data.proposals.map((x: { userId: string }) => x.userId)).toEqual([holder])
    })

    it('never proposes by hand an official who gave the game back (withdrew)', async () => {
      const { leagueId, partner } = await league_(t)
      const ann = await official(partner, leagueId, 'Ann')
      await official(partner, leagueId, 'Bob')
      const g = await game(leagueId, at(10))
      await t.deps.db
        .insertInto('turnbacks')
        .values({ id: 'tb1', game_id: g.id, user_id: ann.userId, kind: 'withdrew', created_at: at(0) })
        .execute()
      const plan = (await partner.post(`/leagues/${leagueId}/assignment-plans`, WINDOW)).body.data
      expect(plan.proposals.map((x: { userId: string }) => x.userId)).not.toContain(ann.userId)
      const res = await partner.patch(`/assignment-plans/${plan.id}`, {
        set: [{ positionId: g.positionIds[0], userId: ann.userId }],
      })
      expect(res.status).toBe(409)
      expect(res.body).toEqual({ error: 'withdrew' })
    })
  })
})

/** A partner and a league of its own. */
async function league_(t: { partner(): Promise<Partner> }) {
  const partner = await t.partner()
  const leagueId = (await partner.post('/leagues', { name: 'L' })).body.data.id as string
  return { partner, leagueId }
}
