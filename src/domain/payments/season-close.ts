// Closing the season in the app: Complete selected and Charge selected. Each game is completed exactly as Complete completes it
// (its own `completeGame` transaction, its own `game.completed`), so one that cannot be completed is named
// with its reason while the others complete. Each batch first says what it will do (`preview…`): how many
// and for how much, acted on at a second press.
import { isoNow } from '../../clock.js'
import * as games from '../../store/games.js'
import * as positions from '../../store/positions.js'
import type { PaymentStatus } from '../../store/tables.js'
import { requireLeague, requirePayment } from '../core/access.js'
import type { Caller } from '../core/caller.js'
import type { Deps } from '../core/deps.js'
import { ApiError, fail, type ErrorCode } from '../core/errors.js'
import { canCharge, canComplete, canMarkPaid, chargePayment, completeGame } from './payments.js'

/** What a batch would do, said before it does it: how many of the selection it acts on, and their pay. */
export interface BatchPreview {
  readonly selected: number
  /** The selected ids it acts on, which the second press sends. */
  readonly ids: readonly string[]
  readonly count: number
  readonly totalCents: number
  readonly currency: string
}

export interface CompletionOutcome {
  readonly completed: readonly string[]
  readonly refused: readonly { readonly gameId: string; readonly code: ErrorCode }[]
}

/** At most this many games in one Complete selected: a page of the games list. */
export const MAX_SELECTED = 50

/**
 * Every id must name a game of this league the caller organizes, checked before anything is completed: a
 * foreign id answers `game_not_found` and completes none, as a missing one does.
 */
export async function completeSelected(
  deps: Deps,
  caller: Caller,
  leagueId: string,
  gameIds: readonly string[],
): Promise<CompletionOutcome> {
  const league = await requireLeague(deps.db, caller, leagueId)
  const ids = [...new Set(gameIds)].slice(0, MAX_SELECTED)
  for (const id of ids) {
    if ((await games.findGame(deps.db, id))?.league_id !== league.id) fail('game_not_found')
  }
  const completed: string[] = []
  const refused: { gameId: string; code: ErrorCode }[] = []
  for (const id of ids) {
    try {
      await completeGame(deps, caller, id)
      completed.push(id)
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 409) throw error
      refused.push({ gameId: id, code: error.code })
    }
  }
  return { completed, refused }
}

/** At most this many charges in one Charge selected: a page of the ledger. */
const MAX_CHARGED = 100

export interface ChargeOutcome {
  /** How many charges ended in each status (paid, failed, requires_card). */
  readonly charged: Readonly<Partial<Record<PaymentStatus, number>>>
  /** Selected payments that could not be charged (paid or being charged meanwhile, or offline). */
  readonly refused: readonly { readonly paymentId: string; readonly code: ErrorCode }[]
}

/**
 * Each selected platform payment charged as Charge charges it (its own transaction and processor call, its
 * own event). Every id must be a payment of this league first: a foreign one charges none.
 */
export async function chargeSelected(
  deps: Deps,
  caller: Caller,
  leagueId: string,
  paymentIds: readonly string[],
): Promise<ChargeOutcome> {
  const league = await requireLeague(deps.db, caller, leagueId)
  const ids = [...new Set(paymentIds)].slice(0, MAX_CHARGED)
  for (const id of ids) {
    if ((await requirePayment(deps.db, caller, id)).league_id !== league.id) fail('payment_not_found')
  }
  const charged: Partial<Record<PaymentStatus, number>> = {}
  const refused: { paymentId: string; code: ErrorCode }[] = []
  for (const id of ids) {
    try {
      const { status } = await chargePayment(deps, caller, id)
      charged[status] = (charged[status] ?? 0) + 1
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 409) throw error
      refused.push({ paymentId: id, code: error.code })
    }
  }
  return { charged, refused }
}

/** Complete selected, said first: the selected games that can be completed now, and the pay they create. */
export async function previewCompletion(
  deps: Deps,
  caller: Caller,
  leagueId: string,
  gameIds: readonly string[],
): Promise<BatchPreview> {
  const league = await requireLeague(deps.db, caller, leagueId)
  const ids = [...new Set(gameIds)].slice(0, MAX_SELECTED)
  const at = isoNow(deps.clock)
  const completable: string[] = []
  for (const id of ids) {
    const game = await games.findGame(deps.db, id)
    if (game?.league_id !== league.id) fail('game_not_found')
    if (canComplete(game, at)) completable.push(id)
  }
  const worked = (await positions.listPositions(deps.db, completable)).filter((p) => p.status === 'claimed')
  const totalCents = worked.reduce((sum, p) => sum + p.pay_cents, 0)
  return {
    selected: ids.length,
    ids: completable,
    count: completable.length,
    totalCents,
    currency: league.currency,
  }
}

/** Mark selected paid or Charge selected, said first: the selected payments it applies to, and their sum. */
export async function previewPayments(
  deps: Deps,
  caller: Caller,
  leagueId: string,
  paymentIds: readonly string[],
  action: 'mark_paid' | 'charge',
): Promise<BatchPreview> {
  const league = await requireLeague(deps.db, caller, leagueId)
  const ids = [...new Set(paymentIds)].slice(0, action === 'charge' ? MAX_CHARGED : undefined)
  const applies: string[] = []
  let totalCents = 0
  for (const id of ids) {
    const payment = await requirePayment(deps.db, caller, id)
    if (payment.league_id !== league.id) fail('payment_not_found')
    if (action === 'charge' ? canCharge(payment) : canMarkPaid(payment)) {
      applies.push(id)
      totalCents += payment.amount_cents
    }
  }
  return { selected: ids.length, ids: applies, count: applies.length, totalCents, currency: league.currency }
}
