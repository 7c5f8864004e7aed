// Times and money as a person reads them: times in their time zone with the zone named, amounts in the
// league's currency. Formatters are built once per page, not per row.
import type { HeldChange } from '../domain/pages/schedule.js'

export interface Formatters {
  readonly timeZone: string
  /** "Sat, May 2, 2026, 3:00 PM UTC" */
  dateTime(iso: string): string
  /** "Saturday, May 2, 2026" */
  day(iso: string): string
  /** "3:00 PM UTC" */
  time(iso: string): string
  money(cents: number, currency: string): string
}

const moneyFormats = new Map<string, Intl.NumberFormat>()

function money(cents: number, currency: string): string {
  let format = moneyFormats.get(currency)
  if (!format) {
    format = new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() })
    moneyFormats.set(currency, format)
  }
  return format.format(cents / 100)
}

export function formatters(timeZone: string): Formatters {
  const dateTime = new Intl.DateTimeFormat('en-US', {
    timeZone,
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
  })
  const day = new Intl.DateTimeFormat('en-US', {
    timeZone,
    weekday: 'long',
    month: 'long',
    day: 'numeric',
    year: 'numeric',
  })
  const time = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
  })
  return {
    timeZone,
    dateTime: (iso) => dateTime.format(new Date(iso)),
    day: (iso) => day.format(new Date(iso)),
    time: (iso) => time.format(new Date(iso)),
    money,
  }
}

/** Items in order, grouped under the day (in the time zone) each starts on. */
export function byDay<T extends { startsAt: string }>(
  items: readonly T[],
  format: Formatters,
): { day: string; items: T[] }[] {
  const groups: { day: string; items: T[] }[] = []
  for (const item of items) {
    const day = format.day(item.startsAt)
    const last = groups.at(-1)
    if (last?.day === day) last.items.push(item)
    else groups.push({ day, items: [item] })
  }
  return groups
}

/** What became of a held position, in words; undefined while it can still be withdrawn. */
export function heldStatus(game: {
  gameStatus: string
  positionStatus: string
  withdrawable: boolean
}): string | undefined {
  if (game.gameStatus === 'cancelled') return 'Game cancelled'
  if (game.positionStatus === 'completed') return 'Worked'
  if (game.positionStatus === 'cancelled') return 'No-show'
  return game.withdrawable ? undefined : 'Awaiting completion'
}

/** A Schedule mark: "Time changed" or "Place changed", and what it was when the official took the game. */
export function changeMark(
  change: HeldChange,
  game: { startsAt: string },
  format: Formatters,
): { label: string; was: string } {
  if (change.what === 'place')
    return { label: 'Place changed', was: change.wasLocation || 'Location to be announced' }
  const was = [
    ...(change.wasStartsAt !== game.startsAt ? [format.dateTime(change.wasStartsAt)] : []),
    ...(change.wasMinutes !== undefined ? [`${change.wasMinutes} minutes long`] : []),
  ]
  return { label: 'Time changed', was: was.join(', ') }
}
