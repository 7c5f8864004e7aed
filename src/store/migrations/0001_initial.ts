// The whole v1 schema. `seq` is the internal insertion order (newest/oldest-first listings, tie-breaks);
// `id` is the public cuid2. Unique constraints carry the spec's invariants: (source, externalId) per
// resource type, one membership per user and league, one claim and one payment per position.
import type { CreateTableBuilder, Kysely } from 'kysely'
import { sql } from 'kysely'
import { isPostgres } from '../dialect.js'

type TableOf = (name: string) => CreateTableBuilder<string, never>

export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = isPostgres(db)
  const table = (name: string) => withSeq(db.schema.createTable(name), pg)
  await createPeopleAndLeagues(db, table)
  await createGames(db, table, pg ? 'double precision' : 'real')
  await createOutbox(db, table)
}

/** Users, partner keys and their grants, leagues and memberships. */
async function createPeopleAndLeagues(db: Kysely<unknown>, table: TableOf): Promise<void> {
  await table('users')
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('external_id', 'text')
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('users_source_external_id', ['source', 'external_id'])
    .execute()
  await db.schema.createIndex('users_source_email').on('users').columns(['source', 'email']).execute()

  await table('api_keys')
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('organizer_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .execute()

  await table('leagues')
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('external_id', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('payment_mode', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('organizer_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('leagues_source_external_id', ['source', 'external_id'])
    .execute()

  await db.schema
    .createTable('key_grants')
    .addColumn('key_id', 'text', (c) => c.notNull().references('api_keys.id').onDelete('cascade'))
    .addColumn('league_id', 'text', (c) => c.notNull().references('leagues.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('key_grants_pk', ['key_id', 'league_id'])
    .execute()

  await table('memberships')
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('league_id', 'text', (c) => c.notNull().references('leagues.id'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('memberships_league_user', ['league_id', 'user_id'])
    .execute()
}

/** Games, their positions, claims and payments. */
async function createGames(
  db: Kysely<unknown>,
  table: TableOf,
  float: 'double precision' | 'real',
): Promise<void> {
  await table('games')
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('league_id', 'text', (c) => c.notNull().references('leagues.id'))
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('external_id', 'text')
    .addColumn('sport', 'text', (c) => c.notNull())
    .addColumn('starts_at', 'text', (c) => c.notNull())
    .addColumn('location', 'text', (c) => c.notNull())
    .addColumn('latitude', float)
    .addColumn('longitude', float)
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('games_source_external_id', ['source', 'external_id'])
    .execute()
  await db.schema
    .createIndex('games_league_starts_at')
    .on('games')
    .columns(['league_id', 'starts_at'])
    .execute()

  await table('positions')
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('game_id', 'text', (c) => c.notNull().references('games.id'))
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('pay_cents', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('positions_game').on('positions').column('game_id').execute()

  await table('claims')
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('position_id', 'text', (c) => c.notNull().unique().references('positions.id'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('claims_user').on('claims').column('user_id').execute()

  await table('payments')
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('position_id', 'text', (c) => c.notNull().unique().references('positions.id'))
    .addColumn('official_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('league_id', 'text', (c) => c.notNull().references('leagues.id'))
    .addColumn('amount_cents', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('paid_at', 'text')
    .addColumn('failure_code', 'text')
    .addColumn('failure_message', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('payments_league').on('payments').column('league_id').execute()
}

async function createOutbox(db: Kysely<unknown>, table: TableOf): Promise<void> {
  await table('outbox_events')
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('league_id', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('outbox_events_league').on('outbox_events').column('league_id').execute()
}

function withSeq(builder: CreateTableBuilder<string, never>, pg: boolean) {
  return pg
    ? builder.addColumn('seq', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    : builder.addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const name of [
    'outbox_events',
    'payments',
    'claims',
    'positions',
    'games',
    'memberships',
    'key_grants',
    'leagues',
    'api_keys',
    'users',
  ]) {
    await sql`drop table if exists ${sql.table(name)}`.execute(db)
  }
}
