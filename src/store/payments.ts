import type { Kysely } from 'kysely'
import { leagueInScope, type Scope } from './scope.js'
import type { Db, PaymentRow, PaymentStatus } from './tables.js'

/** A payment whose league is in the scope. */
export function findPaymentInScope(
  db: Kysely<Db>,
  scope: Scope,
  id: string,
): Promise<PaymentRow | undefined> {
  if (scope.kind === 'console') return findPayment(db, id)
  return db
    .selectFrom('payments')
    .innerJoin('leagues', 'leagues.id', 'payments.league_id')
    .selectAll('payments')
    .where('payments.id', '=', id)
    .where(leagueInScope(scope))
    .executeTakeFirst()
}

function findPayment(db: Kysely<Db>, id: string): Promise<PaymentRow | undefined> {
  return db.selectFrom('payments').selectAll().where('id', '=', id).executeTakeFirst()
}

/** A payment with its position's label and the game it is for. */
export type PaymentWithGameRow = PaymentRow & {
  label: string
  game_id: string
  starts_at: string
  sport: string
  location: string
}

/** Payments joined to their position and game: what an official's earnings and a league's ledger show. */
export function selectPaymentsWithGame(db: Kysely<Db>) {
  return db
    .selectFrom('payments')
    .innerJoin('positions', 'positions.id', 'payments.position_id')
    .innerJoin('games', 'games.id', 'positions.game_id')
    .selectAll('payments')
    .select(['positions.label', 'games.id as game_id', 'games.starts_at', 'games.sport', 'games.location'])
}

/** The payout ledger of a league, newest first. */
export function listPayments(db: Kysely<Db>, leagueId: string): Promise<PaymentRow[]> {
  return db
    .selectFrom('payments')
    .selectAll()
    .where('league_id', '=', leagueId)
    .orderBy('seq', 'desc')
    .execute()
}

export async function insertPayments(
  db: Kysely<Db>,
  rows: readonly Omit<PaymentRow, 'seq'>[],
): Promise<void> {
  if (rows.length === 0) return
  await db.insertInto('payments').values(rows).execute()
}

export type PaymentChanges = Partial<
  Pick<PaymentRow, 'status' | 'paid_at' | 'failure_code' | 'failure_message' | 'updated_at'>
>

/**
 * Conditional update: applies only while the payment is still in one of `from`, so two racing settlements
 * cannot both succeed. Returns the updated row, or undefined when the payment had moved on.
 */
export function transitionPayment(
  db: Kysely<Db>,
  id: string,
  from: readonly PaymentStatus[],
  changes: PaymentChanges,
): Promise<PaymentRow | undefined> {
  return db
    .updateTable('payments')
    .set(changes)
    .where('id', '=', id)
    .where('status', 'in', from)
    .returningAll()
    .executeTakeFirst()
}

/** Deletes the position's payment when its status is one of `statuses`. */
export async function deletePositionPayment(
  db: Kysely<Db>,
  positionId: string,
  statuses: readonly PaymentStatus[],
): Promise<void> {
  await db
    .deleteFrom('payments')
    .where('position_id', '=', positionId)
    .where('status', 'in', statuses)
    .execute()
}
