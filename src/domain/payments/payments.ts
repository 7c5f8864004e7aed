// Completion, no-shows and payouts: the in-app transitions that create and settle payments (no partner
// endpoint changes a payment), plus the read-only ledger. State machine and crash window: docs/payments.md.
import type { Transaction } from 'kysely'
import * as games from '../../store/games.js'
import * as leagues from '../../store/leagues.js'
import * as payments from '../../store/payments.js'
import * as positions from '../../store/positions.js'
import type { GameDetail } from '../../schemas/games.js'
import type { Payment } from '../../schemas/payments.js'
import type { Db, GameStatus, PaymentMode, PaymentStatus, PositionStatus } from '../../store/tables.js'
import { isoNow, newId } from '../../clock.js'
import { requireGame, requireLeague, requirePayment, requirePosition } from '../core/access.js'
import type { Caller } from '../core/caller.js'
import type { Deps } from '../core/deps.js'
import { fail } from '../core/errors.js'
import { domainEvent, recordEvents } from '../core/events.js'
import { notifyPaid, type NotifyDeps } from '../notifications/notifications.js'
import { simulatedProcessor, type ChargeOutcome, type SimulatedOutcome } from '../core/payment-processor.js'
import { loadGameDetail, toClaimOfficial, toPayment } from '../core/views.js'

const CHARGEABLE: readonly PaymentStatus[] = ['pending', 'requires_card', 'failed']
const PAYABLE_OFFLINE: readonly PaymentStatus[] = ['pending']
// A no-show keeps money that is moving or has moved; anything not yet settled is withdrawn.
const REMOVABLE_ON_NO_SHOW: readonly PaymentStatus[] = ['pending', 'requires_card', 'failed']

// The rules below, as predicates, so the app can say beforehand what an action will do or why it cannot.

/** Whether a no-show leaves this payment alone. */
export function noShowKeepsPayment(status: PaymentStatus): boolean {
  return !REMOVABLE_ON_NO_SHOW.includes(status)
}

/** Only a fully claimed game that has started by `at` can be completed. */
export const canComplete = (game: { status: GameStatus; starts_at: string }, at: string): boolean =>
  game.status === 'claimed' && game.starts_at <= at

/** A no-show is recorded on a worked (completed, claimed) position of a completed game. */
export const canRecordNoShow = (gameStatus: GameStatus, positionStatus: PositionStatus, claimed: boolean) =>
  gameStatus === 'completed' && positionStatus === 'completed' && claimed

export const canMarkPaid = (payment: { mode: PaymentMode; status: PaymentStatus }): boolean =>
  payment.mode === 'offline' && PAYABLE_OFFLINE.includes(payment.status)

export const canCharge = (payment: { mode: PaymentMode; status: PaymentStatus }): boolean =>
  payment.mode === 'platform' && CHARGEABLE.includes(payment.status)

export async function listPayments(deps: Deps, caller: Caller, leagueId: string): Promise<Payment[]> {
  const league = await requireLeague(deps.db, caller, leagueId)
  return (await payments.listPayments(deps.db, league.id)).map(toPayment)
}

/**
 * Game `claimed` → `completed`, once it has started (`game_not_started` before); each claimed position → `completed` with one pending Payment. A person (the
 * league's organizer in the app) who loses the race to another completion is told the game is already
 * completed; the console keeps the spec's `game_not_claimed` (docs/decisions.md).
 */
export async function completeGame(deps: Deps, caller: Caller, gameId: string): Promise<GameDetail> {
  return deps.db.transaction().execute(async (trx) => {
    const { id, league_id: leagueId } = await requireGame(trx, caller, gameId)
    // Positions are locked first, as every writer of a game's positions does, so none is released or
    // claimed under us; the game's compare-and-set then settles a race with a cancel or another completion.
    const slots = await positions.lockPositions(trx, [id])
    const at = isoNow(deps.clock)
    const game =
      (await games.transitionGameStatus(trx, id, 'claimed', 'completed', at)) ??
      (await refuseCompletion(trx, caller, id))
    // Read from the row just written, under the lock; the refusal rolls the transition back. A state that
    // forbids completion (cancelled, completed) is the better answer, hence after the transition.
    if (game.starts_at > at) fail('game_not_started')
    const worked = slots.filter((p) => p.status === 'claimed')
    const ids = worked.map((p) => p.id)
    await positions.transitionPositions(trx, ids, 'claimed', 'completed', at)
    const league = (await leagues.findLeague(trx, leagueId)) ?? fail('game_not_found')
    const { claims } = await positions.claimsAndPayments(trx, ids)
    await payments.insertPayments(
      trx,
      worked.map((p) => ({
        id: newId(),
        position_id: p.id,
        official_id: claims.get(p.id)?.user_id ?? fail('game_not_claimed'),
        league_id: league.id,
        amount_cents: p.pay_cents,
        currency: league.currency,
        mode: league.payment_mode,
        status: 'pending' as const,
        paid_at: null,
        failure_code: null,
        failure_message: null,
        created_at: at,
        updated_at: at,
      })),
    )
    const detail = await loadGameDetail(trx, game)
    await recordEvents(trx, [domainEvent('game.completed', leagueId, detail)], at)
    return detail
  })
}

async function refuseCompletion(trx: Transaction<Db>, caller: Caller, gameId: string): Promise<never> {
  if (caller.kind === 'person' && (await games.findGame(trx, gameId))?.status === 'completed') {
    fail('game_already_completed')
  }
  fail('game_not_claimed')
}

/**
 * A worked position of a completed game → `cancelled`, unpaid: the claim stays as the no-show record and
 * the payment is removed unless it is `processing` or `paid` (that money is already on its way).
 */
