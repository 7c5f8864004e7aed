// The Officials tab over HTTP: Add official (official.joined, a user of the league's source), Level
// (official.approved for an approved official), and Deny behind a confirmation whose "Also release their
// upcoming games" releases each (position.released) and leaves started games alone. Another league's ids
// answer Not found; a form without its token is refused.
import { describe, expect, it } from 'vitest'
import { eventsOf, seedGame, seedLeague, seedMembership, seedUser, uniqueEmail } from '../helpers/fixtures.js'
import { useWebApp } from './browser-like.js'

const hoursAfter = (now: Date, h: number) => new Date(now.getTime() + h * 3_600_000).toISOString()

describe("the organizer's Officials tab", () => {
  const t = useWebApp()

  async function world() {
    const db = t.runtime.deps.db
    const olgaEmail = uniqueEmail('olga')
    const metro = await seedLeague(db, {
      organizerId: await seedUser(db, { email: olgaEmail }),
      source: 'acme',
    })
    const ritaEmail = uniqueEmail('rita')
    const other = await seedLeague(db, { organizerId: await seedUser(db, { email: ritaEmail }) })
    return { db, olgaEmail, metro, other, ritaEmail }
  }

  it('adds an official by email and sets their level', async () => {
    const { db, olgaEmail, metro } = await world()
    const olga = await t.signIn(olgaEmail)
    const tab = await olga.get(`/app/organize/leagues/${metro}/officials`)
    expect(tab.body).toContain('>Add official</button>')
    const email = uniqueEmail('nina')
    const added = await olga.post(`/app/organize/leagues/${metro}/officials`, {
      email: ` ${email.toUpperCase()} `,
      name: 'Nina Park',
      level: '3',
    })
    expect(added.location).toBe(`/app/organize/leagues/${metro}/officials?notice=added`)
    const [joined] = await eventsOf(db, metro)
    expect(joined).toMatchObject({
      event: 'official.joined',
      data: {
        official: {
          email,
          name: 'Nina Park',
          level: 3,
          status: 'approved',
          source: 'acme',
          externalId: null,
        },
      },
    })
    const nina = joined!.data.official.userId as string
    expect((await olga.get(added.location!)).body).toContain('Nina Park')

    const bad = await olga.post(`/app/organize/leagues/${metro}/officials`, {
      email: 'nope',
      name: '',
      level: '',
    })
    expect(bad.location).toBe(`/app/organize/leagues/${metro}/officials?notice=invalid_email`)
    const badLevel = await olga.post(`/app/organize/leagues/${metro}/officials/${nina}/level`, { level: '9' })
    expect(badLevel.location).toBe(`/app/organize/leagues/${metro}/officials?notice=invalid_level`)
    const self = await olga.post(`/app/organize/leagues/${metro}/officials`, {
      email: olgaEmail,
      name: '',
      level: '',
    })
    expect(self.location).toBe(`/app/organize/leagues/${metro}/officials?notice=is_organizer`)

    const level = await olga.post(`/app/organize/leagues/${metro}/officials/${nina}/level`, { level: '' })
    expect(level.location).toBe(`/app/organize/leagues/${metro}/officials?notice=level_set`)
    const events = await eventsOf(db, metro)
    expect(events.map((e) => [e.event, e.data.official.level])).toEqual([
      ['official.joined', 3],
      ['official.approved', null],
    ])
  })

  it('asks before Deny and releases their upcoming games only when asked', async () => {
    const { db, olgaEmail, metro } = await world()
    const sam = await seedUser(db, { email: uniqueEmail('sam'), name: 'Sam Reed' })
    await seedMembership(db, metro, sam)
    const started = await seedGame(db, metro, {
      startsAt: hoursAfter(t.now, -1),
      positions: [{ officialId: sam }],
    })
    const soon = await seedGame(db, metro, {
      startsAt: hoursAfter(t.now, 24),
      positions: [{ officialId: sam, label: 'Referee' }, {}],
    })
    const olga = await t.signIn(olgaEmail)
    await olga.get(`/app/organize/leagues/${metro}/officials`)
    const confirm = await olga.get(`/app/organize/leagues/${metro}/officials/${sam}/deny`)
    expect(confirm.body).toContain('Deny Sam Reed?')
    expect(confirm.body).toContain('They hold a position in upcoming games')
    expect(confirm.body).toContain('(Referee)')
    expect(confirm.body).toContain('Also release their upcoming games')
    const denied = await olga.post(`/app/organize/leagues/${metro}/officials/${sam}/deny`, { release: 'yes' })
    expect(denied.location).toBe(`/app/organize/leagues/${metro}/officials?notice=denied`)
    const events = await eventsOf(db, metro)
    expect(events.map((e) => [e.event, e.data.positionId, e.data.game.status])).toEqual([
      ['position.released', soon.positionIds[0], 'open'],
    ])
    const held = await db.selectFrom('claims').select('position_id').where('user_id', '=', sam).execute()
    expect(held).toEqual([{ position_id: started.positionIds[0] }])
    const mails = await db.selectFrom('notifications').select('kind').where('user_id', '=', sam).execute()
    expect(mails.map((m) => m.kind)).toContain('unassigned')
  })

  it("answers Not found for another league's officials and refuses a form without its token", async () => {
    const { db, olgaEmail, metro, other, ritaEmail } = await world()
    const sam = await seedUser(db, { email: uniqueEmail('sam') })
    await seedMembership(db, metro, sam)
    const rita = await t.signIn(ritaEmail)
    await rita.get(`/app/organize/leagues/${other}/officials`)
    expect((await rita.get(`/app/organize/leagues/${metro}/officials/${sam}/deny`)).status).toBe(404)
    expect((await rita.get(`/app/organize/leagues/${other}/officials/${sam}/deny`)).status).toBe(404)
    for (const [url, fields] of [
      [`/app/organize/leagues/${metro}/officials`, { email: uniqueEmail('x'), name: '', level: '' }],
      [`/app/organize/leagues/${metro}/officials/${sam}/level`, { level: '2' }],
      [`/app/organize/leagues/${metro}/officials/${sam}/deny`, { release: 'yes' }],
    ] as const) {
      expect((await rita.post(url, fields)).status, url).toBe(404)
    }
    const level = await rita.post(`/app/organize/leagues/${other}/officials/${sam}/level`, { level: '2' })
    expect(level.location).toBe(`/app/organize/leagues/${other}/officials?notice=not_a_member`)

    const olga = await t.signIn(olgaEmail)
    await olga.get(`/app/organize/leagues/${metro}/officials`)
    const forged = await olga.post(`/app/organize/leagues/${metro}/officials`, {
      _csrf: 'forged',
      email: uniqueEmail('y'),
    })
    expect(forged.status).toBe(403)
    expect(await eventsOf(db, metro)).toEqual([])
    expect(await eventsOf(db, other)).toEqual([])
  })
})
