// Issue 36 item 3: a plan never stalls other tenants. Explanations are counts with a bounded list of
// ids, one plan at a time per league, a size cap, old drafts pruned. The limits are lowered here so that
// the smallest data shows each rule.
import { beforeEach, describe, expect, it } from 'vitest'
import { useTestApp, type Partner } from '../helpers/app.js'
import { newId } from '../../src/clock.js'
import { seedGame, seedLeague, seedMembership, seedUser } from '../helpers/fixtures.js'

const WINDOW = { from: '2030-05-01T00:00:00.000Z', to: '2030-05-03T00:00:00.000Z' }

describe('plans are bounded', () => {
  const t = useTestApp({ limits: { planPairs: 30, draftsKept: 2 } })

  let p: Partner
  beforeEach(async () => {
    p = await t.partner()
  })

  async function league(officials: number) {
    const leagueId = await seedLeague(t.deps.db, { source: p.source })
    const userIds: string[] = []
    for (let i = 0; i < officials; i++) {
      const userId = await seedUser(t.deps.db, { name: `Official ${i}` })
      await seedMembership(t.deps.db, leagueId, userId, { joined: true })
      userIds.push(userId)
    }
    return { leagueId, userIds }
  }

  const plan = (leagueId: string) => p.post(`/leagues/${leagueId}/assignment-plans`, WINDOW)

  it('says how many officials each rule excluded and names at most 20 of them, in membership order', async () => {
    const { leagueId, userIds } = await league(25)
    await seedGame(t.deps.db, leagueId, {
      startsAt: '2030-05-01T10:00:00.000Z',
      positions: [{ minLevel: 3 }],
    })
    const res = await plan(leagueId)
    expect(res.status).toBe(201)
    expect(res.body.data.unfilled[0].reasons).toEqual([
      { code: 'level_too_low', count: 25, userIds: userIds.slice(0, 20) },
    ])
  })

  it('refuses a plan of more positions × officials than the cap, writing nothing', async () => {
    const { leagueId } = await league(16)
    await seedGame(t.deps.db, leagueId, { startsAt: '2030-05-01T10:00:00.000Z', positions: [{}, {}] })
    const res = await plan(leagueId)
    expect(res.status).toBe(409)
    expect(res.body).toEqual({ error: 'plan_too_large' })
    const rows = await t.deps.db
      .selectFrom('assignment_plans')
      .select('id')
      .where('league_id', '=', leagueId)
      .execute()
    expect(rows).toEqual([])
  })

  it('makes one plan at a time per league: a second meanwhile answers 409, another league is not held', async () => {
    const first = await league(2)
    const second = await league(2)
    for (const { leagueId } of [first, second])
      await seedGame(t.deps.db, leagueId, { startsAt: '2030-05-01T10:00:00.000Z' })
    const answers = await Promise.all([plan(first.leagueId), plan(first.leagueId), plan(second.leagueId)])
    expect(answers.map((a) => a.status).sort()).toEqual([201, 201, 409])
    expect(answers[2]!.status).toBe(201)
    expect(answers.find((a) => a.status === 409)!.body).toEqual({ error: 'plan_in_progress' })
    // Done, the league plans again.
    expect((await plan(first.leagueId)).status).toBe(201)
  })

  it('keeps a league’s newest drafts and every published plan', async () => {
    const { leagueId } = await league(1)
    await seedGame(t.deps.db, leagueId, { startsAt: '2030-05-01T10:00:00.000Z' })
    const ids: string[] = []
    for (let i = 0; i < 4; i++) {
      ids.push((await plan(leagueId)).body.data.id as string)
      if (i === 0) expect((await p.post(`/assignment-plans/${ids[0]}/publish`, {})).status).toBe(200)
    }
    const statuses = await Promise.all(ids.map(async (id) => (await p.get(`/assignment-plans/${id}`)).status))
    expect(statuses).toEqual([200, 404, 200, 200])
  })

  it('reads a plan stored before counts and leads: the ids it kept are the count, no leads', async () => {
    const { leagueId, userIds } = await league(2)
    const id = newId()
    const unfilled = [
      {
        gameId: id,
        positionId: id,
        startsAt: WINDOW.from,
        label: 'Official',
        reasons: [{ code: 'level_too_low', userIds }],
      },
    ]
    await t.deps.db
      .insertInto('assignment_plans')
      .values({
        id,
        league_id: leagueId,
        status: 'draft',
        from_at: WINDOW.from,
        to_at: WINDOW.to,
        proposals: '[]',
        unfilled: JSON.stringify(unfilled),
        stats: JSON.stringify({ positions: 1, filled: 0, optimal: true, solveMs: 1 }),
        outcome: null,
        created_at: WINDOW.from,
        published_at: null,
      })
      .execute()
    const res = await p.get(`/assignment-plans/${id}`)
    expect(res.status).toBe(200)
    expect(res.body.data.stats).toMatchObject({ positions: 1, leads: 0, leadsFilled: 0 })
    expect(res.body.data.unfilled[0].reasons).toEqual([{ code: 'level_too_low', count: 2, userIds }])
  })
})
