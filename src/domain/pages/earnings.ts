// An official's payments across their leagues, newest first, with totals per currency: paid, and pending
// (every payment not yet paid: pending, processing, requires_card or failed, which is still owed).
import type { PaymentStatus } from '../../store/tables.js'
import * as officialGames from '../../store/official-games.js'
import type { Deps } from '../core/deps.js'
import type { PersonCaller } from '../core/caller.js'

export interface Earning {
  readonly paymentId: string
  readonly status: PaymentStatus
  readonly amountCents: number
  readonly currency: string
  readonly paidAt: string | null
  readonly gameId: string
  readonly label: string
  readonly startsAt: string
  readonly sport: string
  readonly location: string
  readonly leagueName: string
}

export interface EarningTotal {
  readonly currency: string
  readonly pendingCents: number
  readonly paidCents: number
}

export async function listEarnings(
  deps: Deps,
  person: PersonCaller,
): Promise<{ payments: Earning[]; totals: EarningTotal[] }> {
  const rows = await officialGames.listEarnings(deps.db, person.userIds)
  const totals = new Map<string, { currency: string; pendingCents: number; paidCents: number }>()
  for (const row of rows) {
    const total = totals.get(row.currency) ?? { currency: row.currency, pendingCents: 0, paidCents: 0 }
    if (row.status === 'paid') total.paidCents += row.amount_cents
    else total.pendingCents += row.amount_cents
    totals.set(row.currency, total)
  }
  return {
    payments: rows.map((row) => ({
      paymentId: row.id,
      status: row.status,
      amountCents: row.amount_cents,
      currency: row.currency,
      paidAt: row.paid_at,
      gameId: row.game_id,
      label: row.label,
      startsAt: row.starts_at,
      sport: row.sport,
      location: row.location,
      leagueName: row.league_name,
    })),
    totals: [...totals.values()].sort((a, b) => a.currency.localeCompare(b.currency)),
  }
}
