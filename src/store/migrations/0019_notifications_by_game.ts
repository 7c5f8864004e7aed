// Two index changes that keep a queued mail to as few index entries as the outbox's reads need.
// - Notifications are found by position only among their game's (the Schedule's marks, the league page's
//   turnbacks, a released position's reminder), so the game's index serves those reads too. The position
//   index cost every queued mail one more entry at a random place: a rescheduled season of 500 held games
//   wrote 500 of them into the import's transaction, each dirtying a page of its own.
// - The sender reads only pending rows by due time, so only pending rows are indexed by it: sent, dropped
//   and skipped rows leave the index instead of growing it forever. Without statistics, SQLite also chose
//   the old (status, due_at) index over the game's for "these games' pending reminders", reading every
//   pending row to drop or move a few.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('notifications_position').execute()
  await db.schema.dropIndex('notifications_due').execute()
  await db.schema
    .createIndex('notifications_due')
    .on('notifications')
    .column('due_at')
    .where(sql.ref('status'), '=', 'pending')
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('notifications_due').execute()
  await db.schema.createIndex('notifications_due').on('notifications').columns(['status', 'due_at']).execute()
  await db.schema.createIndex('notifications_position').on('notifications').column('position_id').execute()
}
