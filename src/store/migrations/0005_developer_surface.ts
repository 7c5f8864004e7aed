// Idempotency keys (a partner's retry of a non-idempotent POST replays the first answer) and what
// `refdesk keys list` shows of a key: its prefix and when it was last used.
import type { Kysely } from 'kysely'
import { sql } from 'kysely'
import { isPostgres } from '../dialect.js'

export async function up(db: Kysely<unknown>): Promise<void> {
  const seq = isPostgres(db)
    ? db.schema
        .createTable('idempotency_keys')
        .addColumn('seq', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    : db.schema
        .createTable('idempotency_keys')
        .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
  // One row per (API key, Idempotency-Key): `running` while the first request acts, then `completed` with
  // the answer it gave. `fingerprint` is the SHA-256 of the operation and its validated input.
  await seq
    .addColumn('api_key_id', 'text', (c) => c.notNull().references('api_keys.id').onDelete('cascade'))
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('response_status', 'integer')
    .addColumn('response_body', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('idempotency_keys_key', ['api_key_id', 'idempotency_key'])
    .execute()
  await db.schema
    .createIndex('idempotency_keys_created')
    .on('idempotency_keys')
    .column('created_at')
    .execute()

  // SQLite adds one column per ALTER TABLE. Keys issued before this migration have no prefix: only their
  // hash was ever stored.
  await db.schema.alterTable('api_keys').addColumn('prefix', 'text').execute()
  await db.schema.alterTable('api_keys').addColumn('last_used_at', 'text').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists idempotency_keys`.execute(db)
  await db.schema.alterTable('api_keys').dropColumn('last_used_at').execute()
  await db.schema.alterTable('api_keys').dropColumn('prefix').execute()
}
