// The organizer's ledger in the app: a league's payments a page at a time (optionally of one status) with
// the game and official of each, the totals per status and currency and per official, one line, and the
// whole for the CSV.
import * as organizer from '../../store/organizer.js'
import type { LedgerRow } from '../../store/organizer.js'
import type { PaymentMode, PaymentStatus } from '../../store/tables.js'
import { requirePayment } from '../core/access.js'
import type { Caller } from '../core/caller.js'
import type { Deps } from '../core/deps.js'
import { fail } from '../core/errors.js'
import { requireOrganizedLeague, type OrganizedLeague } from './organize.js'
import { canCharge, canMarkPaid } from '../payments/payments.js'

const LEDGER_PAGE_SIZE = 100

export interface LedgerLine {
  readonly id: string
  readonly status: PaymentStatus
  readonly mode: PaymentMode
  readonly amountCents: number
  readonly currency: string
  readonly paidAt: string | null
  readonly failureMessage: string | null
  readonly createdAt: string
  readonly gameId: string
  readonly startsAt: string
  readonly sport: string
  readonly location: string
  readonly label: string
  readonly officialId: string
  readonly officialName: string
  readonly officialEmail: string
  /** Mark paid applies: an offline payment still pending. */
  readonly payable: boolean
  /** Charge applies: a platform payment pending, failed or waiting for a card. */
  readonly chargeable: boolean
}

export interface LedgerTotal {
  readonly status: PaymentStatus
  readonly currency: string
  readonly count: number
  readonly cents: number
}

/** What the league owes one official and has paid them, in one currency. */
export interface OfficialTotal {
  readonly officialId: string
  readonly name: string
  readonly currency: string
  /** Not paid yet: pending, processing, needing a card, failed. */
  readonly owedCents: number
  readonly paidCents: number
  readonly count: number
}

/** Per official and currency, by name; from the grouped sums of the whole ledger. */
function officialTotals(rows: readonly organizer.OfficialTotalRow[]): OfficialTotal[] {
  const totals = new Map<string, { -readonly [K in keyof OfficialTotal]: OfficialTotal[K] }>()
  for (const row of rows) {
    const key = `${row.official_id} ${row.currency}`
    const total = totals.get(key) ?? {
      officialId: row.official_id,
      name: row.name || row.email,
      currency: row.currency,
      owedCents: 0,
      paidCents: 0,
      count: 0,
    }
    if (row.status === 'paid') total.paidCents += row.cents
    else total.owedCents += row.cents
    total.count += row.count
    totals.set(key, total)
  }
  return [...totals.values()].sort(
    (a, b) => a.name.localeCompare(b.name) || a.currency.localeCompare(b.currency),
  )
}

const toLedgerLine = (row: LedgerRow): LedgerLine => ({
  id: row.id,
  status: row.status,
  mode: row.mode,
  amountCents: row.amount_cents,
  currency: row.currency,
  paidAt: row.paid_at,
  failureMessage: row.failure_message,
  createdAt: row.created_at,
  gameId: row.game_id,
  startsAt: row.starts_at,
  sport: row.sport,
  location: row.location,
  label: row.label,
  officialId: row.official_id,
  officialName: row.official_name,
  officialEmail: row.official_email,
  payable: canMarkPaid(row),
  chargeable: canCharge(row),
})

/** One page of the ledger (optionally of one status) and the league's totals per status and currency. */
export async function listLedger(
  deps: Deps,
  organizerOf: Caller,
  leagueId: string,
  query: { status?: PaymentStatus | undefined; page?: number | undefined },
): Promise<{
  league: OrganizedLeague
  payments: LedgerLine[]
  totals: LedgerTotal[]
  perOfficial: OfficialTotal[]
  more: boolean
}> {
  const league = await requireOrganizedLeague(deps.db, organizerOf, leagueId)
  const page = query.page ?? 1
  const [rows, totals, byOfficial] = await Promise.all([
    organizer.listLedger(deps.db, league.id, query.status, {
      limit: LEDGER_PAGE_SIZE + 1,
      offset: (page - 1) * LEDGER_PAGE_SIZE,
    }),
    organizer.ledgerTotals(deps.db, league.id),
    organizer.ledgerTotalsByOfficial(deps.db, league.id),
  ])
  return {
    league,
    payments: rows.slice(0, LEDGER_PAGE_SIZE).map(toLedgerLine),
    totals,
    perOfficial: officialTotals(byOfficial),
    more: rows.length > LEDGER_PAGE_SIZE,
  }
}

/** The whole ledger (optionally of one status), for the CSV export. */
export async function exportLedger(
  deps: Deps,
  organizerOf: Caller,
  leagueId: string,
  status: PaymentStatus | undefined,
): Promise<{ league: OrganizedLeague; payments: LedgerLine[] }> {
  const league = await requireOrganizedLeague(deps.db, organizerOf, leagueId)
  const rows = await organizer.listLedger(deps.db, league.id, status)
  return { league, payments: rows.map(toLedgerLine) }
}

/** One payment of an organized league, with its game and official; `payment_not_found` otherwise. */
export async function findLedgerLine(
  deps: Deps,
  organizerOf: Caller,
  paymentId: string,
): Promise<{ league: OrganizedLeague; payment: LedgerLine }> {
  const { league_id: leagueId } = await requirePayment(deps.db, organizerOf, paymentId)
  const league = await requireOrganizedLeague(deps.db, organizerOf, leagueId)
  const row = (await organizer.findLedgerRow(deps.db, league.id, paymentId)) ?? fail('payment_not_found')
  return { league, payment: toLedgerLine(row) }
}
