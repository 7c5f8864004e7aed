// Consent across leagues (DESIGN "Consent", issue 36 item 1): what one partner's league learns of a person
// it added, before and after the person joins it. Each test reproduces a finding of the review: busy time
// read at another partner, a game told from a blackout, a home trilaterated from distanceKm, an assign
// under `refuse` used as an oracle, a person blocked elsewhere by another partner's assign.
import { describe, expect, it } from 'vitest'
import { addBlackout } from '../../src/domain/availability/availability.js'
import { setHomePoint } from '../../src/domain/people/profiles.js'
import { useTestApp, type Partner } from '../helpers/app.js'
import { joinLeagueAs, uniqueEmail } from '../helpers/fixtures.js'

const SIX = '2030-05-01T18:00:00.000Z'
const RANGE = '?from=2030-05-01T00:00:00Z&to=2030-05-03T00:00:00Z'

describe('consent across leagues', () => {
  const t = useTestApp()

  async function league(p: Partner, settings: object = {}) {
    const res = await p.post('/leagues', { name: 'L', ...settings })
    expect(res.status).toBe(201)
    return res.body.data.id as string
  }

  async function official(p: Partner, leagueId: string, email: string, extra: object = {}) {
    const res = await p.post(`/leagues/${leagueId}/officials`, { externalId: email, email, ...extra })
    expect(res.status).toBe(201)
    return res.body.data as { userId: string; confirmed: boolean; status: string }
  }

  async function game(p: Partner, leagueId: string, startsAt: string, item: object = {}) {
    const res = await p.post(`/leagues/${leagueId}/games`, { games: [{ startsAt, ...item }] })
    expect(res.status).toBe(201)
    return res.body.data.created[0] as { id: string; positions: { id: string }[] }
  }

  /** A person held at 18:00 in partner A's league and blacked out on 2 May, added to partner B's league. */
  async function world(settingsB: object = {}) {
    const email = uniqueEmail('pat')
    const a = await t.partner()
    const b = await t.partner()
    const leagueA = await league(a, { gameMinutes: 60 })
    const leagueB = await league(b, settingsB)
    const inA = await official(a, leagueA, email)
    const held = await game(a, leagueA, SIX, { location: 'Secret Park' })
    expect((await a.post(`/games/${held.id}/assign`, { userId: inA.userId })).status).toBe(200)
    await addBlackout(t.deps, { email }, { from: '2030-05-02T09:00:00.000Z', to: '2030-05-02T11:00:00.000Z' })
    const inB = await official(b, leagueB, email)
    return { email, a, b, leagueA, leagueB, inA, inB, held }
  }

  it('adds an official unconfirmed; joining confirms every membership named, the status unchanged', async () => {
    const p = await t.partner()
    const leagueId = await league(p)
    const ann = uniqueEmail('ann')
    const bo = uniqueEmail('bo')
    expect(await official(p, leagueId, ann, { status: 'pending' })).toMatchObject({ confirmed: false })
    await official(p, leagueId, bo)
    await joinLeagueAs(t.deps, leagueId, ann, bo)
    const listed = (await p.get(`/leagues/${leagueId}/officials`)).body.data
    expect(listed.map((o: { status: string; confirmed: boolean }) => [o.status, o.confirmed])).toEqual([
      ['pending', true],
      ['approved', true],
    ])
    // A partner's re-post keeps the join.
    expect(await official(p, leagueId, ann)).toMatchObject({ confirmed: true, status: 'approved' })
    // Someone with no membership of the league cannot join it: nothing written for anyone.
    const other = await league(p)
    await expect(joinLeagueAs(t.deps, other, ann)).rejects.toMatchObject({ code: 'league_not_found' })
  })

  it('the availability endpoint lists only the league’s own holds until the person joins it', async () => {
    const { email, b, leagueA, leagueB, inB } = await world()
    const own = await game(b, leagueB, '2030-05-02T15:00:00.000Z')
    expect((await b.post(`/games/${own.id}/assign`, { userId: inB.userId })).status).toBe(200)
    const busy = async () =>
      (await b.get(`/leagues/${leagueB}/officials/${inB.userId}/availability${RANGE}`)).body.data
    const ownGame = { startsAt: '2030-05-02T15:00:00.000Z', endsAt: '2030-05-02T16:30:00.000Z' }
    const blackout = { startsAt: '2030-05-02T09:00:00.000Z', endsAt: '2030-05-02T11:00:00.000Z' }
    expect(await busy()).toEqual([ownGame])
    // Joined B, not A: the blackout shows, A's game does not.
    await joinLeagueAs(t.deps, leagueB, email)
    expect(await busy()).toEqual([blackout, ownGame])
    await joinLeagueAs(t.deps, leagueA, email)
    expect(await busy()).toEqual([{ startsAt: SIX, endsAt: '2030-05-01T19:00:00.000Z' }, blackout, ownGame])
  })

  it('candidates: unconfirmed alone before the join; after it one `unavailable` for a game or a blackout, whole km', async () => {
    const { email, b, leagueA, leagueB, inB } = await world()
    await setHomePoint(t.deps, { email }, { latitude: 52.5, longitude: 13.4 })
    const clash = await game(b, leagueB, '2030-05-01T18:30:00.000Z')
    const blacked = await game(b, leagueB, '2030-05-02T09:30:00.000Z')
    const placed = await game(b, leagueB, '2030-05-03T09:30:00.000Z')
    await t.deps.db.updateTable('games').set({ latitude: 52.52, longitude: 13.405 }).execute()
    const candidate = async (gameId: string) =>
      (await b.get(`/games/${gameId}/candidates`)).body.data.find(
        (c: { userId: string }) => c.userId === inB.userId,
      )
    for (const g of [clash, blacked, placed])
      expect(await candidate(g.id)).toMatchObject({ reasons: ['unconfirmed'], distanceKm: null })
    await joinLeagueAs(t.deps, leagueB, email)
    await joinLeagueAs(t.deps, leagueA, email)
    expect(await candidate(clash.id)).toMatchObject({ eligible: false, reasons: ['unavailable'] })
    expect(await candidate(blacked.id)).toMatchObject({ eligible: false, reasons: ['unavailable'] })
    // 2.27 km away: told as 2, not to the 100 m that three games would trilaterate.
    expect(await candidate(placed.id)).toMatchObject({ eligible: true, reasons: [], distanceKm: 2 })
  })

  it('an assign under refuse towards a league not joined weighs only its own games: no oracle', async () => {
    const { b, leagueB, inB } = await world({ conflictPolicy: 'refuse' })
    const clash = await game(b, leagueB, '2030-05-01T18:30:00.000Z', { positions: [{}, {}] })
    const blacked = await game(b, leagueB, '2030-05-02T09:30:00.000Z')
    const assign = (gameId: string) => b.post(`/games/${gameId}/assign`, { userId: inB.userId })
    expect((await assign(blacked.id)).status).toBe(200)
    expect((await assign(clash.id)).status).toBe(200)
    // Its own games still count inside it.
    expect((await assign(clash.id)).body).toEqual({ error: 'schedule_conflict' })
  })

  it('games in a league the person has not joined do not make them busy in one they joined', async () => {
    const { email, b, leagueB, inB } = await world({ conflictPolicy: 'refuse' })
    await joinLeagueAs(t.deps, leagueB, email)
    const same = await game(b, leagueB, SIX)
    expect((await b.post(`/games/${same.id}/assign`, { userId: inB.userId })).status).toBe(200)
  })

  it('a plan judges a person who has not joined by the league’s own games and rules alone', async () => {
    const { b, leagueB, inB } = await world()
    await game(b, leagueB, '2030-05-02T09:30:00.000Z')
    const plan = await b.post(`/leagues/${leagueB}/assignment-plans`, {
      from: '2030-05-02T00:00:00.000Z',
      to: '2030-05-03T00:00:00.000Z',
    })
    expect(plan.status).toBe(201)
    expect(plan.body.data.proposals.map((p: { userId: string }) => p.userId)).toEqual([inB.userId])
  })

  it('a plan tells its partner one `unavailable` for a blackout or a game elsewhere, never which', async () => {
    const { email, b, leagueA, leagueB } = await world()
    await joinLeagueAs(t.deps, leagueB, email)
    await joinLeagueAs(t.deps, leagueA, email)
    await game(b, leagueB, '2030-05-01T18:30:00.000Z')
    await game(b, leagueB, '2030-05-02T09:30:00.000Z')
    const plan = await b.post(`/leagues/${leagueB}/assignment-plans`, {
      from: '2030-05-01T00:00:00.000Z',
      to: '2030-05-03T00:00:00.000Z',
    })
    expect(plan.status).toBe(201)
    const codes = plan.body.data.unfilled.map((u: { reasons: { code: string }[] }) =>
      u.reasons.map((r) => r.code),
    )
    expect(codes).toEqual([['unavailable'], ['unavailable']])
  })
})
