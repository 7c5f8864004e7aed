// A league's new gameMinutes reaches its games a page at a time: every game without its own length, once.
import { describe, expect, it } from 'vitest'
import { isoNow } from '../../../src/clock.js'
import { followLeagueLength } from '../../../src/domain/games/league-length.js'
import { listEvents } from '../../../src/store/outbox.js'
import { useTestApp } from '../../helpers/app.js'
import { seedGame } from '../../helpers/fixtures.js'

describe('followLeagueLength', () => {
  const t = useTestApp()

  it('pages through the league: each game without its own length moves and emits once, across pages', async () => {
    const p = await t.partner()
    const leagueId = (await p.post('/leagues', { name: 'L' })).body.data.id as string
    const starts = ['2030-05-01T18:00:00.000Z', '2030-05-02T18:00:00.000Z', '2030-05-03T18:00:00.000Z']
    const seeded: string[] = []
    for (const startsAt of starts) seeded.push((await seedGame(t.deps.db, leagueId, { startsAt })).id)
    const own = await seedGame(t.deps.db, leagueId, { durationMinutes: 50 })
    await t.deps.db
      .transaction()
      .execute((trx) => followLeagueLength(trx, t.deps, leagueId, 60, isoNow(t.deps.clock), 2))
    const events = await listEvents(t.deps.db, leagueId)
    expect(events.map((e) => [e.event, JSON.parse(e.data).id, JSON.parse(e.data).endsAt])).toEqual(
      starts.map((s, i) => ['game.updated', seeded[i], new Date(Date.parse(s) + 3_600_000).toISOString()]),
    )
    expect(events.some((e) => JSON.parse(e.data).id === own.id)).toBe(false)
  })
})
