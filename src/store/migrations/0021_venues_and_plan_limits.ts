// Issue 36, items 3 and 5. A game's `venue` (the complex it is played at, DESIGN "Tournament scale"):
// between two games at one venue the travel buffer does not apply. Plans are pruned per league by age
// and count (docs/decisions.md), so the drafts of a league are read by their status in insertion order.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('games').addColumn('venue', 'text').execute()
  await db.schema
    .createIndex('assignment_plans_league_status')
    .on('assignment_plans')
    .columns(['league_id', 'status', 'seq'])
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('assignment_plans_league_status').execute()
  await db.schema.alterTable('games').dropColumn('venue').execute()
}
