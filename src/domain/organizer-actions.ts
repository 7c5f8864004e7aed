// The organizer's actions in the app. Each checks that the person organizes the league of what it touches
// (anything else is missing), then runs the very service `refdesk app` runs, so the rules, the transaction
// and the events are the console's. A league's organizer never changes, so the check cannot go stale.
import type { GameDetail } from '../schemas/games.js'
import type { Official } from '../schemas/officials.js'
import type { Payment } from '../schemas/payments.js'
import * as games from '../store/games.js'
import type { Deps } from './deps.js'
import { ApiError, fail } from './errors.js'
import { approveOfficial, denyOfficial } from './officials.js'
import { requireOrganizedLeague, requireOrganizedLeagueOf } from './organizer.js'
import { simulatedProcessor, type SimulatedOutcome } from './payment-processor.js'
import { chargePayment, completeGame, markNoShow, markPaid, markPaymentsPaid } from './payments.js'
import type { Person } from './sessions.js'

/**
 * `refdesk app complete` for the game's organizer. Of two completions racing, the loser is told the game is
 * already completed rather than that it is not claimed.
 */
export async function completeLeagueGame(deps: Deps, person: Person, gameId: string): Promise<GameDetail> {
  await requireOrganizedLeagueOf(deps, person, { gameId })
  try {
    return await completeGame(deps, gameId)
  } catch (error) {
    if (error instanceof ApiError && error.code === 'game_not_claimed') {
      const game = await games.findGame(deps.db, gameId)
      if (game?.status === 'completed') fail('game_already_completed')
    }
    throw error
  }
}

export async function recordNoShow(deps: Deps, person: Person, positionId: string): Promise<GameDetail> {
  await requireOrganizedLeagueOf(deps, person, { positionId })
  return markNoShow(deps, positionId)
}

export async function approveLeagueOfficial(
  deps: Deps,
  person: Person,
  leagueId: string,
  userId: string,
): Promise<Official> {
  const league = await requireOrganizedLeague(deps, person, leagueId)
  return approveOfficial(deps, league.id, userId)
}

export async function denyLeagueOfficial(
  deps: Deps,
  person: Person,
  leagueId: string,
  userId: string,
): Promise<Official> {
  const league = await requireOrganizedLeague(deps, person, leagueId)
  return denyOfficial(deps, league.id, userId)
}

export async function markLeaguePaymentPaid(deps: Deps, person: Person, paymentId: string): Promise<Payment> {
  await requireOrganizedLeagueOf(deps, person, { paymentId })
  return markPaid(deps, paymentId)
}

/** Several offline payments of the league paid in one transaction: all, or none when one is refused. */
export async function markLeaguePaymentsPaid(
  deps: Deps,
  person: Person,
  leagueId: string,
  paymentIds: readonly string[],
): Promise<Payment[]> {
  const league = await requireOrganizedLeague(deps, person, leagueId)
  return markPaymentsPaid(deps, league.id, paymentIds)
}

/**
 * `refdesk app charge` for the payment's organizer. With the simulated processor (the default until a real
 * one is wired in) the organizer picks its outcome, as `--outcome` does on the console.
 */
export async function chargeLeaguePayment(
  deps: Deps,
  person: Person,
  paymentId: string,
  outcome?: SimulatedOutcome,
): Promise<Payment> {
  await requireOrganizedLeagueOf(deps, person, { paymentId })
  const processor =
    outcome !== undefined && deps.paymentProcessor.simulated
      ? simulatedProcessor(outcome)
      : deps.paymentProcessor
  return chargePayment({ ...deps, paymentProcessor: processor }, paymentId)
}
