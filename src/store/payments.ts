import type { Kysely } from 'kysely'
import type { Db, PaymentRow } from './tables.js'

export function findPayment(db: Kysely<Db>, id: string): Promise<PaymentRow | undefined> {
  return db.selectFrom('payments').selectAll().where('id', '=', id).executeTakeFirst()
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
