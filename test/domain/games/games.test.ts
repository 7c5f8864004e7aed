import fc from 'fast-check'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { PartnerCaller } from '../../../src/domain/core/caller.js'
import { ApiError } from '../../../src/domain/core/errors.js'
import { cancelGame, upsertGames } from '../../../src/domain/games/games.js'
import { upsertLeague } from '../../../src/domain/leagues/leagues.js'
import { toCents } from '../../../src/schemas/common.js'
import { listEvents } from '../../../src/store/outbox.js'
import { useTestApp, type Partner } from '../../helpers/app.js'

const startsAt = '2026-05-01T10:00:00.000Z'

const callerOf = (p: Partner): PartnerCaller => ({
  kind: 'partner',
  keyId: p.id,
  source: p.source,
  organizerId: p.organizerId,
  grantedLeagueIds: [],
})

describe('toCents', () => {
  it('rounds the written decimal half up to the cent', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000_000 }), (thousandths) => {
        expect(toCents(thousandths / 1000)).toBe(Math.floor((thousandths + 5) / 10))
      }),
    )
  })

  it('clamps negatives and tiny values to 0', () => {
    expect([-0.01, -1e9, 0, 1e-7, 0.0049].map(toCents)).toEqual([0, 0, 0, 0, 0])
  })
})

