import { describe, expect, it } from 'vitest'
import { ApiError, ERROR_STATUS, type ErrorCode } from '../../../src/domain/core/errors.js'
import type { ChargeRequest, PaymentProcessor } from '../../../src/domain/core/payment-processor.js'
import { simulatedProcessor } from '../../../src/domain/core/payment-processor.js'
import {
  chargePayment,
  completeGame,
  listPayments,
  markNoShow,
  markPaid,
} from '../../../src/domain/payments/payments.js'
import { CONSOLE_CALLER } from '../../../src/domain/core/caller.js'
import type { PaymentStatus } from '../../../src/store/tables.js'
import { useTestApp } from '../../helpers/app.js'
import { asOf, played } from '../../helpers/clock.js'
import {
  eventsOf,
  seedClaimedGame,
  seedGame,
  seedLeague,
  seedMembership,
  seedUser,
} from '../../helpers/fixtures.js'

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

async function expectError(promise: Promise<unknown>, code: ErrorCode): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(ApiError)
  expect(error).toMatchObject({ code, status: ERROR_STATUS[code], body: { error: code } })
}

describe('payments domain', () => {
  const t = useTestApp()
  const db = () => t.deps.db

  async function completedGame(paymentMode: 'offline' | 'platform' = 'offline', payCents = 4500) {
    const leagueId = await seedLeague(db(), { paymentMode })
    const seeded = await seedClaimedGame(db(), leagueId, payCents)
    const detail = await completeGame(played(t.deps), CONSOLE_CALLER, seeded.gameId)
    const payment = detail.positions[0]!.payment!
    return { leagueId, ...seeded, detail, payment }
  }

  async function setPaymentStatus(id: string, status: PaymentStatus) {
    await db().updateTable('payments').set({ status }).where('id', '=', id).execute()
  }

  describe('completeGame', () => {
    it('completes every worked position with one pending payment in the league’s mode and currency', async () => {
      const leagueId = await seedLeague(db(), { paymentMode: 'platform', currency: 'eur' })
      const [a, b] = [await seedUser(db(), { name: 'Ann' }), await seedUser(db(), { name: 'Bob' })]
      for (const id of [a, b]) await seedMembership(db(), leagueId, id)
      const { id: gameId, positionIds } = await seedGame(db(), leagueId, {
        positions: [
          { payCents: 4500, officialId: a },
          { status: 'cancelled' },
          { payCents: 3050, officialId: b },
        ],
      })

      const detail = await completeGame(played(t.deps), CONSOLE_CALLER, gameId)

      expect(detail).toMatchObject({ id: gameId, leagueId, status: 'completed' })
      const [first, cancelled, third] = detail.positions
      expect(first).toMatchObject({
        id: positionIds[0],
        status: 'completed',
        official: { id: a, name: 'Ann', claimStatus: 'confirmed' },
        payment: {
          positionId: positionIds[0],
          officialId: a,
          amountCents: 4500,
          amountDollars: 45,
          currency: 'eur',
          mode: 'platform',
          status: 'pending',
          paidAt: null,
          failureCode: null,
          failureMessage: null,
        },
      })
      expect(first!.payment!.createdAt).toMatch(ISO)
      expect(cancelled).toMatchObject({ status: 'cancelled', official: null, payment: null })
      expect(third).toMatchObject({
        status: 'completed',
        payment: { officialId: b, amountCents: 3050, amountDollars: 30.5 },
      })
      expect(await eventsOf(db(), leagueId)).toEqual([
        { event: 'game.completed', data: { ...detail, leagueId } },
      ])
      expect(await listPayments(t.deps, CONSOLE_CALLER, leagueId)).toEqual([third!.payment, first!.payment])
    })

    it('creates a zero-amount payment for an unpaid slot', async () => {
      const { payment } = await completedGame('offline', 0)
      expect(payment).toMatchObject({ amountCents: 0, amountDollars: 0, status: 'pending' })
    })

    it('refuses a game with an open slot: game_not_claimed, nothing written', async () => {
      const leagueId = await seedLeague(db())
      const official = await seedUser(db())
      await seedMembership(db(), leagueId, official)
      const { id: gameId } = await seedGame(db(), leagueId, { positions: [{ officialId: official }, {}] })
      await expectError(completeGame(played(t.deps), CONSOLE_CALLER, gameId), 'game_not_claimed')
      expect(await listPayments(t.deps, CONSOLE_CALLER, leagueId)).toEqual([])
      expect(await eventsOf(db(), leagueId)).toEqual([])
      const row = await db().selectFrom('positions').select('status').where('game_id', '=', gameId).execute()
      expect(row.map((r) => r.status)).toEqual(['claimed', 'open'])
    })

    it('refuses a game before its start: game_not_started, nothing written; at its start it completes', async () => {
      const leagueId = await seedLeague(db())
      const { gameId } = await seedClaimedGame(db(), leagueId)
      const start = new Date('2030-05-01T18:00:00.000Z')
      const before = asOf(t.deps, new Date(start.getTime() - 1))
      await expectError(completeGame(before, CONSOLE_CALLER, gameId), 'game_not_started')
      expect(await listPayments(t.deps, CONSOLE_CALLER, leagueId)).toEqual([])
      expect(await eventsOf(db(), leagueId)).toEqual([])
      const game = await db().selectFrom('games').select('status').where('id', '=', gameId).executeTakeFirst()
      expect(game?.status).toBe('claimed')
      expect((await completeGame(asOf(t.deps, start), CONSOLE_CALLER, gameId)).status).toBe('completed')
    })

    it('refuses a completed or cancelled game: game_not_claimed', async () => {
      const { gameId, leagueId } = await completedGame()
      await expectError(completeGame(played(t.deps), CONSOLE_CALLER, gameId), 'game_not_claimed')
      expect(await listPayments(t.deps, CONSOLE_CALLER, leagueId)).toHaveLength(1)

      const cancelled = await seedClaimedGame(db(), leagueId)
      await db()
        .updateTable('games')
        .set({ status: 'cancelled' })
        .where('id', '=', cancelled.gameId)
        .execute()
      await expectError(completeGame(played(t.deps), CONSOLE_CALLER, cancelled.gameId), 'game_not_claimed')
    })

    it('lets exactly one of two racing completions win', async () => {
      const leagueId = await seedLeague(db())
      const { gameId } = await seedClaimedGame(db(), leagueId)
      const results = await Promise.allSettled([
        completeGame(played(t.deps), CONSOLE_CALLER, gameId),
        completeGame(played(t.deps), CONSOLE_CALLER, gameId),
      ])
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
      const [lost] = results.filter((r) => r.status === 'rejected')
      expect(lost!.reason).toMatchObject({ code: 'game_not_claimed' })
      expect(await listPayments(t.deps, CONSOLE_CALLER, leagueId)).toHaveLength(1)
      expect((await eventsOf(db(), leagueId)).map((e) => e.event)).toEqual(['game.completed'])
    })

    it('answers game_not_found for an unknown game', async () => {
      await expectError(completeGame(played(t.deps), CONSOLE_CALLER, 'nope'), 'game_not_found')
    })
  })

  describe('markNoShow', () => {
    it('cancels the worked position unpaid, keeps the claim and removes the pending payment', async () => {
      const { leagueId, gameId, positionIds, officialId } = await completedGame()
      const detail = await markNoShow(t.deps, CONSOLE_CALLER, positionIds[0]!)
      expect(detail).toMatchObject({ id: gameId, status: 'completed' })
      expect(detail.positions[0]).toMatchObject({
        status: 'cancelled',
        official: { id: officialId, claimStatus: 'confirmed' },
        payment: null,
      })
      expect(await listPayments(t.deps, CONSOLE_CALLER, leagueId)).toEqual([])
      const events = await eventsOf(db(), leagueId)
      expect(events.map((e) => e.event)).toEqual(['game.completed', 'official.no_show'])
      expect(events[1]!.data).toEqual({
        leagueId,
        game: detail,
        positionId: positionIds[0],
        official: detail.positions[0]!.official,
      })
    })

    it.each<[PaymentStatus, boolean]>([
      ['pending', false],
      ['requires_card', false],
      ['failed', false],
      ['processing', true],
      ['paid', true],
    ])('a %s payment is kept: %s', async (status, kept) => {
      const { positionIds, payment } = await completedGame('platform')
      await setPaymentStatus(payment.id, status)
      const detail = await markNoShow(t.deps, CONSOLE_CALLER, positionIds[0]!)
      expect(detail.positions[0]!.status).toBe('cancelled')
      expect(detail.positions[0]!.payment).toEqual(kept ? { ...payment, status } : null)
    })

    it('refuses a position of a game that is not completed: game_not_completed', async () => {
      const leagueId = await seedLeague(db())
      const { positionIds } = await seedClaimedGame(db(), leagueId)
      await expectError(markNoShow(t.deps, CONSOLE_CALLER, positionIds[0]!), 'game_not_completed')
    })

    it('refuses a position that is not a worked one: position_not_claimed', async () => {
      const { positionIds } = await completedGame()
      await markNoShow(t.deps, CONSOLE_CALLER, positionIds[0]!)
      await expectError(markNoShow(t.deps, CONSOLE_CALLER, positionIds[0]!), 'position_not_claimed')
    })

    it('answers position_not_found for an unknown position', async () => {
      await expectError(markNoShow(t.deps, CONSOLE_CALLER, 'nope'), 'position_not_found')
    })
  })

  describe('markPaid', () => {
    it('settles an offline pending payment and emits payment.paid', async () => {
      const { leagueId, payment } = await completedGame('offline')
      const paid = await markPaid(t.deps, CONSOLE_CALLER, payment.id)
      expect(paid).toEqual({ ...payment, status: 'paid', paidAt: expect.stringMatching(ISO) })
      const events = await eventsOf(db(), leagueId)
      expect(events.at(-1)).toEqual({ event: 'payment.paid', data: { leagueId, payment: paid } })
    })

    it('refuses a platform payment: payment_not_offline', async () => {
      const { payment } = await completedGame('platform')
      await expectError(markPaid(t.deps, CONSOLE_CALLER, payment.id), 'payment_not_offline')
    })

    it('refuses a payment that is not pending: payment_not_pending', async () => {
      const { payment } = await completedGame('offline')
      await markPaid(t.deps, CONSOLE_CALLER, payment.id)
      await expectError(markPaid(t.deps, CONSOLE_CALLER, payment.id), 'payment_not_pending')
    })

    it('answers payment_not_found for an unknown payment', async () => {
      await expectError(markPaid(t.deps, CONSOLE_CALLER, 'nope'), 'payment_not_found')
    })
  })

  describe('chargePayment', () => {
    const withProcessor = (paymentProcessor: PaymentProcessor) => ({ ...t.deps, paymentProcessor })

    it('commits processing, charges outside the transaction with the payment id, then records paid', async () => {
      const { leagueId, payment, officialId } = await completedGame('platform', 4500)
      const seen: { request: ChargeRequest; status: string | undefined }[] = []
      const processor: PaymentProcessor = {
        async charge(request) {
          // Reading through deps.db here would deadlock SQLite if a transaction were still open.
          const row = await db()
            .selectFrom('payments')
            .select('status')
            .where('id', '=', request.paymentId)
            .executeTakeFirst()
          seen.push({ request, status: row?.status })
          return { status: 'paid' }
        },
      }
      const paid = await chargePayment(withProcessor(processor), CONSOLE_CALLER, payment.id)
      expect(seen).toEqual([
        {
          request: { paymentId: payment.id, amountCents: 4500, currency: 'usd', officialId },
          status: 'processing',
        },
      ])
      expect(paid).toEqual({ ...payment, status: 'paid', paidAt: expect.stringMatching(ISO) })
      expect((await eventsOf(db(), leagueId)).at(-1)).toEqual({
        event: 'payment.paid',
        data: { leagueId, payment: paid },
      })
    })

    it('records a decline as failed with its code and message and emits payment.failed', async () => {
      const { leagueId, payment } = await completedGame('platform')
      const failed = await chargePayment(
        withProcessor(simulatedProcessor('failed')),
        CONSOLE_CALLER,
        payment.id,
      )
      expect(failed).toEqual({
        ...payment,
        status: 'failed',
        failureCode: 'card_declined',
        failureMessage: 'The card was declined (simulated).',
      })
      expect((await eventsOf(db(), leagueId)).at(-1)).toEqual({
        event: 'payment.failed',
        data: { leagueId, payment: failed },
      })
    })

    it('records requires_card without an event; requires_card and failed can be charged again', async () => {
      const { leagueId, payment } = await completedGame('platform')
      const needsCard = await chargePayment(
        withProcessor(simulatedProcessor('requires_card')),
        CONSOLE_CALLER,
        payment.id,
      )
      expect(needsCard).toEqual({ ...payment, status: 'requires_card' })
      expect((await eventsOf(db(), leagueId)).map((e) => e.event)).toEqual(['game.completed'])

      await chargePayment(withProcessor(simulatedProcessor('failed')), CONSOLE_CALLER, payment.id)
      const paid = await chargePayment(withProcessor(simulatedProcessor('paid')), CONSOLE_CALLER, payment.id)
      expect(paid).toMatchObject({ status: 'paid', failureCode: null, failureMessage: null })
      expect((await eventsOf(db(), leagueId)).map((e) => e.event)).toEqual([
        'game.completed',
        'payment.failed',
        'payment.paid',
      ])
    })

    it('leaves the payment processing when the processor throws, and never charges it again', async () => {
      const { payment } = await completedGame('platform')
      let calls = 0
      const flaky: PaymentProcessor = {
        async charge() {
          calls += 1
          throw new Error('connection reset')
        },
      }
      await expect(chargePayment(withProcessor(flaky), CONSOLE_CALLER, payment.id)).rejects.toThrow(
        'connection reset',
      )
      await expectError(
        chargePayment(withProcessor(flaky), CONSOLE_CALLER, payment.id),
        'payment_not_chargeable',
      )
      expect(calls).toBe(1)
      const row = await db()
        .selectFrom('payments')
        .select('status')
        .where('id', '=', payment.id)
        .executeTakeFirstOrThrow()
      expect(row.status).toBe('processing')
    })

    it('charges once when two charges race', async () => {
      const { payment } = await completedGame('platform')
      let calls = 0
      const counting: PaymentProcessor = {
        async charge() {
          calls += 1
          return { status: 'paid' }
        },
      }
      const deps = withProcessor(counting)
      const results = await Promise.allSettled([
        chargePayment(deps, CONSOLE_CALLER, payment.id),
        chargePayment(deps, CONSOLE_CALLER, payment.id),
      ])
      expect(calls).toBe(1)
      expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected'])
      const lost = results.find((r) => r.status === 'rejected')
      expect(lost!.reason).toMatchObject({ code: 'payment_not_chargeable' })
    })

    it('refuses an offline payment: payment_not_platform', async () => {
      const { payment } = await completedGame('offline')
      await expectError(chargePayment(t.deps, CONSOLE_CALLER, payment.id), 'payment_not_platform')
    })

    it.each<PaymentStatus>(['processing', 'paid'])(
      'refuses a %s payment: payment_not_chargeable',
      async (status) => {
        const { payment } = await completedGame('platform')
        await setPaymentStatus(payment.id, status)
        let calls = 0
        const counting: PaymentProcessor = {
          async charge() {
            calls += 1
            return { status: 'paid' }
          },
        }
        await expectError(
          chargePayment(withProcessor(counting), CONSOLE_CALLER, payment.id),
          'payment_not_chargeable',
        )
        expect(calls).toBe(0)
      },
    )

    it('answers payment_not_found for an unknown payment', async () => {
      await expectError(chargePayment(t.deps, CONSOLE_CALLER, 'nope'), 'payment_not_found')
    })
  })
})
