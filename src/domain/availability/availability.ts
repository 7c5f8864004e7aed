// A person's availability (DESIGN "Availability and conflicts"): blackouts, weekly unavailability and busy
// calendars, one set per email address across every league and partner. A busy calendar is read at save
// and every 15 minutes by the dispatcher's process (`refreshDueCalendars`), through `deps.readCalendar`:
// the webhook rules (address guard, time-out, size cap) applied by the composition root.
import { isoNow, newId } from '../../clock.js'
import {
  BlackoutInput,
  CalendarInput,
  MAX_AVAILABILITY_DAYS,
  WeeklyInput,
  type Availability,
  type AvailabilityQuery,
  type Blackout,
  type BusyCalendar,
  type WeeklyWindow,
} from '../../schemas/availability.js'
import * as store from '../../store/availability.js'
import * as held from '../../store/held.js'
import * as memberships from '../../store/memberships.js'
import * as people from '../../store/people.js'
import type { BlackoutRow, BusyCalendarRow, WeeklyRow } from '../../store/app-tables.js'
import { DAY_MS, dayStart, instantOfWallTime, isDay, iso, MINUTE_MS, nextDay } from '../../time.js'
import { requireLeague } from '../core/access.js'
import type { Caller } from '../core/caller.js'
import type { Deps } from '../core/deps.js'
import { fail } from '../core/errors.js'
import { busySpans, type FeedRead } from './ics.js'
import { parseWith } from '../core/parse.js'
import { DEFAULT_TIME_ZONE } from '../people/profiles.js'
import { merge, unavailableByPerson, type Span } from './unavailability.js'
import { visibleHolds } from './conflicts.js'
import { normalizeEmail } from '../people/sign-in-links.js'

/** Whose availability: a person signed in, or the one the console names by address. */
export interface Owner {
  readonly email: string
}

/** Bounds per person, so one person cannot make every conflict check of theirs slow. */
export const AVAILABILITY_LIMITS = { blackouts: 500, weekly: 50, calendars: 5 } as const

/** How often a busy calendar is read again, and how far ahead its events are kept. */
export const CALENDAR_REFRESH_MS = 15 * MINUTE_MS
const HORIZON_BACK_MS = DAY_MS
const HORIZON_AHEAD_MS = 400 * DAY_MS
const MAX_EVENTS_PER_CALENDAR = 5000

/** The console names a person by address; one no user carries is `account_not_found`. */
export async function ownerByEmail(deps: Deps, rawEmail: string): Promise<Owner> {
  const email = normalizeEmail(rawEmail) ?? fail('invalid_email')
  if (!(await people.hasUserWithEmail(deps.db, email))) fail('account_not_found')
  return { email }
}

export async function getAvailability(deps: Deps, owner: Owner): Promise<Availability> {
  const [blackouts, weekly, calendars] = await Promise.all([
    store.listBlackouts(deps.db, owner.email),
    store.listWeekly(deps.db, owner.email),
    store.listCalendars(deps.db, owner.email),
  ])
  return {
    blackouts: blackouts.map(toBlackout),
    weekly: weekly.map(toWeekly),
    calendars: calendars.map(toCalendar),
  }
}

/** The person's time zone for the wall times they write (weekly windows, blackouts without an offset). */
async function timeZoneOf(deps: Pick<Deps, 'db'>, email: string): Promise<string> {
  return (await store.findProfileZone(deps.db, email)) ?? DEFAULT_TIME_ZONE
}

export async function addBlackout(deps: Deps, owner: Owner, input: unknown): Promise<Blackout> {
  const { from, to } = parseWith(BlackoutInput, input)
  const span = blackoutSpan(from, to, await timeZoneOf(deps, owner.email))
  const row: BlackoutRow = {
    seq: 0,
    id: newId(),
    email: owner.email,
    ...span,
    created_at: isoNow(deps.clock),
  }
  const { seq: _seq, ...values } = row
  await deps.db.transaction().execute(async (trx) => {
    if ((await store.countRows(trx, 'blackouts', owner.email)) >= AVAILABILITY_LIMITS.blackouts) {
      fail('availability_limit_reached')
    }
    await store.insertBlackout(trx, values)
  })
  return toBlackout(row)
}

