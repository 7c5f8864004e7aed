// The in-app services the CLI calls: claim (assignPosition with CONSOLE_CALLER), withdrawal and denial.
import { describe, expect, it } from 'vitest'
import { assignPosition, withdrawClaim } from '../../../src/domain/assignments/assignments.js'
import { CONSOLE_CALLER } from '../../../src/domain/core/caller.js'
import { ApiError } from '../../../src/domain/core/errors.js'
import { denyOfficial } from '../../../src/domain/leagues/officials.js'
import { listEvents } from '../../../src/store/outbox.js'
import { useTestApp, type Partner } from '../../helpers/app.js'
import { seedGame } from '../../helpers/fixtures.js'

describe('in-app assignment services', () => {
  const t = useTestApp()

  async function setup(): Promise<{ p: Partner; leagueId: string; userId: string }> {
    const p = await t.partner()
    const leagueId = (await p.post('/leagues', { name: 'L' })).body.data.id
    const userId = (await p.post(`/leagues/${leagueId}/officials`, { externalId: 'ann', name: 'Ann' })).body
      .data.userId
    return { p, leagueId, userId }
  }

  async function eventNames(leagueId: string): Promise<string[]> {
    return (await listEvents(t.deps.db, leagueId)).map((e) => e.event)
  }

  async function codeOf(promise: Promise<unknown>): Promise<string> {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(ApiError)
    return (error as ApiError).message
  }

  describe('assignPosition as the app (refdesk app claim)', () => {
    it('claims the first open or the given position and emits position.claimed', async () => {
      const { p, leagueId, userId } = await setup()
      const game = await seedGame(t.deps.db, leagueId, { positions: [{}, {}] })
      const first = await assignPosition(t.deps, CONSOLE_CALLER, game.id, { userId })
      expect(first.positions.map((p) => [p.status, p.official?.id ?? null])).toEqual([
        ['claimed', userId],
        ['open', null],
      ])
      // One person never holds two positions of one game (schedule_conflict); another official may.
      const bob = (await p.post(`/leagues/${leagueId}/officials`, { externalId: 'bob', name: 'Bob' })).body
        .data.userId
      const second = await assignPosition(t.deps, CONSOLE_CALLER, game.id, {
        userId: bob,
        positionId: game.positionIds[1],
      })
      expect(second.status).toBe('claimed')
      expect(await eventNames(leagueId)).toEqual([
        'official.joined',
        'position.claimed',
        'official.joined',
        'position.claimed',
      ])
    })

    it('applies the same rules as the partner endpoint', async () => {
      const { p, leagueId, userId } = await setup()
      const game = await seedGame(t.deps.db, leagueId)
      expect(await codeOf(assignPosition(t.deps, CONSOLE_CALLER, 'no-such-game', { userId }))).toBe(
        'game_not_found',
      )
      expect(await codeOf(assignPosition(t.deps, CONSOLE_CALLER, game.id, {}))).toBe('externalId_required')
      expect(await codeOf(assignPosition(t.deps, CONSOLE_CALLER, game.id, { userId: 'nobody' }))).toBe(
        'official_not_found',
      )
      expect(await codeOf(assignPosition(t.deps, CONSOLE_CALLER, game.id, { userId: p.organizerId }))).toBe(
        'not_a_league_official',
      )
      expect(
        await codeOf(
          assignPosition(t.deps, CONSOLE_CALLER, game.id, { userId, positionId: 'no-such-position' }),
        ),
      ).toBe('position_not_found')
      await assignPosition(t.deps, CONSOLE_CALLER, game.id, { userId })
      expect(await codeOf(assignPosition(t.deps, CONSOLE_CALLER, game.id, { userId }))).toBe('position_taken')
      expect(await eventNames(leagueId)).toEqual(['official.joined', 'position.claimed'])
    })
  })

  describe('withdrawClaim (refdesk app withdraw)', () => {
    it('reopens the position and deletes the claim, with position.withdrawn in its transaction', async () => {
      const { leagueId, userId } = await setup()
      const game = await seedGame(t.deps.db, leagueId)
      const positionId = game.positionIds[0]!
      await assignPosition(t.deps, CONSOLE_CALLER, game.id, { userId })
      const detail = await withdrawClaim(t.deps, CONSOLE_CALLER, positionId)
      expect(detail).toMatchObject({
        id: game.id,
        status: 'open',
        positions: [{ status: 'open', official: null }],
      })
      expect(await eventNames(leagueId)).toEqual([
        'official.joined',
        'position.claimed',
        'position.withdrawn',
      ])
      // A refused withdrawal rolls back and writes nothing.
      expect(await codeOf(withdrawClaim(t.deps, CONSOLE_CALLER, positionId))).toBe('position_not_claimed')
      expect(await eventNames(leagueId)).toHaveLength(3)
    })

    it('cancels instead of reopening in a cancelled game', async () => {
      const { leagueId, userId } = await setup()
      const game = await seedGame(t.deps.db, leagueId, {
        status: 'cancelled',
        positions: [{ officialId: userId }],
      })
      const detail = await withdrawClaim(t.deps, CONSOLE_CALLER, game.positionIds[0]!)
      expect(detail).toMatchObject({
        status: 'cancelled',
        positions: [{ status: 'cancelled', official: null }],
      })
    })

    it('answers position_not_found and position_not_claimed', async () => {
      const { leagueId } = await setup()
      const game = await seedGame(t.deps.db, leagueId, { positions: [{}, { status: 'completed' }] })
      expect(await codeOf(withdrawClaim(t.deps, CONSOLE_CALLER, 'no-such-position'))).toBe(
        'position_not_found',
      )
      expect(await codeOf(withdrawClaim(t.deps, CONSOLE_CALLER, game.positionIds[0]!))).toBe(
        'position_not_claimed',
      )
      expect(await codeOf(withdrawClaim(t.deps, CONSOLE_CALLER, game.positionIds[1]!))).toBe(
        'position_not_claimed',
      )
    })

    it('a withdrawal racing an unassign of the same claim: exactly one succeeds', async () => {
      const { p, leagueId, userId } = await setup()
      const game = await seedGame(t.deps.db, leagueId)
      const positionId = game.positionIds[0]!
      await assignPosition(t.deps, CONSOLE_CALLER, game.id, { userId })
      const [withdrawn, unassigned] = await Promise.allSettled([
        withdrawClaim(t.deps, CONSOLE_CALLER, positionId),
        p.delete(`/games/${game.id}/assign?positionId=${positionId}`),
      ])
      const withdrew = withdrawn.status === 'fulfilled'
      const released = unassigned.status === 'fulfilled' && unassigned.value.status === 200
      expect(withdrew !== released).toBe(true)
      if (!withdrew) expect((withdrawn.reason as ApiError).message).toBe('position_not_claimed')
      if (!released)
        expect(unassigned).toMatchObject({ value: { status: 409, body: { error: 'position_not_claimed' } } })
      // Exactly one of the two events: the winner's.
      expect((await eventNames(leagueId)).slice(2)).toEqual([
        withdrew ? 'position.withdrawn' : 'position.released',
      ])
    })
  })

  describe('denyOfficial (refdesk app deny)', () => {
    it('denies without an event and keeps the official’s claims; a denied official cannot be assigned', async () => {
      const { p, leagueId, userId } = await setup()
      const game = await seedGame(t.deps.db, leagueId)
      await assignPosition(t.deps, CONSOLE_CALLER, game.id, { userId })
      const denied = await denyOfficial(t.deps, CONSOLE_CALLER, leagueId, userId)
      expect(denied).toEqual({
        userId,
        leagueId,
        status: 'denied',
        name: 'Ann',
        email: expect.stringContaining('@placeholder.refdesk.invalid'),
        externalId: 'ann',
        source: p.source,
        level: null,
        createdAt: expect.any(String),
        // `refdesk app claim` is the official's own claim: it joined them to the league.
        confirmed: true,
      })
      expect(await eventNames(leagueId)).toEqual(['official.joined', 'position.claimed'])
      expect((await p.get(`/leagues/${leagueId}/assignments`)).body.data).toHaveLength(1)
      const next = await seedGame(t.deps.db, leagueId)
      expect(await codeOf(assignPosition(t.deps, CONSOLE_CALLER, next.id, { userId }))).toBe(
        'not_a_league_official',
      )
    })

    it('answers league_not_found, not_a_member and not_an_official', async () => {
      const { p, leagueId } = await setup()
      expect(await codeOf(denyOfficial(t.deps, CONSOLE_CALLER, 'no-such-league', p.organizerId))).toBe(
        'league_not_found',
      )
      expect(await codeOf(denyOfficial(t.deps, CONSOLE_CALLER, leagueId, 'no-such-user'))).toBe(
        'not_a_member',
      )
      expect(await codeOf(denyOfficial(t.deps, CONSOLE_CALLER, leagueId, p.organizerId))).toBe(
        'not_an_official',
      )
      expect(await eventNames(leagueId)).toEqual(['official.joined'])
    })
  })

  it('removal racing assigns of the same official leaves no claim behind', async () => {
    const { p, leagueId, userId } = await setup()
    const games = await Promise.all(Array.from({ length: 5 }, () => seedGame(t.deps.db, leagueId)))
    await Promise.allSettled([
      ...games.map((g) => assignPosition(t.deps, CONSOLE_CALLER, g.id, { userId })),
      p.delete(`/leagues/${leagueId}/officials/${userId}`),
    ])
    const remaining = await t.deps.db
      .selectFrom('claims')
      .select('id')
      .where('user_id', '=', userId)
      .execute()
    expect(remaining).toEqual([])
    const positions = await t.deps.db
      .selectFrom('positions')
      .select('status')
      .where(
        'id',
        'in',
        games.map((g) => g.positionIds[0]!),
      )
      .execute()
    expect(positions.every((row) => row.status === 'open')).toBe(true)
  })
})
