// The organizer's services: their leagues and counts, games a page at a time with filters, the actions run
// through the console's services (same events), approval, payouts in bulk, and the scope every call checks.
import { describe, expect, it } from 'vitest'
import { dayStart } from '../../../src/time.js'
import {
  completionBlocker,
  findLeagueGame,
  GAMES_PAGE_SIZE,
  listLeagueGames,
  noShowPaymentEffect,
} from '../../../src/domain/pages/organize-games.js'
import { listLedger } from '../../../src/domain/pages/organize-payouts.js'
import { approveOfficial, denyOfficial } from '../../../src/domain/leagues/officials.js'
import { listOrganizedLeagues } from '../../../src/domain/pages/organize.js'
import { listLeagueOfficials } from '../../../src/domain/pages/organize-officials.js'
import {
  chargePayment,
  completeGame,
  markNoShow,
  markPaid,
  markPaymentsPaid,
  withSimulatedOutcome,
} from '../../../src/domain/payments/payments.js'
import type { Person } from '../../../src/domain/people/sessions.js'
import { useTestApp } from '../../helpers/app.js'
import { asOf, played } from '../../helpers/clock.js'
import { refusal } from '../../helpers/errors.js'
import {
  eventsOf,
  seedClaimedGame,
  seedGame,
  seedLeague,
  seedMembership,
  seedPayment,
  seedUser,
  uniqueEmail,
} from '../../helpers/fixtures.js'

const NOW = new Date('2030-03-01T10:00:00.000Z')
const hoursFromNow = (h: number) => new Date(NOW.getTime() + h * 3_600_000).toISOString()

