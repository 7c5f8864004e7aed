// `refdesk app assign`: the organizer's assign from the console. The official is mailed (assigned), a game
// that has started may still be given (a substitute on the day), the level rule holds even with --force,
// and a user who is not an official of the league reads as unknown.
import { describe, expect, it } from 'vitest'
import { useCliDatabase } from '../helpers/cli.js'
import { eventsOf, seedGame, seedLeague, seedMembership, seedUser } from '../helpers/fixtures.js'

describe('refdesk app assign', () => {
  const t = useCliDatabase()

  it('assigns, mails the official, refuses level_too_low with --force and strangers as unknown', async () => {
    const db = (await t.runtime()).deps.db
    const league = await seedLeague(db)
    const official = await seedUser(db, { name: 'Ada' })
    await seedMembership(db, league, official)
    const started = await seedGame(db, league, {
      startsAt: '2020-05-01T18:00:00.000Z',
      positions: [{ label: 'Referee' }, { label: 'Line' }],
    })

    const assigned = await t.run('app', 'assign', started.id, official, '--position', started.positionIds[1]!)
    expect([assigned.code, assigned.stderr]).toEqual([0, ''])
    expect(JSON.parse(assigned.stdout)).toMatchObject({
      id: started.id,
      positions: [{ status: 'open' }, { status: 'claimed', official: { id: official, name: 'Ada' } }],
    })
    expect((await eventsOf(db, league)).map((e) => e.event)).toEqual(['position.claimed'])
    const mails = await db.selectFrom('notifications').select(['kind', 'user_id']).execute()
    expect(mails).toContainEqual({ kind: 'assigned', user_id: official })

    const stranger = await seedUser(db)
    const unknown = await t.run('app', 'assign', started.id, stranger)
    expect([unknown.code, JSON.parse(unknown.stderr)]).toEqual([1, { error: 'official_not_found' }])

    await db
      .updateTable('positions')
      .set({ min_level: 3 })
      .where('id', '=', started.positionIds[0]!)
      .execute()
    const low = await t.run('app', 'assign', started.id, official, '--force')
    expect([low.code, low.stdout, JSON.parse(low.stderr)]).toEqual([1, '', { error: 'level_too_low' }])
  }, 120_000) // four processes, on a loaded machine
})
