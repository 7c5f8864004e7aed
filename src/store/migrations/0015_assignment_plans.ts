// The assignor (issue 26): a person's home point on their profile, for the distance to a game, and the
// plans the assignor writes as drafts. A plan keeps its proposals, unfilled positions and stats as JSON:
// they are read and written whole (the plan page, publishing), never queried by field.
import type { Kysely } from 'kysely'
import { isPostgres } from '../dialect.js'

export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = isPostgres(db)
  const float = pg ? 'double precision' : 'real'
  // SQLite adds one column per ALTER TABLE.
  await db.schema.alterTable('profiles').addColumn('home_latitude', float).execute()
  await db.schema.alterTable('profiles').addColumn('home_longitude', float).execute()
  const table = db.schema.createTable('assignment_plans')
  await (
    pg
      ? table.addColumn('seq', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
      : table.addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
  )
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('league_id', 'text', (c) => c.notNull().references('leagues.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('from_at', 'text', (c) => c.notNull())
    .addColumn('to_at', 'text', (c) => c.notNull())
    .addColumn('proposals', 'text', (c) => c.notNull())
    .addColumn('unfilled', 'text', (c) => c.notNull())
    .addColumn('stats', 'text', (c) => c.notNull())
    // The publish's answer, kept so the plan page can show it again; null while a draft.
    .addColumn('outcome', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('published_at', 'text')
    .execute()
  await db.schema
    .createIndex('assignment_plans_league')
    .on('assignment_plans')
    .columns(['league_id', 'seq'])
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('assignment_plans').execute()
  await db.schema.alterTable('profiles').dropColumn('home_longitude').execute()
  await db.schema.alterTable('profiles').dropColumn('home_latitude').execute()
}
