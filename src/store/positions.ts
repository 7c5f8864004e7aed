import type { Kysely, Transaction } from 'kysely'
import { isPostgres } from './dialect.js'
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

/** Conditional status change of the given positions still in `from`; returns how many changed. */
export async function transitionPositions(
  db: Kysely<Db>,
  ids: readonly string[],
  from: PositionStatus,
  to: PositionStatus,
  at: string,
): Promise<number> {
  if (ids.length === 0) return 0
  const result = await db
    .updateTable('positions')
    .set({ status: to, updated_at: at })
    .where('id', 'in', ids)
    .where('status', '=', from)
    .executeTakeFirst()
  return Number(result.numUpdatedRows)
}

// Bounded so one statement stays under SQLite's and PostgreSQL's bind-parameter limits.
const INSERT_CHUNK = 500

export async function insertPositions(
  db: Kysely<Db>,
  rows: readonly Omit<PositionRow, 'seq'>[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    await db
      .insertInto('positions')
      .values(rows.slice(i, i + INSERT_CHUNK))
      .execute()
  }
}

/**
 * The games' positions in creation order, locked until the transaction ends (on PostgreSQL; SQLite's
 * IMMEDIATE transactions already hold the one writer lock). Whoever changes a game's positions takes
 * this first, so concurrent writers queue per game and each status rollup reads settled rows. Rows are
 * locked in `seq` order, the same for every caller, so two writers spanning several games never deadlock.
 */
export function lockPositions(trx: Transaction<Db>, gameIds: readonly string[]): Promise<PositionRow[]> {
  if (gameIds.length === 0) return Promise.resolve([])
  const query = trx.selectFrom('positions').selectAll().where('game_id', 'in', gameIds).orderBy('seq')
  return (isPostgres(trx) ? query.forUpdate() : query).execute()
}

/** open → claimed only while still open; false means another claim got there first. */
export async function claimIfOpen(db: Kysely<Db>, id: string, at: string): Promise<boolean> {
  const result = await db
    .updateTable('positions')
    .set({ status: 'claimed', updated_at: at })
    .where('id', '=', id)
    .where('status', '=', 'open')
    .executeTakeFirst()
  return result.numUpdatedRows > 0n
}

/** claimed → `to` only while still claimed; false means the position was not claimed. */
export async function releaseIfClaimed(
  db: Kysely<Db>,
  id: string,
  to: 'open' | 'cancelled',
  at: string,
): Promise<boolean> {
  const result = await db
    .updateTable('positions')
    .set({ status: to, updated_at: at })
    .where('id', '=', id)
    .where('status', '=', 'claimed')
    .executeTakeFirst()
  return result.numUpdatedRows > 0n
}
