// Issue 21, item 2: a game that has started can no longer be claimed in the app (`POST /app/claim`), even by
// an approved official whose form was loaded before the kick-off; the page says why, and nothing is written.
import { describe, expect, it } from 'vitest'
import { eventsOf, seedGame, seedLeague, seedMembership, seedUser, uniqueEmail } from '../helpers/fixtures.js'
import { useWebApp } from './browser-like.js'

describe('claiming a game that has started', () => {
  const t = useWebApp()

  it('is refused with a plain sentence on Open games, the position stays open and no event is recorded', async () => {
    const db = t.runtime.deps.db
    const league = await seedLeague(db, { name: 'Metro Youth' })
    const email = uniqueEmail('sam')
    await seedMembership(db, league, await seedUser(db, { email }))
    const startsAt = new Date(t.now.getTime() + 3_600_000)
    const game = await seedGame(db, league, { startsAt: startsAt.toISOString() })
    const visitor = await t.signIn(email)
    expect((await visitor.get('/app/open')).body).toContain('Metro Youth')

    // The page was open before kick-off; the claim arrives at kick-off, then after it.
    for (const late of [0, 60_000]) {
      t.now = new Date(startsAt.getTime() + late)
      const claim = await visitor.post('/app/claim', { gameId: game.id, positionId: game.positionIds[0]! })
      expect([claim.status, claim.location]).toEqual([303, '/app/open?notice=started'])
    }
    const page = await visitor.get('/app/open?notice=started')
    expect(page.body).toContain('That game has already started: it can no longer be claimed.')

    const position = await db
      .selectFrom('positions')
      .select('status')
      .where('id', '=', game.positionIds[0]!)
      .executeTakeFirstOrThrow()
    expect(position.status).toBe('open')
    expect(
      await db.selectFrom('claims').select('id').where('position_id', '=', game.positionIds[0]!).execute(),
    ).toEqual([])
    expect(await eventsOf(db, league)).toEqual([])
  })

  it('a claim a moment before kick-off still works', async () => {
    const db = t.runtime.deps.db
    const league = await seedLeague(db)
    const email = uniqueEmail('ann')
    await seedMembership(db, league, await seedUser(db, { email }))
    const startsAt = new Date(t.now.getTime() + 3_600_000)
    const game = await seedGame(db, league, { startsAt: startsAt.toISOString() })
    const visitor = await t.signIn(email)
    await visitor.get('/app/open')
    t.now = new Date(startsAt.getTime() - 1)
    const claim = await visitor.post('/app/claim', { gameId: game.id, positionId: game.positionIds[0]! })
    expect(claim.location).toBe('/app/?notice=claimed')
  })
})
