// Issue 24's "Done means", as a new user would try it: an official in two partners' leagues sets a blackout
// and subscribes their other assigning site's calendar (served locally), then sees Open games hide what
// they can't take; the partner whose league refuses conflicts gets 409 schedule_conflict naming nothing
// of the other league, and reads the official's busy intervals with no detail.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { issueKey } from '../../src/domain/partners/api-keys.js'
import { addBlackout, addBusyCalendar } from '../../src/domain/availability/availability.js'
import { parseAllowPrivate } from '../../src/net/address-guard.js'
import { guardedGetter } from '../../src/net/guarded-get.js'
import { clientFor, uniqueSource } from '../helpers/app.js'
import { joinLeagueAs, uniqueEmail } from '../helpers/fixtures.js'
import { ics, startIcsServer, TEST_CA, type IcsServer } from '../helpers/ics-server.js'
import { useWebApp } from './browser-like.js'

describe('an official in two partners’ leagues', () => {
  const t = useWebApp()
  let site: IcsServer
  beforeEach(async () => {
    site = await startIcsServer()
  })
  afterEach(async () => {
    await site.close()
  })

  async function partner() {
    const issued = await issueKey(t.runtime.deps, { source: uniqueSource() })
    return clientFor(t.app, `Bearer ${issued.key}`)
  }

  it('blackout and busy calendar hide games, the refusing partner learns only the rule', async () => {
    const email = uniqueEmail('jo')
    const a = await partner()
    const b = await partner()
    const leagueA = (await a.post('/leagues', { name: 'Valley Youth' })).body.data.id
    const leagueB = (await b.post('/leagues', { name: 'City Hoops', conflictPolicy: 'refuse' })).body.data.id
    const inA = (await a.post(`/leagues/${leagueA}/officials`, { externalId: 'jo', email })).body.data.userId
    const inB = (await b.post(`/leagues/${leagueB}/officials`, { externalId: 'jo', email })).body.data.userId
    // Jo joined both leagues: only then does one league see Jo's time and games elsewhere (DESIGN "Consent").
    await joinLeagueAs(t.runtime.deps, leagueA, email)
    await joinLeagueAs(t.runtime.deps, leagueB, email)
    const game = async (p: typeof a, leagueId: string, startsAt: string, location: string) =>
      (await p.post(`/leagues/${leagueId}/games`, { games: [{ startsAt, location }] })).body.data.created[0]
    const held = await game(a, leagueA, '2030-01-05T18:00:00.000Z', 'Valley Park')
    expect((await a.post(`/games/${held.id}/assign`, { userId: inA })).status).toBe(200)

    await addBlackout(t.runtime.deps, { email }, { from: '2030-01-06', to: '2030-01-06' })
    site.answers.set('/busy.ics', {
      ics: ics(['DTSTART:20300107T170000Z', 'DTEND:20300107T200000Z', 'SUMMARY:Other site game']),
    })
    const readCalendar = guardedGetter({
      policy: parseAllowPrivate('127.0.0.1'),
      timeoutMs: 2000,
      maxBytes: 1 << 20,
      ca: TEST_CA,
    })
    await addBusyCalendar({ ...t.runtime.deps, readCalendar }, { email }, { url: `${site.origin}/busy.ics` })

    const clash = await game(b, leagueB, '2030-01-05T18:30:00.000Z', 'Gym A')
    const blackedOut = await game(b, leagueB, '2030-01-06T18:00:00.000Z', 'Gym B')
    const busyElsewhere = await game(b, leagueB, '2030-01-07T18:00:00.000Z', 'Gym C')
    const free = await game(b, leagueB, '2030-01-08T18:00:00.000Z', 'Gym D')

    const visitor = await t.signIn(email)
    const open = (await visitor.get(`/app/open?league=${leagueB}`)).body
    const shown = (body: string) => [...body.matchAll(/name="gameId" value="([^"]+)"/g)].map((m) => m[1])
    expect(shown(open)).toEqual([free.id])
    const all = (await visitor.get(`/app/open?league=${leagueB}&all=1`)).body
    for (const g of [clash, blackedOut, busyElsewhere]) expect(all).toContain(g.location)
    expect(all).toContain('You already have a game at that time')
    expect(all.match(/You marked yourself unavailable at that time\./g)).toHaveLength(2)
    expect(all).not.toContain('Other site game')

    const refused = await b.post(`/games/${clash.id}/assign`, { userId: inB })
    expect(refused).toMatchObject({ status: 409, body: { error: 'schedule_conflict' } })
    expect(refused.body).toEqual({ error: 'schedule_conflict' })
    expect((await b.post(`/games/${free.id}/assign`, { userId: inB })).status).toBe(200)

    const busy = await b.get(
      `/leagues/${leagueB}/officials/${inB}/availability?from=2030-01-05T00:00:00Z&to=2030-01-09T00:00:00Z`,
    )
    expect(busy.body.data).toEqual([
      { startsAt: '2030-01-05T18:00:00.000Z', endsAt: '2030-01-05T19:30:00.000Z' },
      { startsAt: '2030-01-06T00:00:00.000Z', endsAt: '2030-01-07T00:00:00.000Z' },
      { startsAt: '2030-01-07T17:00:00.000Z', endsAt: '2030-01-07T20:00:00.000Z' },
      { startsAt: '2030-01-08T18:00:00.000Z', endsAt: '2030-01-08T19:30:00.000Z' },
    ])
    expect(JSON.stringify(busy.body)).not.toMatch(new RegExp(`${held.id}|Valley|Other site`))
  })
})