describe('games service', () => {
  const t = useTestApp()
  afterEach(() => void vi.useRealTimers())

  async function setup() {
    const p = await t.partner()
    const caller = callerOf(p)
    const league = await upsertLeague(t.deps, caller, { name: 'L' })
    return { p, caller, leagueId: league.id }
  }

  const events = async (leagueId: string) => (await listEvents(t.deps.db, leagueId)).map((e) => e.event)

  async function rejection(promise: Promise<unknown>): Promise<string> {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(ApiError)
    return (error as ApiError).message
  }

  it('caps the games of a league, cancelled ones included: a batch past the cap writes nothing', async () => {
    const { caller, leagueId } = await setup()
    const deps = { ...t.deps, limits: { ...t.deps.limits, gamesPerLeague: 3 } }
    const item = (externalId: string) => ({ startsAt, externalId })
    const { created } = await upsertGames(deps, caller, leagueId, { games: [item('a'), item('b')] })
    await cancelGame(deps, caller, created[0]!.id)
    expect(await rejection(upsertGames(deps, caller, leagueId, { games: [item('c'), item('d')] }))).toBe(
      'games_limit_reached',
    )
    expect((await listEvents(t.deps.db, leagueId)).filter((e) => e.event === 'game.created')).toHaveLength(2)
    // Updating the games it holds is never refused; the last game that fits is created.
    await upsertGames(deps, caller, leagueId, { games: [item('a'), item('b'), item('c')] })
    expect(await rejection(upsertGames(deps, caller, leagueId, { games: [item('d')] }))).toBe(
      'games_limit_reached',
    )
  })

  it('checks the source, then the league, then the items in order', async () => {
    const { caller, leagueId } = await setup()
    const bad = { startsAt: 'never' }
    expect(await rejection(upsertGames(t.deps, caller, 'nope', { source: 'other', games: [bad] }))).toBe(
      'source_mismatch',
    )
    expect(await rejection(upsertGames(t.deps, caller, 'nope', { games: [bad] }))).toBe('league_not_found')
    expect(await rejection(upsertGames(t.deps, caller, leagueId, { games: [{ startsAt }, bad] }))).toBe(
      'invalid_startsAt:never',
    )
    expect(await events(leagueId)).toEqual(['game.created'])
  })

  it('answers the conflict when it comes before an invalid item, and persists only the games before it', async () => {
    const { caller, leagueId } = await setup()
    const other = await upsertLeague(t.deps, caller, { name: 'Other' })
    await upsertGames(t.deps, caller, other.id, { games: [{ startsAt, externalId: 'taken' }] })
    const games = [{ startsAt, externalId: 'a' }, { startsAt, externalId: 'taken' }, { startsAt: 'never' }]
    expect(await rejection(upsertGames(t.deps, caller, leagueId, { games }))).toBe('external_id_conflict')
    expect(await events(leagueId)).toEqual(['game.created'])
  })

  it('persists every game of a 500-game batch with one event each', async () => {
    const { caller, leagueId } = await setup()
    const games = Array.from({ length: 500 }, (_, i) => ({ startsAt, externalId: `g-${i}`, payDollars: i }))
    const { created } = await upsertGames(t.deps, caller, leagueId, { games })
    expect(created.map((g) => g.externalId)).toEqual(games.map((g) => g.externalId))
    expect(created.map((g) => g.positions[0]?.payCents)).toEqual(games.map((g) => g.payDollars * 100))
    expect(await events(leagueId)).toHaveLength(500)
    const again = await upsertGames(t.deps, caller, leagueId, { games })
    expect(again.created.map((g) => g.id)).toEqual(created.map((g) => g.id))
  })

  it('rewrites a game only when an item changes it, and answers and emits every item either way', async () => {
    const { caller, leagueId } = await setup()
    const updatedAt = async () =>
      Object.fromEntries(
        (
          await t.deps.db
            .selectFrom('games')
            .select(['external_id', 'updated_at'])
            .where('league_id', '=', leagueId)
            .execute()
        ).map((g) => [g.external_id, g.updated_at]),
      )
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime('2026-01-01T00:00:00.000Z')
    const games = [
      { startsAt, externalId: 'same', location: 'Field 1' },
      { startsAt, externalId: 'moved', location: 'Field 1' },
    ]
    const first = await upsertGames(t.deps, caller, leagueId, { games })
    vi.setSystemTime('2026-01-02T00:00:00.000Z')
    const moved = { ...games[1], location: 'Field 2' }
    // A duplicate that changes a game and then changes it back leaves the row as it was.
    const reverted = [{ ...games[0], location: 'Field 9' }, games[0]]
    const again = await upsertGames(t.deps, caller, leagueId, { games: [games[0], moved, ...reverted] })
    expect(again.created.map((g) => [g.id, g.location])).toEqual([
      [first.created[0]!.id, 'Field 1'],
      [first.created[1]!.id, 'Field 2'],
      [first.created[0]!.id, 'Field 9'],
      [first.created[0]!.id, 'Field 1'],
    ])
    expect(await updatedAt()).toEqual({ same: '2026-01-01T00:00:00.000Z', moved: '2026-01-02T00:00:00.000Z' })
    expect(await events(leagueId)).toHaveLength(6)
  })

  it('concurrent upserts of one externalId in one league make one game', async () => {
    const { caller, leagueId } = await setup()
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        upsertGames(t.deps, caller, leagueId, { games: [{ startsAt, externalId: 'same' }] }),
      ),
    )
    expect(new Set(results.map((r) => r.created[0]?.id)).size).toBe(1)
    expect(await events(leagueId)).toHaveLength(8)
  })

  it('concurrent upserts of one externalId into two leagues: one wins, the other conflicts', async () => {
    const { caller, leagueId } = await setup()
    const other = await upsertLeague(t.deps, caller, { name: 'Other' })
    const outcomes = await Promise.allSettled(
      [leagueId, other.id].map((id) =>
        upsertGames(t.deps, caller, id, { games: [{ startsAt, externalId: 'contested' }] }),
      ),
    )
    expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected'])
    const rejected = outcomes.find((o) => o.status === 'rejected')
    expect((rejected?.reason as ApiError).message).toBe('external_id_conflict')
    expect([...(await events(leagueId)), ...(await events(other.id))]).toEqual(['game.created'])
  })

  it('concurrent batches naming the same new games in opposite orders both succeed', async () => {
    const { caller, leagueId } = await setup()
    const games = Array.from({ length: 60 }, (_, i) => ({ startsAt, externalId: `g-${i}` }))
    const [forward, backward] = await Promise.all([
      upsertGames(t.deps, caller, leagueId, { games }),
      upsertGames(t.deps, caller, leagueId, { games: [...games].reverse() }),
    ])
    expect(backward.created.map((g) => g.id).reverse()).toEqual(forward.created.map((g) => g.id))
    expect(await events(leagueId)).toHaveLength(120)
  })

  it('concurrent cancels: every caller gets the cancelled game, one event is written', async () => {
    const { caller, leagueId } = await setup()
    const [game] = (await upsertGames(t.deps, caller, leagueId, { games: [{ startsAt }] })).created
    const results = await Promise.all(Array.from({ length: 6 }, () => cancelGame(t.deps, caller, game!.id)))
    for (const detail of results) {
      expect(detail).toMatchObject({ status: 'cancelled', positions: [{ status: 'cancelled' }] })
    }
    expect(await events(leagueId)).toEqual(['game.created', 'game.cancelled'])
  })
})
