// A busy calendar's ICS text → the busy intervals it holds within a horizon. ical.js parses and expands
// recurrences (RRULE, RDATE, EXDATE, moved occurrences); free (TRANSP:TRANSPARENT) and cancelled events
// are not busy. Times in a TZID the feed defines (VTIMEZONE) or an IANA name convert exactly; floating
// times and all-day dates are the person's wall clock (their time zone).
import ICAL from 'ical.js'
import { iso, wallToInstant } from '../../time.js'

export interface BusySpan {
  readonly startsAt: string
  readonly endsAt: string
}

interface Horizon {
  readonly from: number
  readonly to: number
  readonly timeZone: string
  /** The most intervals kept; a feed with more is cut at the earliest ones (docs/decisions.md). */
  readonly maxEvents: number
}

/** The busy spans of the feed overlapping [from, to), soonest first; undefined when it is not iCalendar. */
export function busySpans(text: string, horizon: Horizon): BusySpan[] | undefined {
  let root: ICAL.Component
  try {
    root = new ICAL.Component(ICAL.parse(text) as unknown[])
  } catch {
    return undefined
  }
  if (root.name !== 'vcalendar') return undefined
  for (const zone of root.getAllSubcomponents('vtimezone')) {
    const tzid = zone.getFirstPropertyValue('tzid')
    if (typeof tzid === 'string' && !ICAL.TimezoneService.has(tzid)) ICAL.TimezoneService.register(zone)
  }
  const spans: BusySpan[] = []
  for (const event of masterEvents(root)) {
    if (!isBusy(event.component)) continue
    collect(event, horizon, spans)
    if (spans.length >= horizon.maxEvents * 2) break
  }
  spans.sort((a, b) => (a.startsAt < b.startsAt ? -1 : a.startsAt > b.startsAt ? 1 : 0))
  return spans.slice(0, horizon.maxEvents)
}

/** Each recurring series once, with its moved or changed occurrences (RECURRENCE-ID) related to it. */
function masterEvents(root: ICAL.Component): ICAL.Event[] {
  const events = root.getAllSubcomponents('vevent').map((c) => new ICAL.Event(c))
  const masters = new Map<string, ICAL.Event>()
  const singles: ICAL.Event[] = []
  for (const event of events) {
    if (!event.isRecurrenceException()) {
      if (event.uid) masters.set(event.uid, event)
      else singles.push(event)
    }
  }
  const exceptions: ICAL.Event[] = []
  for (const event of events) {
    if (!event.isRecurrenceException()) continue
    const master = masters.get(event.uid)
    if (master?.isRecurring()) master.relateException(event)
    else exceptions.push(event)
  }
  return [...masters.values(), ...singles, ...exceptions]
}

function isBusy(component: ICAL.Component): boolean {
  const transp = component.getFirstPropertyValue('transp')
  const status = component.getFirstPropertyValue('status')
  return transp !== 'TRANSPARENT' && status !== 'CANCELLED'
}

const MAX_OCCURRENCES = 5000

function collect(event: ICAL.Event, horizon: Horizon, spans: BusySpan[]): void {
  if (!event.startDate) return
  const tzid = event.component.getFirstProperty('dtstart')?.getParameter('tzid')
  const zone = typeof tzid === 'string' && isIanaZone(tzid) ? tzid : horizon.timeZone
  const push = (start: ICAL.Time, end: ICAL.Time) => {
    const s = instant(start, zone)
    const e = Math.max(instant(end, zone), s)
    if (s < horizon.to && (e > horizon.from || (e === s && s >= horizon.from))) {
      spans.push({ startsAt: iso(s), endsAt: iso(e) })
    }
  }
  if (!event.isRecurring()) return push(event.startDate, event.endDate ?? event.startDate)
  const iterator = event.iterator()
  for (let i = 0; i < MAX_OCCURRENCES; i++) {
    const next = iterator.next()
    if (!next) return
    const details = event.getOccurrenceDetails(next)
    if (instant(details.startDate, zone) >= horizon.to) return
    if (isBusy(details.item.component)) push(details.startDate, details.endDate)
  }
}

/** ms since the epoch: exact for UTC and defined zones; the wall clock of `zone` for floating times and dates. */
function instant(time: ICAL.Time, zone: string): number {
  const tz = time.zone
  const floating = time.isDate || !tz || tz === ICAL.Timezone.localTimezone || tz.tzid === 'floating'
  if (!floating) return time.toUnixTime() * 1000
  const wall = Date.UTC(time.year, time.month - 1, time.day, time.hour, time.minute, time.second)
  return wallToInstant(wall, zone)
}

const ianaZones = new Map<string, boolean>()

function isIanaZone(name: string): boolean {
  let known = ianaZones.get(name)
  if (known === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: name })
      known = !ICAL.TimezoneService.has(name)
    } catch {
      known = false
    }
    if (ianaZones.size < 1000) ianaZones.set(name, known)
  }
  return known
}
