// Issue 26 on the rules of issue 24: the assignor asks conflicts.ts's own rule definitions with the league's
// real settings (buffer, daily limit, time zone, levels) and every source of unavailability, so a plan
// never proposes what the claim would refuse: publishing it skips nothing.
import { describe, expect, it } from 'vitest'
import { addBlackout } from '../../src/domain/availability/availability.js'
import { useTestApp, type Partner } from '../helpers/app.js'
import { joinLeagueAs, uniqueEmail } from '../helpers/fixtures.js'

const WINDOW = { from: '2030-05-01T00:00:00.000Z', to: '2030-05-03T00:00:00.000Z' }

describe('the assignor keeps the conflict rules with the league’s settings', () => {
  const t = useTestApp()

  async function official(p: Partner, leagueId: string, name: string, level?: number) {
    const email = uniqueEmail(name.toLowerCase())
    const body = { externalId: name, name, email, ...(level !== undefined && { level }) }
    const res = await p.post(`/leagues/${leagueId}/officials`, body)
    expect(res.status).toBe(201)
    await joinLeagueAs(t.deps, leagueId, email)
    return { userId: res.body.data.userId as string, email: res.body.data.email as string }
  }

  async function games(p: Partner, leagueId: string, items: object[]) {
    const res = await p.post(`/leagues/${leagueId}/games`, { games: items })
    expect(res.status).toBe(201)
    return res.body.data.created as { id: string; positions: { id: string }[] }[]
  }

  it('excludes by buffer, blackout, daily limit, level and another partner’s game; the plan publishes whole', async () => {
    const p = await t.partner()
    const other = await t.partner()
    const leagueId = (
      await p.post('/leagues', {
        name: 'L',
        travelBufferMinutes: 120,
        gameMinutes: 60,
        maxGamesPerDay: 1,
        timeZone: 'America/New_York',
      })
    ).body.data.id as string
    const ann = await official(p, leagueId, 'Ann', 4)
    const bob = await official(p, leagueId, 'Bob', 1)
    // Ann holds a game in another partner's league at 20:00 UTC on 1 May.
    const elsewhere = (await other.post('/leagues', { name: 'Elsewhere' })).body.data.id as string
    const theirs = await official(other, elsewhere, 'AnnThere')
    await t.deps.db.updateTable('users').set({ email: ann.email }).where('id', '=', theirs.userId).execute()
    const [held] = await games(other, elsewhere, [{ startsAt: '2030-05-01T20:00:00.000Z' }])
    expect((await other.post(`/games/${held!.id}/assign`, { userId: theirs.userId })).status).toBe(200)
    await addBlackout(
      t.deps,
      { email: bob.email },
      { from: '2030-05-02T12:00:00Z', to: '2030-05-02T16:00:00Z' },
    )
    const [late, senior, morning, blacked] = await games(p, leagueId, [
      // 22:30 UTC: within Ann's 120-minute buffer of the game she holds elsewhere (ends 21:30).
      { startsAt: '2030-05-01T22:30:00.000Z' },
      { startsAt: '2030-05-01T14:00:00.000Z', positions: [{ minLevel: 3 }] },
      // 2 May 01:00 UTC is still 1 May in New York: Ann's day is full with the senior game.
      { startsAt: '2030-05-02T01:00:00.000Z', positions: [{ minLevel: 3 }] },
      { startsAt: '2030-05-02T13:00:00.000Z' },
    ])
    const plan = (await p.post(`/leagues/${leagueId}/assignment-plans`, WINDOW)).body.data
    const proposed = Object.fromEntries(
      plan.proposals.map((x: { gameId: string; userId: string }) => [x.gameId, x.userId]),
    )
    // Ann's New York day of 1 May takes one of the two senior games; the other stays open.
    const [taken, left] = proposed[senior!.id] ? [senior!, morning!] : [morning!, senior!]
    expect(proposed).toEqual({ [late!.id]: bob.userId, [taken.id]: ann.userId, [blacked!.id]: ann.userId })
    const unfilled = plan.unfilled.map((u: { gameId: string; reasons: unknown }) => [u.gameId, u.reasons])
    expect(unfilled).toEqual([
      [
        left.id,
        [
          // Eligible alone, but the daily limit lets the plan give her one of the two.
          { code: 'planned_elsewhere', count: 1, userIds: [ann.userId] },
          { code: 'level_too_low', count: 1, userIds: [bob.userId] },
        ],
      ],
    ])
    const candidates = await p.get(`/games/${blacked!.id}/candidates`)
    // Towards a partner the person's time outside the league is one `unavailable`: a blackout and a game
    // elsewhere read alike (DESIGN "Consent").
    expect(candidates.body.data.find((c: { userId: string }) => c.userId === bob.userId).reasons).toEqual([
      'unavailable',
    ])
    const late2 = await p.get(`/games/${late!.id}/candidates`)
    const annThere = late2.body.data.find((c: { userId: string }) => c.userId === ann.userId)
    expect(annThere.reasons).toEqual(['unavailable'])
    expect(JSON.stringify(late2.body)).not.toContain(held!.id)
    const outcome = (await p.post(`/assignment-plans/${plan.id}/publish`)).body.data
    expect(outcome.skipped).toEqual([])
    expect(outcome.assigned).toHaveLength(3)
  })
})