export async function addWeekly(deps: Deps, owner: Owner, input: unknown): Promise<WeeklyWindow> {
  const { dayOfWeek, from, to } = parseWith(WeeklyInput, input)
  if (to <= from) fail('invalid_to')
  const row = {
    id: newId(),
    email: owner.email,
    day_of_week: dayOfWeek,
    from_time: from,
    to_time: to,
    created_at: isoNow(deps.clock),
  }
  await deps.db.transaction().execute(async (trx) => {
    if ((await store.countRows(trx, 'weekly_unavailability', owner.email)) >= AVAILABILITY_LIMITS.weekly) {
      fail('availability_limit_reached')
    }
    await store.insertWeekly(trx, row)
  })
  return toWeekly({ seq: 0, ...row })
}

/**
 * Subscribes a busy calendar: read once now (outside any transaction: the network is slow), then saved
 * with its events in one transaction. An address the guard refuses, or a feed that cannot be read as
 * iCalendar, is refused and nothing is saved.
 */
export async function addBusyCalendar(deps: Deps, owner: Owner, input: unknown): Promise<BusyCalendar> {
  const url = calendarUrl(parseWith(CalendarInput, input).url)
  const at = isoNow(deps.clock)
  const read = await readSpans(deps, url, owner.email)
  if (!read.ok) fail(read.addressRefused ? 'calendar_address_refused' : 'calendar_unreadable')
  const row: BusyCalendarRow = {
    seq: 0,
    id: newId(),
    email: owner.email,
    url,
    created_at: at,
    fetched_at: at,
    last_error: null,
    failed_reads: 0,
    next_fetch_at: iso(deps.clock.now() + CALENDAR_REFRESH_MS),
  }
  const { seq: _seq, ...values } = row
  await deps.db.transaction().execute(async (trx) => {
    if ((await store.countRows(trx, 'busy_calendars', owner.email)) >= AVAILABILITY_LIMITS.calendars) {
      fail('availability_limit_reached')
    }
    await store.insertCalendar(trx, values)
    await store.replaceEvents(trx, row, read.spans, at)
  })
  return toCalendar(row)
}

export async function removeAvailability(
  deps: Deps,
  owner: Owner,
  kind: 'blackout' | 'weekly' | 'calendar',
  id: string,
): Promise<void> {
  const table = {
    blackout: 'blackouts',
    weekly: 'weekly_unavailability',
    calendar: 'busy_calendars',
  } as const
  const removed = await deps.db
    .transaction()
    .execute((trx) => store.deleteOwned(trx, table[kind], owner.email, id))
  if (!removed) fail('not_found')
}

/**
 * What a partner reads of an official of its league (`GET /leagues/{leagueId}/officials/{userId}/availability`):
 * the person's busy intervals overlapping [from, to), merged from every source, the positions they hold in
 * leagues they joined included, with nothing of why. Towards a league the person has not joined, only the
 * positions they hold in it (DESIGN "Consent").
 */
export async function readOfficialAvailability(
  deps: Deps,
  caller: Caller,
  leagueId: string,
  userId: string,
  query: AvailabilityQuery,
): Promise<Span[]> {
  const league = await requireLeague(deps.db, caller, leagueId)
  const official = await memberships.findOfficial(deps.db, league.id, userId)
  if (official?.role !== 'official') fail('not_a_member')
  const { from, to } = query
  if (to <= from || Date.parse(to) - Date.parse(from) > MAX_AVAILABILITY_DAYS * DAY_MS) fail('invalid_to')
  const range = { startsAt: from, endsAt: to }
  const joined = await memberships.hasJoined(deps.db, league.id, official.email)
  const [unavailable, games] = await Promise.all([
    joined ? unavailableByPerson(deps.db, [official.email], range) : new Map<string, Span[]>(),
    held.listHeldByEmails(deps.db, [official.email], { from, to }),
  ])
  return merge([
    ...(unavailable.get(official.email) ?? []),
    ...visibleHolds(games, league.id, joined).map((g) => ({ startsAt: g.starts_at, endsAt: g.ends_at })),
  ])
}

/**
 * One pass of the refresher: each calendar due for a read is taken by moving its next read 15 minutes on
 * (conditionally, so of several processes exactly one reads it), read, and its events replaced; a failed
 * read keeps the events it had and records why. A read that fails or is slow is a strike: the next read
 * waits twice as long per strike in a row (CALENDAR_BACKOFF), so a feed that hangs or is refused costs
 * its site and this process less and less. Returns how many this process read.
 */
