// Sessions end after a spell without use (REFDESK_SESSION_IDLE_HOURS), not only at their expiry: each keeps
// when it was last used. Existing sessions start counting from their creation.
import type { Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sessions').addColumn('last_seen_at', 'text').execute()
  // Sign out everywhere deletes a person's sessions by address.
  await db.schema.createIndex('sessions_email').on('sessions').column('email').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('sessions_email').execute()
  await db.schema.alterTable('sessions').dropColumn('last_seen_at').execute()
}
