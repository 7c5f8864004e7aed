// refdesk app plan / publish: the assignor from the operator console, JSON out, the same events.
import { describe, expect, it } from 'vitest'
import { useCliDatabase } from '../helpers/cli.js'
import { eventsOf, seedGame, seedLeague, seedMembership, seedUser } from '../helpers/fixtures.js'

describe('refdesk app plan / publish', () => {
  const t = useCliDatabase()

  it(
    'plans a window as a draft, publishes it once, and refuses bad input with a code',
    { timeout: 120_000 },
    async () => {
      const db = (await t.runtime()).deps.db
      const leagueId = await seedLeague(db)
      const userId = await seedUser(db)
      await seedMembership(db, leagueId, userId)
      const game = await seedGame(db, leagueId, { startsAt: '2030-05-01T18:00:00.000Z' })
      const planned = await t.run(
        'app',
        'plan',
        leagueId,
        '--from',
        '2030-05-01T00:00:00Z',
        '--to',
        '2030-05-02T00:00:00Z',
      )
      expect(planned.code).toBe(0)
      const plan = JSON.parse(planned.stdout)
      expect(plan).toMatchObject({
        leagueId,
        status: 'draft',
        proposals: [{ positionId: game.positionIds[0], userId }],
      })
      const published = await t.run('app', 'publish', plan.id)
      expect(JSON.parse(published.stdout)).toEqual({ assigned: game.positionIds, skipped: [] })
      expect((await eventsOf(db, leagueId)).map((e) => e.event)).toContain('position.claimed')
      const again = await t.run('app', 'publish', plan.id)
      expect([again.code, again.stderr.trim()]).toEqual([1, '{"error":"plan_already_published"}'])
      const bad = await t.run('app', 'plan', leagueId, '--from', 'soon')
      expect([bad.code, bad.stderr.trim()]).toEqual([1, '{"error":"invalid_from"}'])
    },
  )
})
