// Issue 21, item 2: `refdesk app claim` refuses a game that has started, as the app does, with the
// refusal every other `refdesk app` action uses; a game yet to start is still claimed.
import { describe, expect, it } from 'vitest'
import { useCliDatabase } from '../helpers/cli.js'
import { eventsOf, seedGame, seedLeague, seedMembership, seedUser } from '../helpers/fixtures.js'

describe('refdesk app claim of a started game', () => {
  const t = useCliDatabase()

  it('prints {"error":"game_started"}, exits 1 and leaves the position open', async () => {
    const db = (await t.runtime()).deps.db
    const league = await seedLeague(db)
    const official = await seedUser(db)
    await seedMembership(db, league, official)
    const started = await seedGame(db, league, { startsAt: '2020-05-01T18:00:00.000Z' })
    const upcoming = await seedGame(db, league, { startsAt: '2099-05-01T18:00:00.000Z' })

    const refused = await t.run('app', 'claim', started.id, official)
    expect(refused).toMatchObject({ code: 1, stdout: '' })
    expect(JSON.parse(refused.stderr)).toEqual({ error: 'game_started' })
    const withPosition = await t.run(
      'app',
      'claim',
      started.id,
      official,
      '--position',
      started.positionIds[0]!,
    )
    expect(JSON.parse(withPosition.stderr)).toEqual({ error: 'game_started' })
    const position = await db
      .selectFrom('positions')
      .select('status')
      .where('id', '=', started.positionIds[0]!)
      .executeTakeFirstOrThrow()
    expect(position.status).toBe('open')

    const claimed = await t.run('app', 'claim', upcoming.id, official)
    expect([claimed.code, claimed.stderr]).toEqual([0, ''])
    expect((await eventsOf(db, league)).map((e) => e.data.game.id)).toEqual([upcoming.id])
  }, 120_000) // three processes, on a loaded machine
})
