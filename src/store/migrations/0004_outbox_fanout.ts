// Events are expanded into deliveries by the dispatcher, after the change commits, so that the cost of a
// write does not grow with the number of endpoints. `fanned_out_at` marks an expanded event; the partial
// index keeps finding the unexpanded ones cheap however long the outbox grows. Events already in the
// outbox were expanded when they were written.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('outbox_events').addColumn('fanned_out_at', 'text').execute()
  await sql`update outbox_events set fanned_out_at = created_at`.execute(db)
  await db.schema
    .createIndex('outbox_events_unexpanded')
    .on('outbox_events')
    .column('seq')
    .where(sql.ref('fanned_out_at'), 'is', null)
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('outbox_events_unexpanded').execute()
  await db.schema.alterTable('outbox_events').dropColumn('fanned_out_at').execute()
}
