// The organizer's game page over HTTP: Assign (and "Assign anyway" after an overridable conflict, never after
// level_too_low), Unassign, Edit, Cancel game, Add and Remove position. Each writes the REST operation's
// event; another league's game answers Not found and changes nothing; a form without its token is refused.
import { describe, expect, it } from 'vitest'
import {
  eventsOf,
  seedGame,
  seedLeague,
  seedMembership,
  seedPosition,
  seedUser,
  uniqueEmail,
} from '../helpers/fixtures.js'
import { useWebApp } from './browser-like.js'

describe("the organizer's game page", () => {
  const t = useWebApp()

  /** Olga organizes Metro (New York time); Rita organizes Other. Sam and Ann officiate in Metro. */
  async function world() {
    const db = t.runtime.deps.db
    const olgaEmail = uniqueEmail('olga')
    const olga = await seedUser(db, { email: olgaEmail, name: 'Olga' })
    const metro = await seedLeague(db, { name: 'Metro Youth', organizerId: olga })
    await db.updateTable('leagues').set({ time_zone: 'America/New_York' }).where('id', '=', metro).execute()
    const ritaEmail = uniqueEmail('rita')
    const other = await seedLeague(db, { organizerId: await seedUser(db, { email: ritaEmail }) })
    const sam = await seedUser(db, { email: uniqueEmail('sam'), name: 'Sam Reed' })
    const ann = await seedUser(db, { email: uniqueEmail('ann'), name: 'Ann Lee' })
    await seedMembership(db, metro, sam)
    await seedMembership(db, metro, ann)
    const game = await seedGame(db, metro, {
      startsAt: '2030-01-05T15:00:00.000Z',
      positions: [{ label: 'Referee', payCents: 4000 }, { label: 'Line' }],
    })
    return { db, olgaEmail, metro, other, ritaEmail, sam, ann, game }
  }

  const notificationsOf = (db: typeof t.runtime.deps.db, kind: 'assigned' | 'unassigned') =>
    db.selectFrom('notifications').select(['user_id']).where('kind', '=', kind).execute()

  it('assigns an approved official, and unassigns them, with the REST events and mails', async () => {
    const { db, olgaEmail, metro, sam, game } = await world()
    const olga = await t.signIn(olgaEmail)
    const page = await olga.get(`/app/organize/games/${game.id}`)
    expect(page.status).toBe(200)
    expect(page.body).toContain(
      '<label for="official-' + game.positionIds[0] + '">Official for Referee</label>',
    )
    expect(page.body).toContain('Sam Reed')
    expect(page.body).toContain('Start (America/New_York)')
    expect(page.body).toContain('value="2030-01-05T10:00"')

    const assigned = await olga.post(`/app/organize/games/${game.id}/assign`, {
      userId: sam,
      positionId: game.positionIds[0]!,
    })
    expect([assigned.status, assigned.location]).toEqual([
      303,
      `/app/organize/games/${game.id}?notice=assigned`,
    ])
    expect((await olga.get(assigned.location!)).body).toContain('Assigned. The official is emailed the game.')
    expect((await eventsOf(db, metro)).map((e) => [e.event, e.data.positionId, e.data.official?.id])).toEqual(
      [['position.claimed', game.positionIds[0], sam]],
    )
    expect(await notificationsOf(db, 'assigned')).toEqual([{ user_id: sam }])

    const unassigned = await olga.post(
      `/app/organize/games/${game.id}/positions/${game.positionIds[0]}/unassign`,
    )
    expect(unassigned.location).toBe(`/app/organize/games/${game.id}?notice=unassigned`)
    expect((await eventsOf(db, metro)).map((e) => e.event)).toEqual(['position.claimed', 'position.released'])
    expect(await notificationsOf(db, 'unassigned')).toEqual([{ user_id: sam }])
    const again = await olga.post(`/app/organize/games/${game.id}/positions/${game.positionIds[0]}/unassign`)
    expect(again.location).toBe(`/app/organize/games/${game.id}?notice=not_claimed`)
  })

  it('offers Assign anyway after a conflict it may override, never after level_too_low', async () => {
    const { db, olgaEmail, metro, ann, game } = await world()
    await db.updateTable('positions').set({ min_level: 3 }).where('id', '=', game.positionIds[0]!).execute()
    const olga = await t.signIn(olgaEmail)
    await olga.get(`/app/organize/games/${game.id}`)
    const low = await olga.post(`/app/organize/games/${game.id}/assign`, {
      userId: ann,
      positionId: game.positionIds[0]!,
    })
    expect(low.location).toBe(
      `/app/organize/games/${game.id}?notice=level_too_low&official=${ann}&position=${game.positionIds[0]}`,
    )
    const refused = await olga.get(low.location!)
    expect(refused.body).toContain('level is below the minimum')
    expect(refused.body).not.toContain('Assign anyway')

    const line = game.positionIds[1]!
    // Ann already works a game at the same hour: a schedule conflict the organizer may override.
    await seedGame(db, metro, { startsAt: '2030-01-05T15:30:00.000Z', positions: [{ officialId: ann }] })
    await olga.get(`/app/organize/games/${game.id}`)
    const clash = await olga.post(`/app/organize/games/${game.id}/assign`, { userId: ann, positionId: line })
    expect(clash.location).toBe(
      `/app/organize/games/${game.id}?notice=schedule_conflict&official=${ann}&position=${line}`,
    )
    const conflict = await olga.get(clash.location!)
    expect(conflict.body).toContain('holds another game at this time')
    expect(conflict.body).toContain('Assign Ann Lee anyway?')
    expect(conflict.body).toContain('<input type="hidden" name="force" value="yes">')
    expect(await eventsOf(db, metro)).toEqual([])
    const forced = await olga.post(`/app/organize/games/${game.id}/assign`, {
      userId: ann,
      positionId: line,
      force: 'yes',
    })
    expect(forced.location).toBe(`/app/organize/games/${game.id}?notice=assigned`)
    expect((await eventsOf(db, metro)).map((e) => e.data.official.id)).toEqual([ann])

    const stranger = await seedUser(db)
    await olga.get(`/app/organize/games/${game.id}`)
    const unknown = await olga.post(`/app/organize/games/${game.id}/assign`, {
      userId: stranger,
      positionId: line,
    })
    expect(unknown.location).toContain('notice=not_official')
  })

  it('never offers Assign anyway for a second position of a game the official already works', async () => {
    const { db, olgaEmail, sam, game } = await world()
    const [referee, line] = game.positionIds as [string, string]
    const olga = await t.signIn(olgaEmail)
    await olga.get(`/app/organize/games/${game.id}`)
    await olga.post(`/app/organize/games/${game.id}/assign`, { userId: sam, positionId: referee })
    await olga.get(`/app/organize/games/${game.id}`)
    const second = await olga.post(`/app/organize/games/${game.id}/assign`, { userId: sam, positionId: line })
    expect(second.location).toContain('notice=schedule_conflict')
    const page = await olga.get(second.location!)
    expect(page.body).toContain('already holds a position of this game')
    expect(page.body).not.toContain('Assign Sam Reed anyway?')
    const forced = await olga.post(`/app/organize/games/${game.id}/assign`, {
      userId: sam,
      positionId: line,
      force: 'yes',
    })
    expect(forced.location).toContain('notice=schedule_conflict')
    const held = await db.selectFrom('claims').select('position_id').where('user_id', '=', sam).execute()
    expect(held).toEqual([{ position_id: referee }])
  })

  it('edits start (in the league’s time zone), duration and place; refuses a bad duration', async () => {
    const { db, olgaEmail, metro, game } = await world()
    const olga = await t.signIn(olgaEmail)
    await olga.get(`/app/organize/games/${game.id}`)
    const bad = await olga.post(`/app/organize/games/${game.id}/edit`, {
      start: '2030-01-05T10:00',
      duration: '5',
      location: 'Field 1',
    })
    expect(bad.location).toBe(`/app/organize/games/${game.id}?notice=invalid_duration`)
    const saved = await olga.post(`/app/organize/games/${game.id}/edit`, {
      start: '2030-01-06T11:30',
      duration: '75',
      location: 'Field 9',
    })
    expect(saved.location).toBe(`/app/organize/games/${game.id}?notice=saved`)
    const events = await eventsOf(db, metro)
    expect(events.map((e) => e.event)).toEqual(['game.updated'])
    expect(events[0]!.data).toMatchObject({
      startsAt: '2030-01-06T16:30:00.000Z',
      durationMinutes: 75,
      location: 'Field 9',
    })
    const impossible = await olga.post(`/app/organize/games/${game.id}/edit`, {
      start: '2030-02-30T10:00',
      duration: '75',
      location: 'Field 9',
    })
    expect(impossible.location).toBe(`/app/organize/games/${game.id}?notice=invalid_start`)
  })

  it('refuses an eleventh position with a sentence saying why', async () => {
    const { db, olgaEmail, game } = await world()
    for (let n = game.positionIds.length; n < 10; n++) await seedPosition(db, game.id)
    const olga = await t.signIn(olgaEmail)
    await olga.get(`/app/organize/games/${game.id}`)
    const eleventh = await olga.post(`/app/organize/games/${game.id}/positions`, {
      label: 'X',
      pay: '',
      minLevel: '',
    })
    expect(eleventh.location).toBe(`/app/organize/games/${game.id}?notice=too_many_positions`)
    expect((await olga.get(eleventh.location!)).body).toContain('Not added: a game has at most 10 positions.')
  })

  it('adds and removes positions (game.updated), keeps the last one, and cancels behind a confirmation', async () => {
    const { db, olgaEmail, metro, game } = await world()
    const olga = await t.signIn(olgaEmail)
    await olga.get(`/app/organize/games/${game.id}`)
    const added = await olga.post(`/app/organize/games/${game.id}/positions`, {
      label: 'Fourth',
      pay: '12.50',
      minLevel: '2',
    })
    expect(added.location).toBe(`/app/organize/games/${game.id}?notice=position_added`)
    const [event] = await eventsOf(db, metro)
    expect(event!.data.positions.at(-1)).toMatchObject({
      label: 'Fourth',
      payCents: 1250,
      minLevel: 2,
      status: 'open',
    })
    const badPay = await olga.post(`/app/organize/games/${game.id}/positions`, {
      label: 'X',
      pay: 'lots',
      minLevel: '',
    })
    expect(badPay.location).toBe(`/app/organize/games/${game.id}?notice=invalid_position`)

    for (const id of game.positionIds)
      await olga.post(`/app/organize/games/${game.id}/positions/${id}/remove`)
    const fourth = event!.data.positions.at(-1).id as string
    const last = await olga.post(`/app/organize/games/${game.id}/positions/${fourth}/remove`)
    expect(last.location).toBe(`/app/organize/games/${game.id}?notice=last_position`)
    expect((await eventsOf(db, metro)).map((e) => e.event)).toEqual([
      'game.updated',
      'game.updated',
      'game.updated',
    ])

    const confirm = await olga.get(`/app/organize/games/${game.id}/cancel`)
    expect(confirm.body).toContain('Cancel this game?')
    expect(confirm.body).toContain('open position is cancelled: nobody can take them')
    expect(confirm.body).toContain('<code>game.cancelled</code>')
    const cancelled = await olga.post(`/app/organize/games/${game.id}/cancel`)
    expect(cancelled.location).toBe(`/app/organize/games/${game.id}?notice=cancelled`)
    expect((await eventsOf(db, metro)).at(-1)!.event).toBe('game.cancelled')
    const after = await olga.get(cancelled.location!)
    expect(after.body).not.toContain('>Cancel game</button>')
    expect(after.body).not.toContain('>Add position</button>')
  })

  it("answers Not found for another league's game and refuses a form without its token", async () => {
    const { db, metro, ritaEmail, sam, game, olgaEmail } = await world()
    const rita = await t.signIn(ritaEmail)
    await rita.get('/app/organize')
    const p = game.positionIds[0]!
    expect((await rita.get(`/app/organize/games/${game.id}`)).status).toBe(404)
    expect((await rita.get(`/app/organize/games/${game.id}/cancel`)).status).toBe(404)
    for (const [url, fields] of [
      [`/app/organize/games/${game.id}/assign`, { userId: sam, positionId: p }],
      [`/app/organize/games/${game.id}/positions/${p}/unassign`, {}],
      [`/app/organize/games/${game.id}/positions/${p}/remove`, {}],
      [`/app/organize/games/${game.id}/positions`, { label: 'X', pay: '1' }],
      [`/app/organize/games/${game.id}/edit`, { start: '2030-01-06T11:30', duration: '90', location: 'X' }],
      [`/app/organize/games/${game.id}/cancel`, {}],
    ] as const) {
      expect((await rita.post(url, fields)).status, url).toBe(404)
    }
    expect((await rita.get('/app/organize/games/NOT-AN-ID')).status).toBe(404)

    const olga = await t.signIn(olgaEmail)
    await olga.get(`/app/organize/games/${game.id}`)
    const forged = await olga.post(`/app/organize/games/${game.id}/cancel`, { _csrf: 'forged' })
    expect(forged.status).toBe(403)
    expect(await eventsOf(db, metro)).toEqual([])
  })
})
