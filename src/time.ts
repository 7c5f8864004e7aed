// Time in one place: instants as they are stored and rendered (`YYYY-MM-DDTHH:MM:SS.sssZ`), the units of
// durations, a game's span, and the wall times and days of a time zone as people type and read them.
// Reading the time itself is the clock's (clock.ts); everything here is a pure function of its arguments.

export const SECOND_MS = 1000
export const MINUTE_MS = 60 * SECOND_MS
export const HOUR_MS = 60 * MINUTE_MS
export const DAY_MS = 24 * HOUR_MS

/** The instant (ms) as stored: `YYYY-MM-DDTHH:MM:SS.sssZ`. */
export const iso = (ms: number): string => new Date(ms).toISOString()

/**
 * A game's end: its start plus its own length, else its league's gameMinutes. Stored with the game
 * (`ends_at`) so every answer and every overlap check reads it without the league (docs/decisions.md).
 */
export function endOf(startsAt: string, minutes: number): string {
  return iso(Date.parse(startsAt) + minutes * MINUTE_MS)
}

/** The whole minutes from one instant to another (a game's length from its start and end). */
export function minutesBetween(from: string, to: string): number {
  return Math.round((Date.parse(to) - Date.parse(from)) / MINUTE_MS)
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/

/** Whether `value` is a calendar day `YYYY-MM-DD`. */
export function isDay(value: string): boolean {
  const match = DAY.exec(value)
  if (!match) return false
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])))
  return date.toISOString().slice(0, 10) === value
}

export function nextDay(day: string): string {
  return iso(Date.parse(`${day}T00:00:00.000Z`) + DAY_MS).slice(0, 10)
}

/** ISO weekday of a day: 1 Monday … 7 Sunday. */
export function weekdayOf(day: string): number {
  return ((new Date(`${day}T00:00:00.000Z`).getUTCDay() + 6) % 7) + 1
}

/** The instant the day begins in the time zone, as stored times are written. */
export function dayStart(day: string, timeZone: string): string {
  return iso(wallToInstant(Date.parse(`${day}T00:00:00.000Z`), timeZone))
}

/** The day (`YYYY-MM-DD`) the zone's clocks show at the instant (ms). */
export function dayAt(at: number, timeZone: string): string {
  return iso(at + zoneOffset(at, timeZone)).slice(0, 10)
}

/** The wall time `YYYY-MM-DDTHH:MM` the zone's clocks show at the instant (ms): a `datetime-local` value. */
export function wallTimeAt(at: number, timeZone: string): string {
  return iso(at + zoneOffset(at, timeZone)).slice(0, 16)
}

/** The instant (ms) the zone's clocks show this wall time, written as if it were UTC (ms). */
export function wallToInstant(wall: number, timeZone: string): number {
  // The zone's offset at the wall time read as UTC, then again at the guess, so a change of offset that
  // day is honoured.
  const first = wall - zoneOffset(wall, timeZone)
  return wall - zoneOffset(first, timeZone)
}

/**
 * ISO 8601 instants: a date-time with its offset (`Z`, `±HH:MM`, `±HHMM`, `±HH`; `T` or a space between;
 * seconds and their fraction optional), or a day alone (its midnight UTC). The stored form is always
 * `YYYY-MM-DDTHH:MM:SS.sssZ` (years 0000–9999). Nothing else is read: not what V8's `Date` makes of other
 * text (`"90"` → 1990, `"Feb 3 2027"`, `"f^>ok…Z"` → 2001), nor a date-time without an offset, which
 * `Date` reads in the server's own time zone. A day its month does not have (`2027-02-30`) is refused
 * rather than rolled over; `T24:00` is ISO's end of the day.
 */
export function parseInstant(value: string): string | undefined {
  const m = ISO_INSTANT.exec(value)
  if (!m) return undefined
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map((part) => Number(part ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ]
  const date = new Date(0)
  date.setUTCFullYear(year, month - 1, day)
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined
  const fraction = Number((m[7] ?? '').slice(0, 3).padEnd(3, '0'))
  const endOfDay = hour === 24 && minute === 0 && second === 0 && fraction === 0
  if ((hour > 23 && !endOfDay) || minute > 59 || second > 59) return undefined
  const offset = offsetMinutes(m[8])
  if (offset === undefined) return undefined
  const instant = new Date(date.getTime() + ((hour * 60 + minute - offset) * 60 + second) * 1000 + fraction)
  const storable = instant.getUTCFullYear() >= 0 && instant.getUTCFullYear() <= 9999
  return storable ? instant.toISOString() : undefined
}

const ISO_INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?))?$/i

/** Minutes east of UTC of `Z` or `±HH[[:]MM]`; none written (a day alone) is UTC. */
function offsetMinutes(zone: string | undefined): number | undefined {
  if (zone === undefined || zone.toUpperCase() === 'Z') return 0
  const digits = zone.slice(1).replace(':', '')
  const hours = Number(digits.slice(0, 2))
  const minutes = Number(digits.slice(2) || 0)
  if (hours > 23 || minutes > 59) return undefined
  return (zone.startsWith('-') ? -1 : 1) * (hours * 60 + minutes)
}

/** A date-time with no offset written: a wall time. */
const WALL_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?$/

/**
 * A date-time as people type it (`YYYY-MM-DDTHH:MM`, seconds and fraction optional) read on the zone's wall
 * clock; one that carries its offset is the instant it names. Either is checked as `parseInstant` checks
 * it: an impossible date (Feb 30) or hour is refused, never rolled over.
 */
export function instantOfWallTime(value: string, timeZone: string): string | undefined {
  if (!WALL_TIME.test(value)) return isDay(value) ? undefined : parseInstant(value)
  const wall = parseInstant(`${value}Z`)
  return wall === undefined ? undefined : iso(wallToInstant(Date.parse(wall), timeZone))
}

const formats = new Map<string, Intl.DateTimeFormat>()

function zoneOffset(at: number, timeZone: string): number {
  let format = formats.get(timeZone)
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    })
    formats.set(timeZone, format)
  }
  const parts = format.formatToParts(new Date(at))
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value)
  const wall = Date.UTC(
    part('year'),
    part('month') - 1,
    part('day'),
    part('hour'),
    part('minute'),
    part('second'),
  )
  return wall - Math.floor(at / 1000) * 1000
}
