// Closing the season in the app: Complete selected and Charge selected. Each game is completed exactly as Complete completes it
// (its own `completeGame` transaction, its own `game.completed`), so one that cannot be completed is named
// with its reason while the others complete.
import * as games from '../../store/games.js'
import type { PaymentStatus } from '../../store/tables.js'
import { requireLeague, requirePayment } from '../core/access.js'
import type { Caller } from '../core/caller.js'
import type { Deps } from '../core/deps.js'
import { ApiError, fail, type ErrorCode } from '../core/errors.js'
import { chargePayment, completeGame } from './payments.js'

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
