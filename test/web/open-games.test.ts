// Open games over HTTP: only the games the official can take, "Show games I can't take" with the rule's
// sentence (never the game that causes it), the filters, and a refused claim's notice.
import { describe, expect, it } from 'vitest'
import { addBlackout } from '../../src/domain/availability/availability.js'
import { seedGame, seedLeague, seedMembership, seedUser, uniqueEmail } from '../helpers/fixtures.js'
import { useWebApp } from './browser-like.js'

const hoursAfter = (now: Date, h: number) => new Date(now.getTime() + h * 3_600_000).toISOString()

describe('Open games', () => {
  const t = useWebApp()

  async function world() {
    const db = t.runtime.deps.db
    const metro = await seedLeague(db, { name: 'Metro Youth' })
    const north = await seedLeague(db, { name: 'North Hoops' })
    const elsewhere = await seedLeague(db, { name: 'Elsewhere' })
    const email = uniqueEmail('sam')
    const sam = await seedUser(db, { email })
    const samElsewhere = await seedUser(db, { email })
    await seedMembership(db, metro, sam)
    await seedMembership(db, north, sam)
    // Sam joined that league: a game there makes Sam busy in the others (DESIGN "Consent").
    await seedMembership(db, elsewhere, samElsewhere, { joined: true })
    const at = (h: number) => hoursAfter(t.now, h)
    // Held in another partner's league; the game of North at the same time clashes with it.
    await seedGame(db, elsewhere, { startsAt: at(26), positions: [{ officialId: samElsewhere }] })
    const clash = await seedGame(db, north, { startsAt: at(26) })
    const river = await seedGame(db, metro, { startsAt: at(50) })
    const gym = await seedGame(db, north, { startsAt: at(74) })
    const away = await seedGame(db, metro, { startsAt: at(98) })
    const senior = await seedGame(db, metro, { startsAt: at(122) })
    await db.updateTable('positions').set({ min_level: 3 }).where('game_id', '=', senior.id).execute()
    await db.updateTable('games').set({ location: 'Riverside Park' }).where('id', '=', river.id).execute()
    await db
      .updateTable('games')
      .set({ sport: 'basketball', location: 'Gym 2' })
      .where('id', '=', gym.id)
      .execute()
    await db
      .updateTable('games')
      .set({ location: 'Hidden Field' })
      .where('league_id', '=', elsewhere)
      .execute()
    await addBlackout(t.runtime.deps, { email }, { from: at(97), to: at(101) })
    return { email, metro, north, clash, river, gym, away, senior }
  }

  const ids = (body: string) => [...body.matchAll(/name="gameId" value="([^"]+)"/g)].map((m) => m[1])

  it('shows only what the official can take; the checkbox reveals the rest with the rule, naming nothing else', async () => {
    const w = await world()
    const visitor = await t.signIn(w.email)
    const page = (await visitor.get('/app/open')).body
    expect(ids(page)).toEqual([w.river.id, w.gym.id])
    const all = (await visitor.get('/app/open?all=1')).body
    expect(ids(all)).toEqual([w.river.id, w.gym.id])
    expect(all).toContain('Can’t take: You already have a game at that time')
    expect(all).toContain('Can’t take: You marked yourself unavailable at that time.')
    expect(all).toContain('Can’t take: That position needs a higher level than yours in this league.')
    expect(all).toMatch(/name="all" value="1" checked/)
    // The held game itself is not open, and no refusal names it.
    expect(all).not.toContain('Hidden Field')
    expect(all.match(/class="card"/g)).toHaveLength(5)
  })

  it('filters by league, dates (the last day included), sport and text in the location', async () => {
    const w = await world()
    const visitor = await t.signIn(w.email)
    const shown = async (query: string) => ids((await visitor.get(`/app/open?${query}`)).body)
    expect(await shown(`league=${w.north}`)).toEqual([w.gym.id])
    expect(await shown('sport=Basketball')).toEqual([w.gym.id])
    expect(await shown('place=river')).toEqual([w.river.id])
    expect(await shown('place=%25')).toEqual([])
    const day = (h: number) => hoursAfter(t.now, h).slice(0, 10)
    expect(await shown(`from=${day(50)}&to=${day(50)}`)).toEqual([w.river.id])
    expect(await shown(`from=${day(74)}`)).toEqual([w.gym.id])
    expect(await shown(`league=${w.metro}&all=1&place=park`)).toEqual([w.river.id])
    // Malformed filters read as absent.
    expect(await shown('from=tomorrow&league=%3Cx%3E')).toEqual([w.river.id, w.gym.id])
  })

  it('a claim the rules refuse comes back as a plain sentence naming the rule', async () => {
    const w = await world()
    const visitor = await t.signIn(w.email)
    await visitor.get('/app/open?all=1')
    const refused = await visitor.post('/app/claim', {
      gameId: w.clash.id,
      positionId: w.clash.positionIds[0]!,
    })
    expect([refused.status, refused.location]).toEqual([303, '/app/open?notice=schedule_conflict'])
    const page = (await visitor.get(refused.location!)).body
    expect(page).toContain('You already have a game at that time, or too close to it to travel between them.')
    expect(page).not.toContain('Hidden Field')
  })
})