describe("the organizer's services", () => {
  const t = useTestApp()

  /** Olga organizes Metro (offline) and Cloud (platform, eur); Rival organizes Other. */
  async function world() {
    const db = t.deps.db
    const email = uniqueEmail('olga')
    const olgaId = await seedUser(db, { email, name: 'Olga' })
    const olga: Person = { kind: 'person', email, userIds: [olgaId], timeZone: 'UTC', organizes: true }
    const metro = await seedLeague(db, { name: 'Metro', organizerId: olgaId })
    const cloud = await seedLeague(db, {
      name: 'Cloud',
      organizerId: olgaId,
      paymentMode: 'platform',
      currency: 'eur',
    })
    const other = await seedLeague(db, { name: 'Other' })
    return { db, olga, olgaId, metro, cloud, other }
  }

  it('lists the leagues one organizes with game counts per status and pending officials', async () => {
    const { db, olga, metro, cloud } = await world()
    await seedGame(db, metro)
    await seedGame(db, metro)
    await seedClaimedGame(db, metro)
    await seedGame(db, metro, { status: 'cancelled', positions: [{ status: 'cancelled' }] })
    await seedMembership(db, metro, await seedUser(db), { status: 'pending' })
    await seedMembership(db, metro, await seedUser(db), { status: 'denied' })
    const leagues = await listOrganizedLeagues(t.deps, olga)
    expect(leagues).toEqual([
      {
        id: cloud,
        name: 'Cloud',
        paymentMode: 'platform',
        currency: 'eur',
        games: { open: 0, claimed: 0, completed: 0, cancelled: 0 },
        pendingOfficials: 0,
        timeZone: 'UTC',
      },
      {
        id: metro,
        name: 'Metro',
        paymentMode: 'offline',
        currency: 'usd',
        games: { open: 2, claimed: 1, completed: 0, cancelled: 1 },
        pendingOfficials: 1,
        timeZone: 'UTC',
      },
    ])
    const official: Person = {
      kind: 'person',
      email: 'x@example.com',
      userIds: [await seedUser(db)],
      timeZone: 'UTC',
      organizes: false,
    }
    expect(await listOrganizedLeagues(t.deps, official)).toEqual([])
  })

  it('pages games by date with status, upcoming/past and date-range filters', async () => {
    const { db, olga, metro } = await world()
    const starts = Array.from({ length: GAMES_PAGE_SIZE + 5 }, (_, i) => hoursFromNow(24 * (i - 10)))
    for (const startsAt of starts) await seedGame(db, metro, { startsAt })
    const list = (query: Parameters<typeof listLeagueGames>[3]) =>
      listLeagueGames(asOf(t.deps, NOW), olga, metro, query)

    const first = await list({})
    expect(first.games.map((g) => g.startsAt)).toEqual(starts.slice(0, GAMES_PAGE_SIZE))
    expect(first.more).toBe(true)
    const second = await list({ page: 2 })
    expect(second.games.map((g) => g.startsAt)).toEqual(starts.slice(GAMES_PAGE_SIZE))
    expect(second.more).toBe(false)

    const upcoming = await list({ when: 'upcoming' })
    expect(upcoming.games[0]!.startsAt).toBe(starts[11])
    const past = await list({ when: 'past' })
    expect(past.games.map((g) => g.startsAt)).toEqual(starts.slice(0, 11).reverse())

    const range = await list({ from: '2030-03-01', to: '2030-03-02' })
    expect(range.games.map((g) => g.startsAt)).toEqual([starts[10], starts[11]])
    expect((await list({ status: 'claimed' })).games).toEqual([])
  })

  it('pages a league of 5,000 games imported over the API: 50 a page, 100 pages', async () => {
    const partner = await t.partner()
    const organizer: Person = {
      kind: 'person',
      email: `${partner.source}@partners.refdesk.invalid`,
      userIds: [partner.organizerId],
      timeZone: 'UTC',
      organizes: true,
    }
    const league = (await partner.post('/leagues', { name: 'Big' })).body.data
    for (let batch = 0; batch < 10; batch++) {
      const games = Array.from({ length: 500 }, (_, k) => ({
        externalId: `g-${batch * 500 + k}`,
        startsAt: new Date(NOW.getTime() + (batch * 500 + k) * 3_600_000).toISOString(),
      }))
      expect((await partner.post(`/leagues/${league.id}/games`, { games })).status).toBe(201)
    }
    const [overview] = await listOrganizedLeagues(t.deps, organizer)
    expect(overview?.games.open).toBe(5000)
    const last = await listLeagueGames(asOf(t.deps, NOW), organizer, league.id, { page: 100 })
    expect([last.games.length, last.more, last.games.at(-1)?.positions.length]).toEqual([50, false, 1])
    expect((await listLeagueGames(asOf(t.deps, NOW), organizer, league.id, { page: 101 })).games).toEqual([])
  })

  it('reads date ranges as days of the person’s time zone', () => {
    expect(dayStart('2030-03-01', 'UTC')).toBe('2030-03-01T00:00:00.000Z')
    expect(dayStart('2030-07-01', 'America/New_York')).toBe('2030-07-01T04:00:00.000Z')
    expect(dayStart('2030-01-01', 'Asia/Tokyo')).toBe('2029-12-31T15:00:00.000Z')
  })

  it('completes a claimed game through the console’s service: payments and game.completed', async () => {
    const { db, olga, metro } = await world()
    const { gameId, officialId } = await seedClaimedGame(db, metro, 4500)
    // Before its start (seeded on 2030-05-01T18:00Z) it is not completed: game_not_started, nothing written.
    const early = asOf(t.deps, new Date('2030-05-01T17:59:59.999Z'))
    expect(completionBlocker((await findLeagueGame(early, olga, { gameId })).game)).toBe('not_started')
    expect(await refusal(completeGame(early, olga, gameId))).toBe('game_not_started')
    expect(await eventsOf(db, metro)).toEqual([])
    const atStart = asOf(t.deps, new Date('2030-05-01T18:00:00.000Z'))
    const { game } = await findLeagueGame(atStart, olga, { gameId })
    expect(completionBlocker(game)).toBeUndefined()
    const detail = await completeGame(atStart, olga, gameId)
    expect(detail.status).toBe('completed')
    expect(detail.positions[0]!.payment).toMatchObject({
      amountCents: 4500,
      status: 'pending',
      mode: 'offline',
    })
    expect((await eventsOf(db, metro)).map((e) => [e.event, e.data.id])).toEqual([['game.completed', gameId]])
    const after = await findLeagueGame(early, olga, { gameId })
    expect(completionBlocker(after.game)).toBe('already_completed')
    expect(after.game.positions[0]).toMatchObject({ noShowable: true, official: { id: officialId } })
  })

  it('says why a game cannot be completed', async () => {
    const { db, olga, metro } = await world()
    const open = await seedGame(db, metro)
    const cancelled = await seedGame(db, metro, { status: 'cancelled', positions: [{ status: 'cancelled' }] })
    expect(completionBlocker((await findLeagueGame(t.deps, olga, { gameId: open.id })).game)).toBe(
      'open_positions',
    )
    expect(completionBlocker((await findLeagueGame(t.deps, olga, { gameId: cancelled.id })).game)).toBe(
      'cancelled',
    )
    expect(await refusal(completeGame(played(t.deps), olga, open.id))).toBe('game_not_claimed')
    expect(await eventsOf(db, metro)).toEqual([])
  })

  it('two completions of one game at once: exactly one succeeds, the other is told it is already completed', async () => {
    const { db, olga, metro } = await world()
    // The same organizer in two sessions (a league has one organizer), each with its own connection on PostgreSQL.
    const tab: Person = { ...olga }
    for (let round = 0; round < 5; round++) {
      const { gameId } = await seedClaimedGame(db, metro)
      const outcomes = await Promise.allSettled([
        completeGame(played(t.deps), olga, gameId),
        completeGame(played(t.deps), tab, gameId),
      ])
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1)
      const rejected = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult
      expect(rejected.reason).toMatchObject({ code: 'game_already_completed', status: 409 })
    }
    const events = await eventsOf(db, metro)
    expect(events.map((e) => e.event)).toEqual(Array(5).fill('game.completed'))
    const payments = await db.selectFrom('payments').select('id').where('league_id', '=', metro).execute()
    expect(payments).toHaveLength(5)
  })

  it('records a no-show: the pending payment is removed and official.no_show emitted', async () => {
    const { db, olga, metro } = await world()
    const { gameId, positionIds, officialId } = await seedClaimedGame(db, metro)
    await completeGame(played(t.deps), olga, gameId)
    const { game } = await findLeagueGame(t.deps, olga, { positionId: positionIds[0]! })
    expect(noShowPaymentEffect(game.positions[0]!)).toBe('removed')
    const detail = await markNoShow(t.deps, olga, positionIds[0]!)
    expect(detail.positions[0]).toMatchObject({
      status: 'cancelled',
      payment: null,
      official: { id: officialId },
    })
    expect((await eventsOf(db, metro)).map((e) => e.event)).toEqual(['game.completed', 'official.no_show'])
    expect(await refusal(markNoShow(t.deps, olga, positionIds[0]!))).toBe('position_not_claimed')
  })

  it('approves a pending official once (official.approved), and denies one without an event', async () => {
    const { db, olga, metro } = await world()
    const pat = await seedUser(db, { name: 'Pat' })
    await seedMembership(db, metro, pat, { status: 'pending' })
    expect(await approveOfficial(t.deps, olga, metro, pat)).toMatchObject({
      userId: pat,
      status: 'approved',
    })
    expect(await approveOfficial(t.deps, olga, metro, pat)).toMatchObject({ status: 'approved' })
    const events = await eventsOf(db, metro)
    expect(events.map((e) => [e.event, e.data.official.userId, e.data.official.status])).toEqual([
      ['official.approved', pat, 'approved'],
    ])
    expect(await denyOfficial(t.deps, olga, metro, pat)).toMatchObject({ status: 'denied' })
    expect((await listLeagueOfficials(t.deps, olga, metro)).officials.map((o) => o.status)).toEqual([
      'denied',
    ])
    expect(await eventsOf(db, metro)).toHaveLength(1)
    expect(await refusal(approveOfficial(t.deps, olga, metro, await seedUser(db)))).toBe('not_a_member')
  })

  it('marks several offline payments paid in one transaction: all of them, or none', async () => {
    const { db, olga, metro } = await world()
    const ids: string[] = []
    for (let i = 0; i < 3; i++) {
      const { gameId } = await seedClaimedGame(db, metro, 1000 * (i + 1))
      const detail = await completeGame(played(t.deps), olga, gameId)
      ids.push(detail.positions[0]!.payment!.id)
    }
    await markPaid(t.deps, olga, ids[2]!)
    expect(await refusal(markPaymentsPaid(t.deps, olga, metro, ids))).toBe('payment_not_pending')
    expect((await listLedger(t.deps, olga, metro, { status: 'paid' })).payments.map((p) => p.id)).toEqual([
      ids[2],
    ])

    const paid = await markPaymentsPaid(t.deps, olga, metro, [ids[0]!, ids[1]!])
    expect(paid.map((p) => p.status)).toEqual(['paid', 'paid'])
    const events = (await eventsOf(db, metro)).filter((e) => e.event === 'payment.paid')
    expect(events.map((e) => e.data.payment.id).sort()).toEqual([...ids].sort())
    const { totals } = await listLedger(t.deps, olga, metro, {})
    expect(totals).toEqual([{ status: 'paid', currency: 'usd', count: 3, cents: 6000 }])
  })

  it('a payment of another league in a bulk selection reads as missing and nothing is paid', async () => {
    const { db, olga, metro, other } = await world()
    const mine = await seedClaimedGame(db, metro)
    const mineId = (await completeGame(played(t.deps), olga, mine.gameId)).positions[0]!.payment!.id
    const theirs = await seedClaimedGame(db, other)
    const theirId = await seedPayment(db, {
      positionId: theirs.positionIds[0]!,
      officialId: theirs.officialId,
      leagueId: other,
      amountCents: 100,
    })
    expect(await refusal(markPaymentsPaid(t.deps, olga, metro, [mineId, theirId]))).toBe('payment_not_found')
    expect((await listLedger(t.deps, olga, metro, { status: 'pending' })).payments).toHaveLength(1)
  })

  it('charges a platform payment with each simulated outcome; a failed one is charged again', async () => {
    const { db, olga, cloud } = await world()
    const { gameId } = await seedClaimedGame(db, cloud, 3000)
    const id = (await completeGame(played(t.deps), olga, gameId)).positions[0]!.payment!.id
    expect(await chargePayment(withSimulatedOutcome(t.deps, 'requires_card'), olga, id)).toMatchObject({
      status: 'requires_card',
    })
    expect(await chargePayment(withSimulatedOutcome(t.deps, 'failed'), olga, id)).toMatchObject({
      status: 'failed',
      failureMessage: 'The card was declined (simulated).',
    })
    expect(await chargePayment(withSimulatedOutcome(t.deps, 'paid'), olga, id)).toMatchObject({
      status: 'paid',
      currency: 'eur',
    })
    expect(await refusal(chargePayment(withSimulatedOutcome(t.deps, 'paid'), olga, id))).toBe(
      'payment_not_chargeable',
    )
    expect((await eventsOf(db, cloud)).map((e) => e.event)).toEqual([
      'game.completed',
      'payment.failed',
      'payment.paid',
    ])
  })

  it("another organizer's league, game, position and payment read exactly like missing ones", async () => {
    const { db, olga, other } = await world()
    const { gameId, positionIds, officialId } = await seedClaimedGame(db, other)
    const paymentId = await seedPayment(db, {
      positionId: positionIds[0]!,
      officialId,
      leagueId: other,
      amountCents: 100,
    })
    const codes = await Promise.all([
      refusal(listLeagueGames(asOf(t.deps, NOW), olga, other, {})),
      refusal(listLeagueOfficials(t.deps, olga, other)),
      refusal(listLedger(t.deps, olga, other, {})),
      refusal(findLeagueGame(t.deps, olga, { gameId })),
      refusal(completeGame(played(t.deps), olga, gameId)),
      refusal(markNoShow(t.deps, olga, positionIds[0]!)),
      refusal(approveOfficial(t.deps, olga, other, officialId)),
      refusal(denyOfficial(t.deps, olga, other, officialId)),
      refusal(markPaid(t.deps, olga, paymentId)),
      refusal(markPaymentsPaid(t.deps, olga, other, [paymentId])),
      refusal(chargePayment(withSimulatedOutcome(t.deps, 'paid'), olga, paymentId)),
    ])
    expect(codes).toEqual([
      'league_not_found',
      'league_not_found',
      'league_not_found',
      'game_not_found',
      'game_not_found',
      'position_not_found',
      'league_not_found',
      'league_not_found',
      'payment_not_found',
      'league_not_found',
      'payment_not_found',
    ])
    expect(await eventsOf(db, other)).toEqual([])
  })
})
