// The organizer's pages look leagues up by organizer: the session check on every app request (does this
// person organize a league?) and My leagues. Without the index each of them scans every league.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('leagues_organizer').on('leagues').column('organizer_id').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('leagues_organizer').execute()
}
