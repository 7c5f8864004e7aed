// Issue 24, item 6: two claims racing for two overlapping games of one person can never both succeed. The
// person is one email address with a user row in each of two partners' leagues (both `conflictPolicy:
// refuse`), so the two claims lock different games, memberships and user rows: only the per-person lock
// (PostgreSQL) or the single writer (SQLite) keeps the second from missing the first's position. Each
// round sends both at once, over the pool's separate connections on PostgreSQL, and with an official's own
// claim in the app racing a partner's assign.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { claimPosition } from '../../src/domain/assignments/assignments.js'
import { ApiError } from '../../src/domain/core/errors.js'
import type { TestApp } from '../../test/helpers/app.js'
import { joinLeagueAs, uniqueEmail } from '../../test/helpers/fixtures.js'
import { buildReliabilityApp } from '../lib/app.js'
import { recordFigure } from '../lib/figures.js'

const ROUNDS = 40

describe('two claims for overlapping games of one person', () => {
  let t: TestApp
  beforeEach(async () => {
    t = await buildReliabilityApp('conflict-race')
  })
  afterEach(async () => {
    await t.close()
  })

  it('never both succeed: exactly one holds a game each round, the other is refused schedule_conflict', async () => {
    const email = uniqueEmail('racer')
    const a = await t.partner()
    const b = await t.partner()
    const setUp = async (p: typeof a) => {
      const leagueId = (await p.post('/leagues', { name: 'L', conflictPolicy: 'refuse' })).body.data.id
      const userId = (await p.post(`/leagues/${leagueId}/officials`, { externalId: 'r', email })).body.data
        .userId
      return { p, leagueId, userId: userId as string }
    }
    const sides = [await setUp(a), await setUp(b)] as const
    // Consent: one league's games make the person busy in another only when they joined both.
    for (const { leagueId } of sides) await joinLeagueAs(t.deps, leagueId, email)
    const outcomes: string[] = []
    let doubleBooked = 0
    for (let round = 0; round < ROUNDS; round += 1) {
      // Each round a day of its own, one game per league, 30 minutes apart (inside the 30-minute buffer).
      const day = new Date(Date.UTC(2030, 0, 1 + round, 15)).getTime()
      const games = await Promise.all(
        sides.map(async ({ p, leagueId }, i) => {
          const startsAt = new Date(day + i * 30 * 60_000).toISOString()
          const res = await p.post(`/leagues/${leagueId}/games`, { games: [{ startsAt }] })
          return res.body.data.created[0] as { id: string; positions: { id: string }[] }
        }),
      )
      const [first, second] = sides
      // Even rounds: both partners assign; odd rounds: the official's own claim races a partner's assign.
      const results = await Promise.all([
        first.p
          .post(`/games/${games[0]!.id}/assign`, { userId: first.userId })
          .then((r) => r.body.error ?? 'ok'),
        round % 2 === 0
          ? second.p
              .post(`/games/${games[1]!.id}/assign`, { userId: second.userId })
              .then((r) => r.body.error ?? 'ok')
          : claimPosition(
              t.deps,
              { kind: 'person', email, userIds: [first.userId, second.userId] },
              { gameId: games[1]!.id, positionId: games[1]!.positions[0]!.id },
            ).then(
              () => 'ok',
              (e: unknown) => (e instanceof ApiError ? e.code : String(e)),
            ),
      ])
      if (results.every((r) => r === 'ok')) doubleBooked += 1
      outcomes.push([...results].sort().join('+'))
    }
    recordFigure({
      section: 'isolation',
      metric: `overlapping claims of one person: rounds both succeeded (of ${ROUNDS})`,
      value: doubleBooked,
      target: '0',
      met: doubleBooked === 0,
    })
    expect(doubleBooked).toBe(0)
    expect(outcomes).toEqual(outcomes.map(() => 'ok+schedule_conflict'))
  })
})
