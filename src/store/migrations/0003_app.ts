// The app's own state: single-use sign-in links, sessions, the sign-in rate-limit counters, each person's
// profile and private calendar feed. A person is an email address (docs/decisions.md); every secret is kept
// only as its SHA-256 (`*_hash`), so a copy of the database signs nobody in.
import type { CreateTableBuilder, Kysely } from 'kysely'
import { sql } from 'kysely'
import { isPostgres } from '../dialect.js'

export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = isPostgres(db)
  const table = (name: string) => withSeq(db.schema.createTable(name), pg)

  // Sign-in maps an address to every user row carrying it, in any source.
  await db.schema.createIndex('users_email').on('users').column('email').execute()

  await table('sign_in_links')
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute()
  await db.schema.createIndex('sign_in_links_expires').on('sign_in_links').column('expires_at').execute()

  // One counter per (address or client) hash and fixed window; an upsert counts atomically on both databases.
  await db.schema
    .createTable('sign_in_limits')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('window_started_at', 'text', (c) => c.notNull())
    .addColumn('hits', 'integer', (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('sign_in_limits_window')
    .on('sign_in_limits')
    .column('window_started_at')
    .execute()

  await table('sessions')
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('sessions_expires').on('sessions').column('expires_at').execute()

  await table('profiles')
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('time_zone', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute()

  await table('calendar_feeds')
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute()
}

function withSeq(builder: CreateTableBuilder<string, never>, pg: boolean) {
  return pg
    ? builder.addColumn('seq', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    : builder.addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const name of ['calendar_feeds', 'profiles', 'sessions', 'sign_in_limits', 'sign_in_links']) {
    await sql`drop table if exists ${sql.table(name)}`.execute(db)
  }
  await sql`drop index if exists users_email`.execute(db)
}
