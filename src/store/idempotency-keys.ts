// Idempotency keys: one row per (API key, Idempotency-Key). A request reserves its key in a transaction
// of its own (the unique constraint picks one winner among concurrent requests), acts, then records its
// answer on the row it reserved.
import type { Kysely, Transaction } from 'kysely'
import type { Db, IdempotencyKeyRow } from './tables.js'

export interface KeyRef {
  apiKeyId: string
  key: string
}

export interface Reservation extends KeyRef {
  fingerprint: string
  createdAt: string
}

/** Drops rows past their replay window, and this key's reservation if it was left running too long. */
export async function purgeExpired(
  trx: Transaction<Db>,
  ref: KeyRef,
  expiredBefore: string,
  staleBefore: string,
): Promise<void> {
  await trx.deleteFrom('idempotency_keys').where('created_at', '<', expiredBefore).execute()
  await trx
    .deleteFrom('idempotency_keys')
    .where('api_key_id', '=', ref.apiKeyId)
    .where('idempotency_key', '=', ref.key)
    .where('status', '=', 'running')
    .where('created_at', '<', staleBefore)
    .execute()
}

/** Inserts a running reservation and answers its row number; undefined when the key is already taken. */
export async function reserve(trx: Transaction<Db>, row: Reservation): Promise<number | undefined> {
  const inserted = await trx
    .insertInto('idempotency_keys')
    .values({
      api_key_id: row.apiKeyId,
      idempotency_key: row.key,
      fingerprint: row.fingerprint,
      status: 'running',
      created_at: row.createdAt,
    })
    .onConflict((oc) => oc.columns(['api_key_id', 'idempotency_key']).doNothing())
    .returning('seq')
    .executeTakeFirst()
  return inserted?.seq
}

export function findKey(db: Kysely<Db>, ref: KeyRef): Promise<IdempotencyKeyRow | undefined> {
  return db
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('api_key_id', '=', ref.apiKeyId)
    .where('idempotency_key', '=', ref.key)
    .executeTakeFirst()
}

/** Records the answer on the reservation `seq`, if it is still running (no one took it over). */
export async function complete(
  db: Kysely<Db>,
  seq: number,
  answer: { status: number; body: string },
): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({ status: 'completed', response_status: answer.status, response_body: answer.body })
    .where('seq', '=', seq)
    .where('status', '=', 'running')
    .execute()
}

/** Gives the key back: the request failed without an answer worth replaying. */
export async function release(db: Kysely<Db>, seq: number): Promise<void> {
  await db.deleteFrom('idempotency_keys').where('seq', '=', seq).where('status', '=', 'running').execute()
}
