// When a person said they cannot officiate (DESIGN "Availability and conflicts", rule 2,
// `official_unavailable`): blackouts, weekly windows read in the person's time zone, and busy-calendar
// events. The conflict engine (conflicts.ts) weighs `unavailableByPerson` against a game's [start, end),
// for one person inside the claim's transaction and for a whole pool in the assignor's window; partners
// read `busyIntervals`, merged, with no detail of why.
import type { Kysely } from 'kysely'
import * as store from '../../store/availability.js'
import type { Db } from '../../store/tables.js'
import type { WeeklyRow } from '../../store/app-tables.js'
import { dayAt, DAY_MS, iso, nextDay, wallToInstant, weekdayOf } from '../../time.js'
import { DEFAULT_TIME_ZONE } from '../people/profiles.js'

export interface Span {
  readonly startsAt: string
  readonly endsAt: string
}

/** Whether [startsAt, endsAt) overlaps anything the person marked unavailable. */
export async function isUnavailable(db: Kysely<Db>, email: string, span: Span): Promise<boolean> {
  return ((await unavailableByPerson(db, [email], span)).get(email) ?? []).length > 0
}

/** The person's unavailable times overlapping [from, to), merged, soonest first. */
export async function busyIntervals(db: Kysely<Db>, email: string, range: Span): Promise<Span[]> {
  return merge((await unavailableByPerson(db, [email], range)).get(email) ?? [])
}

/**
 * Each person's unavailable times overlapping [from, to), unmerged; three queries whatever the number of
 * persons. A person with none is absent.
 */
export async function unavailableByPerson(
  db: Kysely<Db>,
  emails: readonly string[],
  range: Span,
): Promise<Map<string, Span[]>> {
  const [rows, weekly, zones] = await Promise.all([
    store.busyOverlapping(db, emails, range.startsAt, range.endsAt),
    store.listWeeklyOf(db, emails),
    store.findProfileZones(db, emails),
  ])
  const byPerson = new Map<string, Span[]>()
  const add = (email: string, spans: readonly Span[]) => {
    if (spans.length > 0) byPerson.set(email, [...(byPerson.get(email) ?? []), ...spans])
  }
  for (const r of rows) add(r.email, [{ startsAt: r.starts_at, endsAt: r.ends_at }])
  const windows = new Map<string, WeeklyRow[]>()
  for (const w of weekly) windows.set(w.email, [...(windows.get(w.email) ?? []), w])
  for (const [email, list] of windows)
    add(email, weeklySpans(list, zones.get(email) ?? DEFAULT_TIME_ZONE, range))
  return byPerson
}

/** The weekly windows' occurrences overlapping the range, each day read in the person's zone. */
function weeklySpans(windows: readonly WeeklyRow[], timeZone: string, range: Span): Span[] {
  if (windows.length === 0) return []
  const from = Date.parse(range.startsAt)
  const to = Date.parse(range.endsAt)
  const spans: Span[] = []
  // From the day before (a window late in a day can reach past midnight UTC) to the range's last day.
  const last = dayAt(to, timeZone)
  for (let day = dayAt(from - DAY_MS, timeZone); day <= last; day = nextDay(day)) {
    const weekday = weekdayOf(day)
    for (const w of windows) {
      if (w.day_of_week !== weekday) continue
      const start = wallToInstant(Date.parse(`${day}T${w.from_time}:00.000Z`), timeZone)
      const end =
        w.to_time === '24:00'
          ? wallToInstant(Date.parse(`${nextDay(day)}T00:00:00.000Z`), timeZone)
          : wallToInstant(Date.parse(`${day}T${w.to_time}:00.000Z`), timeZone)
      if (start < to && end > from) {
        spans.push({ startsAt: iso(start), endsAt: iso(end) })
      }
    }
  }
  return spans
}

/** Overlapping or touching spans become one, soonest first. */
export function merge(spans: readonly Span[]): Span[] {
  const sorted = [...spans].sort((a, b) => (a.startsAt < b.startsAt ? -1 : a.startsAt > b.startsAt ? 1 : 0))
  const merged: Span[] = []
  for (const span of sorted) {
    const last = merged.at(-1)
    if (last && span.startsAt <= last.endsAt) {
      if (span.endsAt > last.endsAt)
        merged[merged.length - 1] = { startsAt: last.startsAt, endsAt: span.endsAt }
    } else merged.push(span)
  }
  return merged
}