export async function markNoShow(deps: Deps, caller: Caller, positionId: string): Promise<GameDetail> {
  return deps.db.transaction().execute(async (trx) => {
    const position = await requirePosition(trx, caller, positionId)
    await positions.lockPositions(trx, [position.game_id])
    const game = await requireGame(trx, caller, position.game_id)
    if (game.status !== 'completed') fail('game_not_completed')
    const claim = (await positions.claimsAndPayments(trx, [position.id])).claims.get(position.id)
    const at = isoNow(deps.clock)
    const cancelled = await positions.transitionPositions(trx, [position.id], 'completed', 'cancelled', at)
    if (!claim || cancelled !== 1) fail('position_not_claimed')
    await payments.deletePositionPayment(trx, position.id, REMOVABLE_ON_NO_SHOW)
    const detail = await loadGameDetail(trx, game)
    const official = toClaimOfficial(claim)
    await recordEvents(
      trx,
      [domainEvent('official.no_show', game.league_id, { game: detail, positionId: position.id, official })],
      at,
    )
    return detail
  })
}

/** Offline settlement recorded by the organizer: `pending` → `paid`. */
export async function markPaid(deps: Deps, caller: Caller, paymentId: string): Promise<Payment> {
  return deps.db
    .transaction()
    .execute(async (trx) => settleOffline(trx, deps, caller, paymentId, isoNow(deps.clock)))
}

/**
 * Several offline payments of one league marked paid at once, in one transaction: all of them or, when one
 * is refused (another league's reads as missing), none. One `payment.paid` per payment.
 */
export async function markPaymentsPaid(
  deps: Deps,
  caller: Caller,
  leagueId: string,
  paymentIds: readonly string[],
): Promise<Payment[]> {
  return deps.db.transaction().execute(async (trx) => {
    // Checked even for an empty selection: another league's id answers as missing before anything else.
    const league = await requireLeague(trx, caller, leagueId)
    const at = isoNow(deps.clock)
    const paid: Payment[] = []
    for (const id of new Set(paymentIds)) paid.push(await settleOffline(trx, deps, caller, id, at, league.id))
    return paid
  })
}

async function settleOffline(
  trx: Transaction<Db>,
  deps: NotifyDeps,
  caller: Caller,
  paymentId: string,
  at: string,
  leagueId?: string,
): Promise<Payment> {
  const payment = await requirePayment(trx, caller, paymentId)
  if (leagueId !== undefined && payment.league_id !== leagueId) fail('payment_not_found')
  if (payment.mode !== 'offline') fail('payment_not_offline')
  const paid =
    (await payments.transitionPayment(trx, payment.id, PAYABLE_OFFLINE, {
      status: 'paid',
      paid_at: at,
      updated_at: at,
    })) ?? fail('payment_not_pending')
  await recordEvents(trx, [domainEvent('payment.paid', paid.league_id, { payment: toPayment(paid) })], at)
  await notifyPaid(trx, deps, at, paid)
  return toPayment(paid)
}

/**
 * Platform charge in three steps: commit `processing`, call the processor outside any transaction (a slow
 * processor must not hold a database lock), commit the outcome. A crash between the steps leaves the
 * payment `processing`, which is never charged again: see docs/payments.md. Access is checked in the first
 * step; only this flow settles a `processing` payment.
 */
export async function chargePayment(deps: Deps, caller: Caller, paymentId: string): Promise<Payment> {
  const processing = await deps.db.transaction().execute(async (trx) => {
    const payment = await requirePayment(trx, caller, paymentId)
    if (payment.mode !== 'platform') fail('payment_not_platform')
    return (
      (await payments.transitionPayment(trx, payment.id, CHARGEABLE, {
        status: 'processing',
        failure_code: null,
        failure_message: null,
        updated_at: isoNow(deps.clock),
      })) ?? fail('payment_not_chargeable')
    )
  })
  const outcome = await deps.paymentProcessor.charge({
    paymentId: processing.id,
    amountCents: processing.amount_cents,
    currency: processing.currency,
    officialId: processing.official_id,
  })
  return deps.db.transaction().execute(async (trx) => {
    const at = isoNow(deps.clock)
    const settled =
      (await payments.transitionPayment(trx, processing.id, ['processing'], outcomeChanges(outcome, at))) ??
      fail('payment_not_chargeable')
    const payment = toPayment(settled)
    if (settled.status === 'paid') {
      await recordEvents(trx, [domainEvent('payment.paid', settled.league_id, { payment })], at)
      await notifyPaid(trx, deps, at, settled)
    } else if (settled.status === 'failed') {
      await recordEvents(trx, [domainEvent('payment.failed', settled.league_id, { payment })], at)
    }
    return payment
  })
}

/**
 * The services charging with the outcome an organizer picked in the app, when they run the simulated
 * processor (the default until a real one is wired in), as `refdesk app charge --outcome` does; unchanged
 * otherwise.
 */
export function withSimulatedOutcome(deps: Deps, outcome: SimulatedOutcome | undefined): Deps {
  if (outcome === undefined || !deps.paymentProcessor.simulated) return deps
  return { ...deps, paymentProcessor: simulatedProcessor(outcome) }
}

function outcomeChanges(outcome: ChargeOutcome, at: string): payments.PaymentChanges {
  switch (outcome.status) {
    case 'paid':
      return { status: 'paid', paid_at: at, updated_at: at }
    case 'failed':
      return {
        status: 'failed',
        failure_code: outcome.failureCode,
        failure_message: outcome.failureMessage,
        updated_at: at,
      }
    case 'requires_card':
      return { status: 'requires_card', updated_at: at }
  }
}
