// Schedule data (DESIGN "Running the assigning"): a league's time zone and assigning settings, a game's own
// length and its end, an official's level in a league and a position's minimum level.
//
// `games.ends_at` is stored, not derived on read: every Game answer carries `endsAt` without a join to its
// league, and the conflict rules compare [starts_at, ends_at) intervals in SQL across leagues. It is the
// game's own `duration_minutes` after `starts_at`, else the league's `game_minutes`; every writer of
// `starts_at`, `duration_minutes` or a league's `game_minutes` rewrites it (docs/decisions.md).
import { sql, type Kysely } from 'kysely'
import { isPostgres } from '../dialect.js'

const DEFAULT_GAME_MINUTES = 90

export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = isPostgres(db)
  // SQLite adds one column per ALTER TABLE.
  await db.schema
    .alterTable('leagues')
    .addColumn('time_zone', 'text', (c) => c.notNull().defaultTo('UTC'))
    .execute()
  await db.schema
    .alterTable('leagues')
    .addColumn('game_minutes', 'integer', (c) => c.notNull().defaultTo(DEFAULT_GAME_MINUTES))
    .execute()
  await db.schema
    .alterTable('leagues')
    .addColumn('travel_buffer_minutes', 'integer', (c) => c.notNull().defaultTo(30))
    .execute()
  await db.schema.alterTable('leagues').addColumn('max_games_per_day', 'integer').execute()
  await db.schema
    .alterTable('leagues')
    .addColumn('conflict_policy', 'text', (c) => c.notNull().defaultTo('allow'))
    .execute()

  await db.schema.alterTable('games').addColumn('duration_minutes', 'integer').execute()
  // SQLite cannot add a NOT NULL column without a default, nor drop the default afterwards: the empty
  // default is never left in place, the UPDATE below fills every existing row and writers always set it.
  await db.schema
    .alterTable('games')
    .addColumn('ends_at', 'text', (c) => c.notNull().defaultTo(''))
    .execute()
  const end = pg
    ? sql`to_char((starts_at::timestamptz + interval '${sql.raw(String(DEFAULT_GAME_MINUTES))} minutes') at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
    : sql`strftime('%Y-%m-%dT%H:%M:%fZ', starts_at, '+${sql.raw(String(DEFAULT_GAME_MINUTES))} minutes')`
  await sql`update games set ends_at = ${end}`.execute(db)
  if (pg) await sql`alter table games alter column ends_at drop default`.execute(db)

  await db.schema.alterTable('memberships').addColumn('level', 'integer').execute()
  await db.schema.alterTable('positions').addColumn('min_level', 'integer').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('positions').dropColumn('min_level').execute()
  await db.schema.alterTable('memberships').dropColumn('level').execute()
  await db.schema.alterTable('games').dropColumn('ends_at').execute()
  await db.schema.alterTable('games').dropColumn('duration_minutes').execute()
  for (const column of [
    'conflict_policy',
    'max_games_per_day',
    'travel_buffer_minutes',
    'game_minutes',
    'time_zone',
  ])
    await db.schema.alterTable('leagues').dropColumn(column).execute()
}
