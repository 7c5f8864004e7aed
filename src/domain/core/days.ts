// Calendar days in a time zone, as people pick them in forms: `YYYY-MM-DD`, read as the zone's day.

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/

/** Whether `value` is a calendar day `YYYY-MM-DD`. */
export function isDay(value: string): boolean {
  const match = DAY.exec(value)
  if (!match) return false
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])))
  return date.toISOString().slice(0, 10) === value
}

export function nextDay(day: string): string {
  const date = new Date(`${day}T00:00:00.000Z`)
  date.setUTCDate(date.getUTCDate() + 1)
  return date.toISOString().slice(0, 10)
}

/** The instant the day begins in the time zone, as stored times are written. */
export function dayStart(day: string, timeZone: string): string {
  return new Date(wallToInstant(Date.parse(`${day}T00:00:00.000Z`), timeZone)).toISOString()
}

/** The instant (ms) the zone's clocks show this wall time, written as if it were UTC (ms). */
export function wallToInstant(wall: number, timeZone: string): number {
  // The zone's offset at the wall time read as UTC, then again at the guess, so a change of offset that
  // day is honoured.
  const first = wall - zoneOffset(wall, timeZone)
  return wall - zoneOffset(first, timeZone)
}

/** The day (`YYYY-MM-DD`) the zone's clocks show at the instant (ms). */
export function dayAt(at: number, timeZone: string): string {
  return new Date(at + zoneOffset(at, timeZone)).toISOString().slice(0, 10)
}

/** ISO weekday of a day: 1 Monday … 7 Sunday. */
export function weekdayOf(day: string): number {
  return ((new Date(`${day}T00:00:00.000Z`).getUTCDay() + 6) % 7) + 1
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

/** The wall time `YYYY-MM-DDTHH:MM` the zone's clocks show at the instant (ms): a `datetime-local` value. */
export function wallTimeAt(at: number, timeZone: string): string {
  return new Date(at + zoneOffset(at, timeZone)).toISOString().slice(0, 16)
}
