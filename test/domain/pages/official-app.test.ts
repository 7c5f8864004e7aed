// The official's services: schedule, open games and claims, withdrawal, earnings, memberships, calendar feed
// and time zone. Times are parameters; the games are seeded around a fixed "now".
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { claimPosition, withdrawClaim } from '../../../src/domain/assignments/assignments.js'
import { calendarFeedGames, findCalendarFeed, renewCalendarFeed } from '../../../src/domain/pages/calendar.js'
import { listEarnings } from '../../../src/domain/pages/earnings.js'
import type { ApiError } from '../../../src/domain/core/errors.js'
import { listMemberships } from '../../../src/domain/pages/leagues.js'
import { listOpenGames, OPEN_PAGE_SIZE } from '../../../src/domain/pages/open-games.js'
import { completeGame, markPaid } from '../../../src/domain/payments/payments.js'
import { setTimeZone } from '../../../src/domain/people/profiles.js'
import { findHeldGame, listSchedule } from '../../../src/domain/pages/schedule.js'
import type { Person } from '../../../src/domain/people/sessions.js'
import { useTestApp } from '../../helpers/app.js'
import { asOf, played } from '../../helpers/clock.js'
import { refusal } from '../../helpers/errors.js'
import {
  eventsOf,
  seedGame,
  seedLeague,
  seedMembership,
  seedUser,
  uniqueEmail,
} from '../../helpers/fixtures.js'
import { CONSOLE_CALLER } from '../../../src/domain/core/caller.js'

const NOW = new Date('2030-03-01T10:00:00.000Z')
const hoursFromNow = (h: number) => new Date(NOW.getTime() + h * 3_600_000).toISOString()
const person = (email: string, userIds: string[]): Person => ({
  kind: 'person',
  email,
  userIds,
  timeZone: 'UTC',
  organizes: false,
})

