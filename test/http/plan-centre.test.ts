// Issue 36 item 5: the centre first (a game's lead before its lines, among plans with the most positions)
// and site-aware travel (no buffer between games at one place), through REST, as a new user's weekend.
import { describe, expect, it } from 'vitest'
import { useTestApp, type Partner } from '../helpers/app.js'
import { joinLeagueAs, uniqueEmail } from '../helpers/fixtures.js'

const WINDOW = { from: '2030-06-01T00:00:00.000Z', to: '2030-06-03T00:00:00.000Z' }
const CREW = [
  { label: 'Referee', minLevel: 3 },
  { label: 'AR1', minLevel: 1 },
  { label: 'AR2', minLevel: 1 },
]

interface Proposal {
  gameId: string
  positionId: string
  userId: string
  label: string
}

describe('plans put the centre first and read travel by place', () => {
  const t = useTestApp()

  async function setup(p: Partner, settings: object) {
    const res = await p.post('/leagues', { name: 'Weekend', gameMinutes: 90, ...settings })
    expect(res.status).toBe(201)
    return res.body.data.id as string
  }

  async function official(p: Partner, leagueId: string, name: string, level: number) {
    const body = { externalId: name, name, email: uniqueEmail(name.toLowerCase()), level }
    const res = await p.post(`/leagues/${leagueId}/officials`, body)
    expect(res.status).toBe(201)
    return res.body.data.userId as string
  }

  async function games(p: Partner, leagueId: string, items: object[]) {
    const res = await p.post(`/leagues/${leagueId}/games`, { games: items })
    expect(res.status).toBe(201)
    return res.body.data.created as { id: string; venue: string | null; positions: { id: string }[] }[]
  }

  it('fills every Referee that can be filled, with as many positions, and publishes it whole', async () => {
    const p = await t.partner()
    const leagueId = await setup(p, { travelBufferMinutes: 30 })
    const seniors = [await official(p, leagueId, 'Sam', 4), await official(p, leagueId, 'Sue', 4)]
    for (const name of ['Jo', 'Jay']) await official(p, leagueId, name, 1)
    // Two games at 10:00 and one at 13:00 each day: at 10:00 four officials for six positions. A senior
    // on a line earns more level margin than on the Referee, so preferences alone put both seniors on
    // the lines and leave both Referees open, with the same four positions filled.
    const slots = ['01T10', '01T10', '01T13', '02T10', '02T10', '02T13']
    const created = await games(
      p,
      leagueId,
      slots.map((s, i) => ({ startsAt: `2030-06-${s}:00:00.000Z`, location: `Field ${i}`, positions: CREW })),
    )
    const res = await p.post(`/leagues/${leagueId}/assignment-plans`, WINDOW)
    expect(res.status).toBe(201)
    const plan = res.body.data
    expect(plan.stats).toMatchObject({ positions: 18, filled: 14, leads: 6, leadsFilled: 6, optimal: true })
    const referees = plan.proposals.filter((x: Proposal) => x.label === 'Referee')
    expect(referees.map((x: Proposal) => x.gameId).sort()).toEqual(created.map((g) => g.id).sort())
    for (const x of referees) expect(seniors).toContain(x.userId)
    const publish = await p.post(`/assignment-plans/${plan.id}/publish`, {})
    expect(publish.body.data.skipped).toEqual([])
  })

  it('a cancelled Referee hands the lead to the next position of the crew', async () => {
    const p = await t.partner()
    const leagueId = await setup(p, { travelBufferMinutes: 30 })
    const senior = await official(p, leagueId, 'Sam', 4)
    await official(p, leagueId, 'Jo', 1)
    const [g] = await games(p, leagueId, [
      {
        startsAt: '2030-06-01T10:00:00.000Z',
        positions: [{ label: 'Referee', minLevel: 3 }, { label: 'Centre', minLevel: 3 }, { label: 'AR1' }],
      },
    ])
    const referee = g!.positions[0]!.id
    expect((await p.delete(`/games/${g!.id}/positions/${referee}`)).status).toBe(200)
    const plan = (await p.post(`/leagues/${leagueId}/assignment-plans`, WINDOW)).body.data
    expect(plan.stats).toMatchObject({ positions: 2, filled: 2, leads: 1, leadsFilled: 1 })
    const centre = plan.proposals.find((x: Proposal) => x.label === 'Centre')
    expect(centre.userId).toBe(senior)
  })

  it('keeps no buffer between games at one venue, or one location without venues, and keeps it elsewhere', async () => {
    const p = await t.partner()
    const leagueId = await setup(p, { travelBufferMinutes: 60 })
    const ann = await official(p, leagueId, 'Ann', 2)
    const annEmail = (
      await t.deps.db.selectFrom('users').select('email').where('id', '=', ann).executeTakeFirstOrThrow()
    ).email
    await joinLeagueAs(t.deps, leagueId, annEmail)
    // Back to back (10:00–11:30, 11:30–13:00): at one complex, on one field, and across town.
    const made = await games(p, leagueId, [
      { startsAt: '2030-06-01T10:00:00.000Z', location: 'Field 1', venue: 'Riverside' },
      { startsAt: '2030-06-01T11:30:00.000Z', location: 'Field 2', venue: 'Riverside' },
      { startsAt: '2030-06-02T10:00:00.000Z', location: 'Oak Park' },
      { startsAt: '2030-06-02T11:30:00.000Z', location: 'Oak Park' },
      { startsAt: '2030-06-02T15:00:00.000Z', location: 'Field 1', venue: 'Riverside' },
      { startsAt: '2030-06-02T16:30:00.000Z', location: 'Field 1' },
    ])
    expect(made.map((g) => g.venue)).toEqual(['Riverside', 'Riverside', null, null, 'Riverside', null])
    const plan = (await p.post(`/leagues/${leagueId}/assignment-plans`, WINDOW)).body.data
    const proposed = plan.proposals.map((x: Proposal) => x.gameId)
    // The last two share a location, but one has a venue: they are different places, 60 minutes apply.
    expect(plan.stats).toMatchObject({ positions: 6, filled: 5 })
    expect(proposed).toEqual(expect.arrayContaining(made.slice(0, 4).map((g) => g.id)))
    expect(plan.unfilled[0].reasons).toEqual([{ code: 'planned_elsewhere', count: 1, userIds: [ann] }])
    // Publishing checks the rules again, held games included: nothing is skipped.
    const publish = await p.post(`/assignment-plans/${plan.id}/publish`, {})
    expect(publish.body.data.skipped).toEqual([])
    // Held, the games at one place leave the other open to her; across places the buffer refuses.
    const [next] = await games(p, leagueId, [
      { startsAt: '2030-06-01T13:00:00.000Z', location: 'Field 3', venue: 'Riverside' },
    ])
    const [away] = await games(p, leagueId, [
      { startsAt: '2030-06-01T13:00:00.000Z', location: 'Elm Street' },
    ])
    expect((await p.post(`/games/${next!.id}/assign`, { userId: ann })).status).toBe(200)
    // She has joined: towards her own league the rules' codes are shown (consent).
    const refused = await p.get(`/games/${away!.id}/candidates`)
    expect(refused.body.data[0]).toMatchObject({ userId: ann, reasons: ['schedule_conflict'] })
  })

  it('takes venue on game items, rewrites it only on an upsert that carries it, and refuses a bad one', async () => {
    const p = await t.partner()
    const leagueId = await setup(p, {})
    const item = { externalId: 'g1', startsAt: '2030-06-01T10:00:00.000Z', venue: 'Riverside' }
    const [g] = await games(p, leagueId, [item])
    expect(g!.venue).toBe('Riverside')
    const { venue: _venue, ...without } = item
    await p.post(`/leagues/${leagueId}/games`, { games: [{ ...without, location: 'Field 4' }] })
    expect((await p.get(`/games/${g!.id}`)).body.data).toMatchObject({
      location: 'Field 4',
      venue: 'Riverside',
    })
    await p.post(`/leagues/${leagueId}/games`, { games: [{ ...item, venue: null }] })
    expect((await p.get(`/games/${g!.id}`)).body.data.venue).toBeNull()
    for (const venue of ['x'.repeat(121), 42, '\u0000']) {
      const res = await p.post(`/leagues/${leagueId}/games`, { games: [{ ...item, venue }] })
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ error: 'invalid_venue' })
    }
  })
})
