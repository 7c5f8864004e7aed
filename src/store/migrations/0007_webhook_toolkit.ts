// The webhook toolkit: test events (outbox rows no league change caused, sent to one endpoint only),
// endpoint health (since when every attempt has failed, and when the endpoint was disabled for it), and
// the index that pages an endpoint's deliveries newest first by (created_at, seq) and finds its failed
// ones since a time.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  // SQLite adds one column per ALTER TABLE.
  await db.schema
    .alterTable('outbox_events')
    .addColumn('test', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
  await db.schema.alterTable('webhook_endpoints').addColumn('failing_since', 'text').execute()
  await db.schema.alterTable('webhook_endpoints').addColumn('disabled_at', 'text').execute()
  await db.schema
    .createIndex('webhook_deliveries_endpoint_created')
    .on('webhook_deliveries')
    .columns(['endpoint_id', 'created_at', 'seq'])
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('webhook_deliveries_endpoint_created').execute()
  await db.schema.alterTable('webhook_endpoints').dropColumn('disabled_at').execute()
  await db.schema.alterTable('webhook_endpoints').dropColumn('failing_since').execute()
  await db.schema.alterTable('outbox_events').dropColumn('test').execute()
}
