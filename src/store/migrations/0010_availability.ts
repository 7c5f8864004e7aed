// A person's availability (issue 24): blackouts, weekly unavailability, busy calendars (an ICS address read
// every 15 minutes) and the busy events last read from each. A person is an email address, as at sign-in, so
// one availability holds across every league and partner.
import type { CreateTableBuilder, Kysely } from 'kysely'
import { sql } from 'kysely'
import { isPostgres } from '../dialect.js'

export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = isPostgres(db)
  const table = (name: string) => withSeq(db.schema.createTable(name), pg)

  // [starts_at, ends_at) as instants; a blackout given as days keeps them (first_day, last_day) for display.
  await table('blackouts')
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('starts_at', 'text', (c) => c.notNull())
    .addColumn('ends_at', 'text', (c) => c.notNull())
    .addColumn('first_day', 'text')
    .addColumn('last_day', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('blackouts_email').on('blackouts').columns(['email', 'starts_at']).execute()

  // Day of week 1 (Monday) to 7 (Sunday), times `HH:MM` in the person's time zone, read when checked.
  await table('weekly_unavailability')
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('day_of_week', 'integer', (c) => c.notNull())
    .addColumn('from_time', 'text', (c) => c.notNull())
    .addColumn('to_time', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('weekly_unavailability_email')
    .on('weekly_unavailability')
    .column('email')
    .execute()

  // next_fetch_at is also the lease: a process takes a due calendar by moving it forward conditionally.
  await table('busy_calendars')
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('fetched_at', 'text')
    .addColumn('last_error', 'text')
    .addColumn('next_fetch_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('busy_calendars_email').on('busy_calendars').column('email').execute()
  await db.schema.createIndex('busy_calendars_due').on('busy_calendars').column('next_fetch_at').execute()

  // The email is copied onto each event so a conflict check reads one index range per person.
  await table('busy_events')
    .addColumn('calendar_id', 'text', (c) => c.notNull().references('busy_calendars.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('starts_at', 'text', (c) => c.notNull())
    .addColumn('ends_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('busy_events_email').on('busy_events').columns(['email', 'starts_at']).execute()
  await db.schema.createIndex('busy_events_calendar').on('busy_events').column('calendar_id').execute()
}

function withSeq(builder: CreateTableBuilder<string, never>, pg: boolean) {
  return pg
    ? builder.addColumn('seq', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    : builder.addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const name of ['busy_events', 'busy_calendars', 'weekly_unavailability', 'blackouts']) {
    await sql`drop table if exists ${sql.table(name)}`.execute(db)
  }
}
