// No query reads notifications by league and kind (the league page's turnbacks are read by position), so
// their index only cost every queued mail a fourth index entry: a rescheduled season queues a thousand.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('notifications_league_kind').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('notifications_league_kind')
    .on('notifications')
    .columns(['league_id', 'kind', 'created_at'])
    .execute()
}
