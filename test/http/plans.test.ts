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
})

/** A partner and a league of its own. */
async function league_(t: { partner(): Promise<Partner> }) {
  const partner = await t.partner()
  const leagueId = (await partner.post('/leagues', { name: 'L' })).body.data.id as string
  return { partner, leagueId }
}
