import type { Kysely } from 'kysely'
import type { ClaimRow, Db, PaymentRow, PositionRow, PositionStatus, UserRow } from './tables.js'

/** Positions of the given games in creation order. */
export async function listPositions(db: Kysely<Db>, gameIds: readonly string[]): Promise<PositionRow[]> {
  if (gameIds.length === 0) return []
  return db.selectFrom('positions').selectAll().where('game_id', 'in', gameIds).orderBy('seq').execute()
}

export function findPosition(db: Kysely<Db>, id: string): Promise<PositionRow | undefined> {
  return db.selectFrom('positions').selectAll().where('id', '=', id).executeTakeFirst()
}

export type ClaimWithUser = ClaimRow & { user: Pick<UserRow, 'id' | 'name' | 'email'> }

/** Claims (with their official) and payments of the given positions, keyed by position id. */
export async function claimsAndPayments(
  db: Kysely<Db>,
  positionIds: readonly string[],
): Promise<{ claims: Map<string, ClaimWithUser>; payments: Map<string, PaymentRow> }> {
  const claims = new Map<string, ClaimWithUser>()
  const payments = new Map<string, PaymentRow>()
  if (positionIds.length === 0) return { claims, payments }
  const [claimRows, paymentRows] = await Promise.all([
    db
      .selectFrom('claims')
      .innerJoin('users', 'users.id', 'claims.user_id')
      .selectAll('claims')
      .select(['users.name as user_name', 'users.email as user_email'])
      .where('claims.position_id', 'in', positionIds)
      .execute(),
    db.selectFrom('payments').selectAll().where('position_id', 'in', positionIds).execute(),
  ])
  for (const { user_name, user_email, ...claim } of claimRows) {
    claims.set(claim.position_id, {
      ...claim,
      user: { id: claim.user_id, name: user_name, email: user_email },
    })
  }
  for (const payment of paymentRows) payments.set(payment.position_id, payment)
  return { claims, payments }
}

export async function setPositionStatus(
  db: Kysely<Db>,
  id: string,
  status: PositionStatus,
  at: string,
): Promise<void> {
  await db.updateTable('positions').set({ status, updated_at: at }).where('id', '=', id).execute()
}