describe("the official's app services", () => {
  const t = useTestApp()

  /** Sam is an approved official of Metro; Other league is someone else's. */
  async function world() {
    const db = t.deps.db
    const metro = await seedLeague(db, { name: 'Metro', currency: 'usd' })
    const other = await seedLeague(db, { name: 'Other' })
    const email = uniqueEmail('sam')
    const sam = await seedUser(db, { email })
    await seedMembership(db, metro, sam)
    return { db, metro, other, sam, me: person(email, [sam]) }
  }

  it('open games: open positions of approved leagues only, upcoming, soonest first', async () => {
    const { db, metro, other, me } = await world()
    const pendingLeague = await seedLeague(db, { name: 'Pending' })
    await seedMembership(db, pendingLeague, me.userIds[0]!, { status: 'pending' })
    const deniedLeague = await seedLeague(db, { name: 'Denied' })
    await seedMembership(db, deniedLeague, me.userIds[0]!, { status: 'denied' })
    const later = await seedGame(db, metro, { startsAt: hoursFromNow(48) })
    const sooner = await seedGame(db, metro, { startsAt: hoursFromNow(2) })
    await seedGame(db, metro, { startsAt: hoursFromNow(-2) })
    await seedGame(db, metro, {
      startsAt: hoursFromNow(3),
      status: 'cancelled',
      positions: [{ status: 'cancelled' }],
    })
    await seedGame(db, metro, { startsAt: hoursFromNow(4), positions: [{ officialId: me.userIds[0] }] })
    for (const league of [other, pendingLeague, deniedLeague])
      await seedGame(db, league, { startsAt: hoursFromNow(5) })

    const { games, more } = await listOpenGames(asOf(t.deps, NOW), me)
    expect(games.map((g) => g.gameId)).toEqual([sooner.id, later.id])
    expect(games[0]).toEqual({
      positionId: sooner.positionIds[0],
      label: 'Official',
      payCents: 2500,
      currency: 'usd',
      gameId: sooner.id,
      startsAt: hoursFromNow(2),
      sport: 'soccer',
      location: 'Field 1',
      leagueId: metro,
      leagueName: 'Metro',
      reason: null,
    })
    expect(more).toBe(false)
  })

  it('open games come a page at a time', async () => {
    const { db, metro, me } = await world()
    for (let i = 1; i <= OPEN_PAGE_SIZE + 1; i++) await seedGame(db, metro, { startsAt: hoursFromNow(i) })
    const first = await listOpenGames(asOf(t.deps, NOW), me, 1)
    const second = await listOpenGames(asOf(t.deps, NOW), me, 2)
    expect([first.games.length, first.more, second.games.length, second.more]).toEqual([
      OPEN_PAGE_SIZE,
      true,
      1,
      false,
    ])
    expect(second.games[0]!.startsAt).toBe(hoursFromNow(OPEN_PAGE_SIZE + 1))
  })

  it('a claim is the assign service: position.claimed in the same transaction', async () => {
    const { db, metro, sam, me } = await world()
    const game = await seedGame(db, metro, { startsAt: hoursFromNow(2) })
    await claimPosition(t.deps, me, { gameId: game.id, positionId: game.positionIds[0]! })
    const events = await eventsOf(db, metro)
    expect(events.map((e) => e.event)).toEqual(['position.claimed'])
    expect(events[0]!.data).toMatchObject({ positionId: game.positionIds[0], official: { id: sam } })
    expect((await listSchedule(asOf(t.deps, NOW), me)).upcoming.map((g) => g.gameId)).toEqual([game.id])
  })

  it('claims racing for one position: exactly one wins, the others lose with position_taken', async () => {
    const { db, metro } = await world()
    const game = await seedGame(db, metro, { startsAt: hoursFromNow(2) })
    const rivals: Person[] = []
    for (let i = 0; i < 5; i++) {
      const email = uniqueEmail(`rival${i}`)
      const id = await seedUser(db, { email })
      await seedMembership(db, metro, id)
      rivals.push(person(email, [id]))
    }
    const outcomes = await Promise.all(
      rivals.map((p) =>
        claimPosition(t.deps, p, { gameId: game.id, positionId: game.positionIds[0]! }).then(
          () => 'won',
          (e: ApiError) => e.code,
        ),
      ),
    )
    expect(outcomes.filter((o) => o === 'won')).toHaveLength(1)
    expect(outcomes.filter((o) => o === 'position_taken')).toHaveLength(4)
    expect((await eventsOf(db, metro)).map((e) => e.event)).toEqual(['position.claimed'])
  })

  it("another league's game answers exactly like a missing one, and nothing changes", async () => {
    const { db, other, me } = await world()
    const theirs = await seedGame(db, other, { startsAt: hoursFromNow(2) })
    const positionId = theirs.positionIds[0]!
    expect(await refusal(claimPosition(t.deps, me, { gameId: theirs.id, positionId }))).toBe('game_not_found')
    expect(await refusal(claimPosition(t.deps, me, { gameId: 'nosuchgame', positionId }))).toBe(
      'game_not_found',
    )
    expect(await eventsOf(db, other)).toEqual([])
  })

  it('a pending or denied official cannot claim', async () => {
    const { db, metro, sam, me } = await world()
    const game = await seedGame(db, metro, { startsAt: hoursFromNow(2) })
    await db.updateTable('memberships').set({ status: 'denied' }).where('user_id', '=', sam).execute()
    expect(
      await refusal(claimPosition(t.deps, me, { gameId: game.id, positionId: game.positionIds[0]! })),
    ).toBe('game_not_found')
  })

  it('schedule: upcoming soonest first, then past latest first, across leagues', async () => {
    const { db, metro, other, sam, me } = await world()
    await seedMembership(db, other, sam)
    const soon = await seedGame(db, other, { startsAt: hoursFromNow(1), positions: [{ officialId: sam }] })
    const next = await seedGame(db, metro, { startsAt: hoursFromNow(30), positions: [{ officialId: sam }] })
    const old = await seedGame(db, metro, { startsAt: hoursFromNow(-48), positions: [{ officialId: sam }] })
    const recent = await seedGame(db, metro, { startsAt: hoursFromNow(-3), positions: [{ officialId: sam }] })
    await seedGame(db, metro, { startsAt: hoursFromNow(5) })
    const schedule = await listSchedule(asOf(t.deps, NOW), me)
    expect(schedule.upcoming.map((g) => [g.gameId, g.leagueName, g.withdrawable])).toEqual([
      [soon.id, 'Other', true],
      [next.id, 'Metro', true],
    ])
    expect(schedule.past.map((g) => [g.gameId, g.withdrawable])).toEqual([
      [recent.id, false],
      [old.id, false],
    ])
  })

  it('withdraw: own upcoming claims only; the position reopens with position.withdrawn', async () => {
    const { db, metro, sam, me } = await world()
    const rival = await seedUser(db, { email: uniqueEmail('rival') })
    await seedMembership(db, metro, rival)
    const mine = await seedGame(db, metro, { startsAt: hoursFromNow(2), positions: [{ officialId: sam }] })
    const theirs = await seedGame(db, metro, {
      startsAt: hoursFromNow(2),
      positions: [{ officialId: rival }],
    })
    const started = await seedGame(db, metro, {
      startsAt: hoursFromNow(-1),
      positions: [{ officialId: sam }],
    })

    expect(await refusal(withdrawClaim(asOf(t.deps, NOW), me, theirs.positionIds[0]!))).toBe(
      'position_not_found',
    )
    expect(await refusal(withdrawClaim(asOf(t.deps, NOW), me, 'nosuchposition'))).toBe('position_not_found')
    expect(await refusal(findHeldGame(asOf(t.deps, NOW), me, theirs.positionIds[0]!))).toBe(
      'position_not_found',
    )
    expect(await refusal(withdrawClaim(asOf(t.deps, NOW), me, started.positionIds[0]!))).toBe('game_started')

    await withdrawClaim(asOf(t.deps, NOW), me, mine.positionIds[0]!)
    expect((await listOpenGames(asOf(t.deps, NOW), me)).games.map((g) => g.gameId)).toEqual([mine.id])
    // The spec names no event for a withdrawal; RefDesk adds one (DESIGN "Notifications").
    expect((await eventsOf(db, metro)).map((e) => [e.event, e.data.positionId])).toEqual([
      ['position.withdrawn', mine.positionIds[0]],
    ])
    expect(await refusal(withdrawClaim(asOf(t.deps, NOW), me, mine.positionIds[0]!))).toBe(
      'position_not_found',
    )
  })

  it('earnings: payments with game and league, totals pending and paid per currency', async () => {
    const { db, metro, sam, me } = await world()
    const euroLeague = await seedLeague(db, { name: 'Euro', currency: 'eur' })
    await seedMembership(db, euroLeague, sam)
    const a = await seedGame(db, metro, {
      startsAt: hoursFromNow(-5),
      positions: [{ officialId: sam, payCents: 4500 }],
    })
    const b = await seedGame(db, metro, {
      startsAt: hoursFromNow(-4),
      positions: [{ officialId: sam, payCents: 3000 }],
    })
    const c = await seedGame(db, euroLeague, {
      startsAt: hoursFromNow(-3),
      positions: [{ officialId: sam, payCents: 2000 }],
    })
    for (const game of [a, b, c]) await completeGame(played(t.deps), CONSOLE_CALLER, game.id)
    const first = (await listEarnings(t.deps, me)).payments.find((p) => p.gameId === a.id)!
    await markPaid(t.deps, CONSOLE_CALLER, first.paymentId)

    const { payments, totals } = await listEarnings(t.deps, me)
    expect(payments.map((p) => [p.gameId, p.status, p.amountCents, p.currency, p.leagueName])).toEqual([
      [c.id, 'pending', 2000, 'eur', 'Euro'],
      [b.id, 'pending', 3000, 'usd', 'Metro'],
      [a.id, 'paid', 4500, 'usd', 'Metro'],
    ])
    expect(totals).toEqual([
      { currency: 'eur', pendingCents: 2000, paidCents: 0 },
      { currency: 'usd', pendingCents: 3000, paidCents: 4500 },
    ])
  })

  it('memberships: every league with role and status', async () => {
    const { db, me } = await world()
    const pending = await seedLeague(db, { name: 'B pending' })
    await seedMembership(db, pending, me.userIds[0]!, { status: 'pending' })
    const organized = await seedLeague(db, { name: 'A organized', organizerId: me.userIds[0]! })
    // An organizer's own league is joined; an official's membership waits for their Join (DESIGN "Consent").
    const invitedBy = expect.any(String)
    expect(await listMemberships(t.deps, me)).toEqual([
      {
        leagueId: organized,
        leagueName: 'A organized',
        role: 'organizer',
        status: 'approved',
        joined: true,
        invitedBy,
      },
      {
        leagueId: pending,
        leagueName: 'B pending',
        role: 'official',
        status: 'pending',
        joined: false,
        invitedBy,
      },
      {
        leagueId: expect.any(String),
        leagueName: 'Metro',
        role: 'official',
        status: 'approved',
        joined: false,
        invitedBy,
      },
    ])
  })

  it('calendar feed: the token opens the held games; a new token revokes the old; hashed at rest', async () => {
    const { db, metro, sam, me } = await world()
    const game = await seedGame(db, metro, { startsAt: hoursFromNow(2), positions: [{ officialId: sam }] })
    expect(await findCalendarFeed(t.deps, me)).toBeUndefined()
    const first = await renewCalendarFeed(asOf(t.deps, NOW), me)
    expect((await calendarFeedGames(asOf(t.deps, NOW), first))!.map((g) => g.gameId)).toEqual([game.id])
    expect(await findCalendarFeed(t.deps, me)).toEqual({ createdAt: NOW.toISOString() })

    const second = await renewCalendarFeed(asOf(t.deps, NOW), me)
    expect(await calendarFeedGames(asOf(t.deps, NOW), first)).toBeUndefined()
    expect(await calendarFeedGames(asOf(t.deps, NOW), second)).toHaveLength(1)
    const rows = await db.selectFrom('calendar_feeds').selectAll().where('email', '=', me.email).execute()
    expect(rows.map((r) => r.token_hash)).toEqual([createHash('sha256').update(second).digest('hex')])
  })

  it('time zone: only a known IANA zone', async () => {
    const { me } = await world()
    await setTimeZone(asOf(t.deps, NOW), me, 'Europe/Paris')
    const row = await t.deps.db
      .selectFrom('profiles')
      .selectAll()
      .where('email', '=', me.email)
      .executeTakeFirstOrThrow()
    expect(row.time_zone).toBe('Europe/Paris')
    expect(await refusal(setTimeZone(asOf(t.deps, NOW), me, 'Mars/Olympus'))).toBe('invalid_time_zone')
  })

  it('time zone: stored by its canonical name, whatever the case sent', async () => {
    const { me } = await world()
    await setTimeZone(asOf(t.deps, NOW), me, 'europe/berlin')
    const row = await t.deps.db
      .selectFrom('profiles')
      .select('time_zone')
      .where('email', '=', me.email)
      .executeTakeFirstOrThrow()
    expect(row.time_zone).toBe('Europe/Berlin')
  })
})