export async function refreshDueCalendars(deps: Deps, limit = 20): Promise<number> {
  const now = deps.clock.now()
  const at = iso(now)
  const next = iso(now + CALENDAR_REFRESH_MS)
  let read = 0
  for (const calendar of await store.listDueCalendars(deps.db, at, limit)) {
    if (!(await store.leaseCalendar(deps.db, calendar.id, calendar.next_fetch_at, next))) continue
    read++
    const began = deps.clock.now()
    const result = await readSpans(deps, calendar.url, calendar.email)
    const done = deps.clock.now()
    const struck = !result.ok || done - began > CALENDAR_BACKOFF.slowMs
    const failedReads = struck ? calendar.failed_reads + 1 : 0
    const nextFetchAt = iso(done + refreshWait(failedReads))
    await deps.db.transaction().execute(async (trx) => {
      if (!(await store.findCalendar(trx, calendar.id))) return // removed while it was read
      if (result.ok) await store.replaceEvents(trx, calendar, result.spans, isoNow(deps.clock))
      else await store.recordFetchError(trx, calendar.id, result.error)
      await store.scheduleRead(trx, calendar.id, { failedReads, nextFetchAt })
    })
  }
  return read
}

/** Back-off of a calendar whose reads fail or are slow (docs/decisions.md). */
export const CALENDAR_BACKOFF = {
  /** A read (fetch and parse) longer than this counts as a strike, like a failure. */
  slowMs: 5_000,
  /** The longest wait between two reads. */
  maxMs: 24 * 3_600_000,
} as const

/** 15 minutes after a good read; after n strikes in a row 15 minutes × 2ⁿ, at most a day. */
function refreshWait(failedReads: number): number {
  return Math.min(CALENDAR_REFRESH_MS * 2 ** Math.min(failedReads, 16), CALENDAR_BACKOFF.maxMs)
}

async function readSpans(deps: Deps, url: string, email: string): Promise<FeedRead> {
  const fetched = await deps.readCalendar(url)
  if (!fetched.ok) return fetched
  const now = deps.clock.now()
  return busySpans(fetched.text, {
    from: now - HORIZON_BACK_MS,
    to: now + HORIZON_AHEAD_MS,
    timeZone: await timeZoneOf(deps, email),
    maxEvents: MAX_EVENTS_PER_CALENDAR,
  })
}

/** `webcal://` (what Apple and Google hand out) is the same feed over https; anything else must be https. */
function calendarUrl(value: string): string {
  let url: URL
  try {
    url = new URL(value.trim().replace(/^webcals?:\/\//i, 'https://'))
  } catch {
    fail('invalid_url')
  }
  if (url.protocol !== 'https:') fail('https_url_required')
  if (url.username !== '' || url.password !== '') fail('invalid_url')
  url.hash = ''
  return url.toString()
}

const MAX_BLACKOUT_MS = 2 * 366 * DAY_MS

/** [starts_at, ends_at) of a blackout; two days make whole days, first to last inclusive. */
function blackoutSpan(from: string, to: string, timeZone: string) {
  const days = isDay(from) && isDay(to)
  const startsAt = isDay(from)
    ? dayStart(checkYear(from, 'from'), timeZone)
    : instantOf(from, timeZone, 'from')
  const endsAt = isDay(to) ? dayStart(nextDay(checkYear(to, 'to')), timeZone) : instantOf(to, timeZone, 'to')
  if (endsAt <= startsAt || Date.parse(endsAt) - Date.parse(startsAt) > MAX_BLACKOUT_MS) fail('invalid_to')
  return {
    starts_at: startsAt,
    ends_at: endsAt,
    first_day: days ? from : null,
    last_day: days ? to : null,
  }
}

function checkYear(day: string, field: 'from' | 'to'): string {
  const year = Number(day.slice(0, 4))
  if (year < 2000 || year > 2199) fail(`invalid_${field}`)
  return day
}

/** A date-time as an instant: its offset if it has one, else the person's wall clock. */
function instantOf(value: string, timeZone: string, field: 'from' | 'to'): string {
  const instant = instantOfWallTime(value, timeZone) ?? fail(`invalid_${field}`)
  checkYear(value, field)
  return instant
}

function toBlackout(row: BlackoutRow): Blackout {
  const allDay = row.first_day !== null && row.last_day !== null
  return {
    id: row.id,
    from: row.first_day ?? row.starts_at,
    to: row.last_day ?? row.ends_at,
    allDay,
    startsAt: row.starts_at,
    endsAt: row.ends_at,
    createdAt: row.created_at,
  }
}

function toWeekly(row: WeeklyRow): WeeklyWindow {
  return {
    id: row.id,
    dayOfWeek: row.day_of_week,
    from: row.from_time,
    to: row.to_time,
    createdAt: row.created_at,
  }
}

function toCalendar(row: BusyCalendarRow): BusyCalendar {
  return {
    id: row.id,
    url: row.url,
    createdAt: row.created_at,
    fetchedAt: row.fetched_at,
    lastError: row.last_error,
  }
}
