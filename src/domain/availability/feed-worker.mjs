// A busy calendar's ICS text → its busy occurrences near a window, in a thread of its own: one feed per
// thread, so the time-zone definitions ical.js registers process-wide (TimezoneService) are this feed's
// alone and die with the thread, and a feed that costs too much ends with it (ics.ts sets the deadline
// and the memory cap). Plain JavaScript, like the solver's thread: a worker loads it the same from src/
// under the tests and from dist/.
//
// ical.js parses and expands recurrences (RRULE, RDATE, EXDATE, moved occurrences); free
// (TRANSP:TRANSPARENT) and cancelled events are not busy. Times in a zone the feed defines (VTIMEZONE),
// UTC times and dates answer instants; floating times, dates and times in an IANA zone the feed does not
// define answer their wall clock and the zone to read it in ('' = the person's), which ics.ts converts.
import ICAL from 'ical.js'
import { parentPort } from 'node:worker_threads'

/**
 * @typedef {object} Job
 * @property {string} text the feed
 * @property {number} from the window's start (epoch ms), already widened by a day for wall clocks
 * @property {number} to the window's end (epoch ms), widened likewise
 * @property {number} budget the most occurrences visited, over every series, in the window or before it
 */

/** @typedef {[start: number, end: number, zone: string | null]} Occurrence */

/** @typedef {{ ok: true, occurrences: Occurrence[] } | { ok: false, error: string }} Answer */

class Refusal extends Error {}

/**
 * @param {Job} job
 * @returns {Answer}
 */
function expand({ text, from, to, budget }) {
  /** @type {ICAL.Component} */
  let root
  try {
    const parsed = /** @type {unknown[]} */ (ICAL.parse(text))
    root = new ICAL.Component(parsed)
    if (root.name !== 'vcalendar') return { ok: false, error: 'not_icalendar' }
    if (!datesValid(parsed)) return { ok: false, error: 'malformed' }
  } catch {
    return { ok: false, error: 'not_icalendar' }
  }
  ICAL.TimezoneService.reset()
  for (const zone of root.getAllSubcomponents('vtimezone')) {
    if (typeof zone.getFirstPropertyValue('tzid') === 'string') ICAL.TimezoneService.register(zone)
  }
  /** @type {Occurrence[]} */
  const occurrences = []
  let visits = 0
  const visit = () => {
    if (++visits > budget) throw new Refusal('too_many_occurrences')
  }
  try {
    for (const event of masterEvents(root)) {
      if (isBusy(event.component)) collect(event, { from, to }, visit, occurrences)
    }
  } catch (error) {
    // A malformed date or rule surfaces here, as ical.js reads it: the feed is refused, never the caller.
    return { ok: false, error: error instanceof Refusal ? error.message : 'malformed' }
  }
  return { ok: true, occurrences }
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2}))?/

/**
 * Whether every date and date-time the feed writes is one (ical.js rolls 2027-02-30 over to March 2 and
 * 25:00 to the next day): a jCal component is [name, properties, components], a property
 * [name, parameters, type, ...values].
 * @param {unknown[]} component
 * @returns {boolean}
 */
function datesValid(component) {
  const [, properties, components] = /** @type {[string, unknown[][], unknown[][]]} */ (component)
  for (const [, , type, ...values] of properties) {
    if (type !== 'date' && type !== 'date-time') continue
    for (const value of values) if (typeof value !== 'string' || !isDate(value)) return false
  }
  return components.every(datesValid)
}

/** @param {string} value */
function isDate(value) {
  const m = DATE.exec(value)
  if (!m) return false
  const [y, mo, d, h = 0, mi = 0, s = 0] = m.slice(1).map((part) => Number(part ?? 0))
  const day = new Date(Date.UTC(y, mo - 1, d))
  return day.getUTCMonth() === mo - 1 && day.getUTCDate() === d && h <= 23 && mi <= 59 && s <= 60
}

/**
 * Each recurring series once, with its moved or changed occurrences (RECURRENCE-ID) related to it.
 * @param {ICAL.Component} root
 */
function masterEvents(root) {
  const events = root.getAllSubcomponents('vevent').map((c) => new ICAL.Event(c))
  /** @type {Map<string, ICAL.Event>} */
  const masters = new Map()
  /** @type {ICAL.Event[]} */
  const singles = []
  for (const event of events) {
    if (!event.isRecurrenceException()) {
      if (event.uid) masters.set(event.uid, event)
      else singles.push(event)
    }
  }
  /** @type {ICAL.Event[]} */
  const exceptions = []
  for (const event of events) {
    if (!event.isRecurrenceException()) continue
    const master = masters.get(event.uid)
    if (master?.isRecurring()) master.relateException(event)
    else exceptions.push(event)
  }
  return [...masters.values(), ...singles, ...exceptions]
}

/** @param {ICAL.Component} component */
function isBusy(component) {
  const transp = component.getFirstPropertyValue('transp')
  const status = component.getFirstPropertyValue('status')
  return transp !== 'TRANSPARENT' && status !== 'CANCELLED'
}

/**
 * @param {ICAL.Event} event
 * @param {{ from: number, to: number }} window
 * @param {() => void} visit counts one occurrence against the feed's budget
 * @param {Occurrence[]} occurrences
 */
function collect(event, window, visit, occurrences) {
  if (!event.startDate) return
  const tzid = event.component.getFirstProperty('dtstart')?.getParameter('tzid')
  const named = typeof tzid === 'string' && !ICAL.TimezoneService.has(tzid) && isIanaZone(tzid) ? tzid : ''
  /** @param {ICAL.Time} time */
  const at = (time) => finite(isFloating(time) ? wallOf(time) : time.toUnixTime() * 1000)
  /**
   * @param {ICAL.Time} start
   * @param {ICAL.Time} end
   */
  const push = (start, end) => {
    const s = at(start)
    const e = Math.max(at(end), s)
    if (s < window.to && e >= window.from) occurrences.push([s, e, isFloating(start) ? named : null])
  }
  visit()
  if (!event.isRecurring()) return push(event.startDate, event.endDate ?? event.startDate)
  const iterator = event.iterator()
  for (;;) {
    const next = iterator.next()
    if (!next) return
    const details = event.getOccurrenceDetails(next)
    if (at(details.startDate) >= window.to) return
    visit()
    if (isBusy(details.item.component)) push(details.startDate, details.endDate)
  }
}

/** @param {ICAL.Time} time */
function isFloating(time) {
  const tz = time.zone
  return time.isDate || !tz || tz === ICAL.Timezone.localTimezone || tz.tzid === 'floating'
}

/**
 * The wall clock, written as if it were UTC (ms).
 * @param {ICAL.Time} time
 */
function wallOf(time) {
  return Date.UTC(time.year, time.month - 1, time.day, time.hour, time.minute, time.second)
}

/**
 * A time ical.js could not read (NaN) is a malformed date.
 * @param {number} ms
 */
function finite(ms) {
  if (!Number.isFinite(ms)) throw new Error('malformed date')
  return ms
}

/** @param {string} name */
function isIanaZone(name) {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name })
    return true
  } catch {
    return false
  }
}

parentPort?.once('message', (/** @type {Job} */ job) => {
  parentPort?.postMessage(expand(job))
})
