// When a person said they cannot officiate (DESIGN "Availability and conflicts", rule 2,
// `official_unavailable`): blackouts, weekly windows read in the person's time zone, and busy-calendar
// events. The conflict engine asks `isUnavailable` for a game's [start, end) inside the claim's
// transaction; partners read `busyIntervals`, merged, with no detail of why.
import type { Kysely } from 'kysely'
import * as store from '../store/availability.js'
import type { Db, WeeklyRow } from '../store/tables.js'
import { dayAt, nextDay, wallToInstant, weekdayOf } from './days.js'
import { DEFAULT_TIME_ZONE } from './profiles.js'

export interface Span {
  readonly startsAt: string
  readonly endsAt: string
}

/** Whether [startsAt, endsAt) overlaps anything the person marked unavailable. */
export async function isUnavailable(db: Kysely<Db>, email: string, span: Span): Promise<boolean> {
  return (await unavailableSpans(db, email, span)).length > 0
}

/** The person's unavailable times overlapping [from, to), merged, soonest first. */
export async function busyIntervals(db: Kysely<Db>, email: string, range: Span): Promise<Span[]> {
  return merge(await unavailableSpans(db, email, range))
}

async function unavailableSpans(db: Kysely<Db>, email: string, range: Span): Promise<Span[]> {
  const [rows, weekly, zone] = await Promise.all([
    store.busyOverlapping(db, email, range.startsAt, range.endsAt),
    store.listWeekly(db, email),
    store.findProfileZone(db, email),
  ])
  const spans = rows.map((r) => ({ startsAt: r.starts_at, endsAt: r.ends_at }))
  return [...spans, ...weeklySpans(weekly, zone ?? DEFAULT_TIME_ZONE, range)]
}

/** The weekly windows' occurrences overlapping the range, each day read in the person's zone. */
function weeklySpans(windows: readonly WeeklyRow[], timeZone: string, range: Span): Span[] {
  if (windows.length === 0) return []
  const from = Date.parse(range.startsAt)
  const to = Date.parse(range.endsAt)
  const spans: Span[] = []
  // From the day before (a window late in a day can reach past midnight UTC) to the range's last day.
  const last = dayAt(to, timeZone)
  for (let day = dayAt(from - 86_400_000, timeZone); day <= last; day = nextDay(day)) {
    const weekday = weekdayOf(day)
    for (const w of windows) {
      if (w.day_of_week !== weekday) continue
      const start = wallToInstant(Date.parse(`${day}T${w.from_time}:00.000Z`), timeZone)
      const end =
        w.to_time === '24:00'
          ? wallToInstant(Date.parse(`${nextDay(day)}T00:00:00.000Z`), timeZone)
          : wallToInstant(Date.parse(`${day}T${w.to_time}:00.000Z`), timeZone)
      if (start < to && end > from) {
        spans.push({ startsAt: new Date(start).toISOString(), endsAt: new Date(end).toISOString() })
      }
    }
  }
  return spans
}

/** Overlapping or touching spans become one. */
function merge(spans: readonly Span[]): Span[] {
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
