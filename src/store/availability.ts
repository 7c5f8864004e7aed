// A person's availability rows (migration 0010): blackouts, weekly windows, busy calendars and their events.
import type { Insertable, Kysely } from 'kysely'
import type { Db } from './tables.js'
import type { BlackoutRow, BusyCalendarRow, WeeklyRow } from './app-tables.js'
import { findPersonZones } from './people.js'

export async function insertBlackout(db: Kysely<Db>, row: Insertable<Db['blackouts']>): Promise<void> {
  await db.insertInto('blackouts').values(row).execute()
}

export async function insertWeekly(
  db: Kysely<Db>,
  row: Insertable<Db['weekly_unavailability']>,
): Promise<void> {
  await db.insertInto('weekly_unavailability').values(row).execute()
}

export async function insertCalendar(db: Kysely<Db>, row: Insertable<Db['busy_calendars']>): Promise<void> {
  await db.insertInto('busy_calendars').values(row).execute()
}

export async function countRows(
  db: Kysely<Db>,
  table: 'blackouts' | 'weekly_unavailability' | 'busy_calendars',
  email: string,
): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('email', '=', email)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

/** Deletes the person's row; false when they have no row with this id. */
export async function deleteOwned(
  db: Kysely<Db>,
  table: 'blackouts' | 'weekly_unavailability' | 'busy_calendars',
  email: string,
  id: string,
): Promise<boolean> {
  if (table === 'busy_calendars') {
    // The events go first: SQLite runs without cascading deletes unless foreign keys are on for the file.
    await db
      .deleteFrom('busy_events')
      .where('calendar_id', 'in', (eb) =>
        eb.selectFrom('busy_calendars').select('id').where('id', '=', id).where('email', '=', email),
      )
      .execute()
  }
  const result = await db.deleteFrom(table).where('id', '=', id).where('email', '=', email).executeTakeFirst()
  return result.numDeletedRows > 0n
}

export async function listBlackouts(db: Kysely<Db>, email: string): Promise<BlackoutRow[]> {
  return db
    .selectFrom('blackouts')
    .selectAll()
    .where('email', '=', email)
    .orderBy('starts_at')
    .orderBy('seq')
    .execute()
}

export async function listWeekly(db: Kysely<Db>, email: string): Promise<WeeklyRow[]> {
  return db
    .selectFrom('weekly_unavailability')
    .selectAll()
    .where('email', '=', email)
    .orderBy('day_of_week')
    .orderBy('from_time')
    .orderBy('seq')
    .execute()
}

export async function listCalendars(db: Kysely<Db>, email: string): Promise<BusyCalendarRow[]> {
  return db.selectFrom('busy_calendars').selectAll().where('email', '=', email).orderBy('seq').execute()
}

export async function findCalendar(db: Kysely<Db>, id: string): Promise<BusyCalendarRow | undefined> {
  return db.selectFrom('busy_calendars').selectAll().where('id', '=', id).executeTakeFirst()
}

/** Blackouts and busy-calendar events of these persons overlapping [from, to). */
export async function busyOverlapping(
  db: Kysely<Db>,
  emails: readonly string[],
  from: string,
  to: string,
): Promise<{ email: string; starts_at: string; ends_at: string }[]> {
  if (emails.length === 0) return []
  const overlapping = (table: 'blackouts' | 'busy_events') =>
    db
      .selectFrom(table)
      .select(['email', 'starts_at', 'ends_at'])
      .where('email', 'in', emails)
      .where('starts_at', '<', to)
      .where('ends_at', '>', from)
      .execute()
  const [blackouts, events] = await Promise.all([overlapping('blackouts'), overlapping('busy_events')])
  return [...blackouts, ...events]
}

/** The weekly windows of these persons. */
export async function listWeeklyOf(db: Kysely<Db>, emails: readonly string[]): Promise<WeeklyRow[]> {
  if (emails.length === 0) return []
  return db.selectFrom('weekly_unavailability').selectAll().where('email', 'in', emails).execute()
}

/** The calendars due for a read at `at`, oldest due first. */
export async function listDueCalendars(
  db: Kysely<Db>,
  at: string,
  limit: number,
): Promise<BusyCalendarRow[]> {
  return db
    .selectFrom('busy_calendars')
    .selectAll()
    .where('next_fetch_at', '<=', at)
    .orderBy('next_fetch_at')
    .limit(limit)
    .execute()
}

/**
 * Takes a due calendar for this process by moving its next read to `until`; false when another process
 * took it first (its next read has moved already).
 */
export async function leaseCalendar(
  db: Kysely<Db>,
  id: string,
  dueAt: string,
  until: string,
): Promise<boolean> {
  const result = await db
    .updateTable('busy_calendars')
    .set({ next_fetch_at: until })
    .where('id', '=', id)
    .where('next_fetch_at', '=', dueAt)
    .executeTakeFirst()
  return result.numUpdatedRows > 0n
}

/** The calendar's events become exactly these (in the caller's transaction). */
export async function replaceEvents(
  db: Kysely<Db>,
  calendar: { id: string; email: string },
  events: readonly { startsAt: string; endsAt: string }[],
  at: string,
): Promise<void> {
  await db.deleteFrom('busy_events').where('calendar_id', '=', calendar.id).execute()
  const rows = events.map((e) => ({
    calendar_id: calendar.id,
    email: calendar.email,
    starts_at: e.startsAt,
    ends_at: e.endsAt,
  }))
  // Chunks keep each statement under SQLite's and PostgreSQL's bound-parameter limits.
  for (let i = 0; i < rows.length; i += 500) {
    await db
      .insertInto('busy_events')
      .values(rows.slice(i, i + 500))
      .execute()
  }
  await db
    .updateTable('busy_calendars')
    .set({ fetched_at: at, last_error: null })
    .where('id', '=', calendar.id)
    .execute()
}

export async function recordFetchError(db: Kysely<Db>, id: string, error: string): Promise<void> {
  await db.updateTable('busy_calendars').set({ last_error: error }).where('id', '=', id).execute()
}

/** When the calendar is read next, and how many reads in a row failed or were slow (in the caller's transaction). */
export async function scheduleRead(
  db: Kysely<Db>,
  id: string,
  read: { failedReads: number; nextFetchAt: string },
): Promise<void> {
  await db
    .updateTable('busy_calendars')
    .set({ failed_reads: read.failedReads, next_fetch_at: read.nextFetchAt })
    .where('id', '=', id)
    .execute()
}

/** These persons' time zones, by email, as their pages show times (people.ts; those in no league are absent). */
export const findProfileZones = findPersonZones

/** The person's time zone, if any. */
export async function findProfileZone(db: Kysely<Db>, email: string): Promise<string | undefined> {
  return (await findProfileZones(db, [email])).get(email)
}
