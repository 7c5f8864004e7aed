// Each delivery names the source that owns its endpoint, so the dispatchers can share their attempts
// fairly between sources (issue 21, item 1) without joining the endpoints in every lease, and count a
// source's test events. Existing rows take their endpoint's source.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('webhook_deliveries').addColumn('source', 'text').execute()
  await sql`update webhook_deliveries set source = (
    select e.source from webhook_endpoints e where e.id = webhook_deliveries.endpoint_id)`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('webhook_deliveries').dropColumn('source').execute()
}
