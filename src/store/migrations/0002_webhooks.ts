// Webhook endpoints, one delivery per (event, endpoint), and every attempt of a delivery. Deleting an
// endpoint removes its history (cascade). A delivery is leased by one dispatcher at a time
// (`lease_owner`, `lease_until`); an expired lease makes it claimable again.
import type { CreateTableBuilder, Kysely } from 'kysely'
import { sql } from 'kysely'
import { isPostgres } from '../dialect.js'

export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = isPostgres(db)
  const table = (name: string) => withSeq(db.schema.createTable(name), pg)

  await table('webhook_endpoints')
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('webhook_endpoints_source').on('webhook_endpoints').column('source').execute()
  await db.schema.createIndex('webhook_endpoints_key').on('webhook_endpoints').column('key_id').execute()

  await table('webhook_deliveries')
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('endpoint_id', 'text', (c) =>
      c.notNull().references('webhook_endpoints.id').onDelete('cascade'),
    )
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('last_status_code', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_attempt_at', 'text')
    .addColumn('next_attempt_at', 'text')
    .addColumn('delivered_at', 'text')
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'text')
    .addUniqueConstraint('webhook_deliveries_endpoint_event', ['endpoint_id', 'event_id'])
    .execute()
  await db.schema
    .createIndex('webhook_deliveries_due')
    .on('webhook_deliveries')
    .columns(['status', 'next_attempt_at'])
    .execute()

  await table('webhook_attempts')
    .addColumn('delivery_id', 'text', (c) =>
      c.notNull().references('webhook_deliveries.id').onDelete('cascade'),
    )
    .addColumn('attempted_at', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('error', 'text')
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('webhook_attempts_delivery')
    .on('webhook_attempts')
    .column('delivery_id')
    .execute()
}

function withSeq(builder: CreateTableBuilder<string, never>, pg: boolean) {
  return pg
    ? builder.addColumn('seq', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    : builder.addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const name of ['webhook_attempts', 'webhook_deliveries', 'webhook_endpoints']) {
    await sql`drop table if exists ${sql.table(name)}`.execute(db)
  }
}
