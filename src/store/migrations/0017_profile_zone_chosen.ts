// When the person chose their time zone (issue 22, item 5): until they do, the app shows their first
// league's zone and mails the game's league's, so a profile row written for something else (a home point)
// no longer pins them to UTC. A zone other than UTC could only have been chosen; a stored UTC could be
// either, and counts as not chosen.
import { sql, type Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('profiles').addColumn('time_zone_chosen_at', 'text').execute()
  await sql`update profiles set time_zone_chosen_at = updated_at where time_zone <> 'UTC'`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('profiles').dropColumn('time_zone_chosen_at').execute()
}
