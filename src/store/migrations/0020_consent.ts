// Consent across leagues (issue 36, item 1; DESIGN "Consent"). A membership is confirmed once the person
// joins the league (`confirmed_at`); until then the league sees only its own facts about them. An
// organizer's own membership is theirs by creating the league. Every official membership that exists at
// the upgrade starts unconfirmed: nobody asked those people, and a consent cannot be inferred from a
// partner's upsert (docs/decisions.md, "Consent"). A notification remembers whether it went to a league
// the address had not joined, which the daily bound counts; an address whose owner pressed "Not you? Stop
// all mail" gets none until they sign in (`mail_stops`).
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('memberships').addColumn('confirmed_at', 'text').execute()
  await sql`update memberships set confirmed_at = created_at where role = 'organizer'`.execute(db)
  await db.schema
    .alterTable('notifications')
    .addColumn('unjoined', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
  await db.schema
    .createIndex('notifications_email_unjoined')
    .on('notifications')
    .columns(['email', 'unjoined', 'created_at'])
    .execute()
  await db.schema
    .createTable('mail_stops')
    .addColumn('email', 'text', (c) => c.primaryKey())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('mail_stops').execute()
  await db.schema.dropIndex('notifications_email_unjoined').execute()
  await db.schema.alterTable('notifications').dropColumn('unjoined').execute()
  await db.schema.alterTable('memberships').dropColumn('confirmed_at').execute()
}
