// Issue 25: the organizer sees a turnback on the league page. A position its official withdrew from shows
// who gave it back, until anything else happens to it.
import { describe, expect, it } from 'vitest'
import { unassignPosition } from '../../src/domain/assignments/assignments.js'
import { CONSOLE_CALLER } from '../../src/domain/core/caller.js'
import { seedGame, seedLeague, seedMembership, seedUser, uniqueEmail } from '../helpers/fixtures.js'
import { useWebApp } from './browser-like.js'

describe('turnbacks on the league page', () => {
  const t = useWebApp()

  it('shows a withdrawn position as turned back by its official; a later claim or unassign clears it', async () => {
    const db = t.runtime.deps.db
    const olgaEmail = uniqueEmail('olga')
    const metro = await seedLeague(db, {
      name: 'Metro Youth',
      organizerId: await seedUser(db, { email: olgaEmail, name: 'Olga' }),
    })
    const samEmail = uniqueEmail('sam')
    await seedMembership(db, metro, await seedUser(db, { email: samEmail, name: 'Sam <Reed>' }))
    const game = await seedGame(db, metro, {
      startsAt: new Date(t.now.getTime() + 48 * 3_600_000).toISOString(),
    })
    const positionId = game.positionIds[0]!
    const sam = await t.signIn(samEmail)
    const olga = await t.signIn(olgaEmail)
    const who = async () => {
      const page = (await olga.get(`/app/organize/leagues/${metro}`)).body
      return new RegExp(`<span class="who" id="who-${positionId}">([^<]*)</span>`).exec(page)?.[1]
    }
    const later = () => void (t.now = new Date(t.now.getTime() + 60_000))

    await sam.get('/app/open')
    await sam.post('/app/claim', { gameId: game.id, positionId })
    expect(await who()).toBe('Sam &lt;Reed&gt;')
    later()
    await sam.get(`/app/withdraw/${positionId}`)
    expect((await sam.post('/app/withdraw', { positionId })).location).toBe('/app/?notice=withdrawn')
    expect(await who()).toBe('No official · turned back by Sam &lt;Reed&gt;')

    later()
    await sam.get('/app/open')
    await sam.post('/app/claim', { gameId: game.id, positionId })
    later()
    await unassignPosition(t.runtime.deps, CONSOLE_CALLER, game.id, positionId)
    expect(await who()).toBe('No official')
  })
})
