// Issue 22, item 5: a league's pages show its times in the league's zone, whoever looks; an official who has
// not chosen a zone sees their first league's, not UTC, until they choose one (a home point is no choice).
import { describe, expect, it } from 'vitest'
import { setHomePoint } from '../../src/domain/people/profiles.js'
import { seedGame, seedLeague, seedMembership, seedUser, uniqueEmail } from '../helpers/fixtures.js'
import { useWebApp } from './browser-like.js'

describe('time zones in the app', () => {
  const t = useWebApp()

  async function world() {
    const db = t.runtime.deps.db
    const zoned = async (name: string, timeZone: string, organizerId: string) => {
      const id = await seedLeague(db, { name, organizerId })
      await db.updateTable('leagues').set({ time_zone: timeZone }).where('id', '=', id).execute()
      return id
    }
    const olgaEmail = uniqueEmail('olga')
    const olga = await seedUser(db, { email: olgaEmail, name: 'Olga' })
    const pacific = await zoned('Pacific Youth', 'America/Los_Angeles', olga)
    const eastern = await zoned('Eastern Cup', 'America/New_York', olga)
    const samEmail = uniqueEmail('sam')
    const sam = await seedUser(db, { email: samEmail, name: 'Sam' })
    await seedMembership(db, pacific, sam)
    await seedMembership(db, eastern, sam)
    // 02:00 UTC on Jan 2 is 6 PM on Jan 1 in Los Angeles.
    const game = await seedGame(db, pacific, {
      startsAt: '2030-01-02T02:00:00.000Z',
      positions: [{ officialId: sam }],
    })
    return { olgaEmail, samEmail, pacific, eastern, game }
  }

  const zoneLine = (body: string) => /<p class="zone">([^<]*?)(?: · <a|<\/p>)/.exec(body)?.[1]
  const selectedZone = (body: string) => /<option selected>([^<]+)<\/option>/.exec(body)?.[1]

  it('organizer pages show the league’s times in its zone, and filter by its days, whatever the organizer chose', async () => {
    const { olgaEmail, pacific, eastern, game } = await world()
    const olga = await t.signIn(olgaEmail)
    await olga.get('/app/profile')
    expect((await olga.post('/app/profile', { timeZone: 'Europe/Berlin' })).status).toBe(303)

    const page = (await olga.get(`/app/organize/leagues/${pacific}`)).body
    expect(zoneLine(page)).toBe('Paid offline · USD · times in America/Los_Angeles')
    expect(page).toContain('>6:00 PM PST</time>')
    expect(page).toContain('Tuesday, January 1, 2030')
    // The league's January 1 holds the game; its January 2 does not (it is January 2 in Berlin and UTC).
    const day = async (d: string) =>
      (await olga.get(`/app/organize/leagues/${pacific}?from=${d}&to=${d}`)).body.includes(
        `/app/organize/games/${game.id}`,
      )
    expect([await day('2030-01-01'), await day('2030-01-02')]).toEqual([true, false])
    expect(zoneLine((await olga.get(`/app/organize/leagues/${eastern}`)).body)).toBe(
      'Paid offline · USD · times in America/New_York',
    )
    expect((await olga.get(`/app/organize/games/${game.id}`)).body).toContain(
      `<time datetime="2030-01-02T02:00:00.000Z">Tue, Jan 1, 2030, 6:00 PM PST</time>`,
    )
    expect(zoneLine((await olga.get(`/app/organize/leagues/${pacific}/payouts`)).body)).toBe(
      'Paid offline · USD · times in America/Los_Angeles',
    )
    // Her own pages keep her choice.
    expect(selectedZone((await olga.get('/app/profile')).body)).toBe('Europe/Berlin')
  })

  it('an official who chose no zone sees their first league’s, a home point changes nothing, a choice wins', async () => {
    const { samEmail } = await world()
    const sam = await t.signIn(samEmail)
    const schedule = async () => (await sam.get('/app/')).body
    expect(zoneLine(await schedule())).toBe('Times in America/Los_Angeles')
    expect(await schedule()).toContain('Tue, Jan 1, 2030, 6:00 PM PST')
    expect(selectedZone((await sam.get('/app/profile')).body)).toBe('America/Los_Angeles')

    await setHomePoint(t.runtime.deps, { email: samEmail }, { latitude: 45.5, longitude: -122.6 })
    expect(zoneLine(await schedule())).toBe('Times in America/Los_Angeles')

    await sam.get('/app/profile')
    expect((await sam.post('/app/profile', { timeZone: 'UTC' })).status).toBe(303)
    expect(zoneLine(await schedule())).toBe('Times in UTC')
    expect(await schedule()).toContain('Wed, Jan 2, 2030, 2:00 AM UTC')
  })

  it('a person in no league yet sees UTC', async () => {
    const email = uniqueEmail('newcomer')
    await seedUser(t.runtime.deps.db, { email })
    const visitor = await t.signIn(email)
    expect(zoneLine((await visitor.get('/app/')).body)).toBe('Times in UTC')
  })
})
