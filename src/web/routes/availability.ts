// The person's Availability: blackouts, weekly unavailability and busy calendars, one set across every league
// and partner. Each add and remove is a form post answered with a notice (notices.ts).
import { joinedLeagueNames } from '../../domain/leagues/consent.js'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import {
  addBlackout,
  addBusyCalendar,
  addWeekly,
  getAvailability,
  removeAvailability,
} from '../../domain/availability/availability.js'
import type { Blackout, BusyCalendar, WeeklyWindow } from '../../schemas/availability.js'
import type { WebContext } from '../context.js'
import { field, idField } from '../forms.js'
import { formatters, type Formatters } from '../format.js'
import { signedIn } from '../guards.js'
import { act, noticeOf, type Notices, type Refusals } from '../notices.js'
import { paths } from '../paths.js'
import { iso } from '../../time.js'

type Code =
  | 'added'
  | 'removed'
  | 'bad_blackout'
  | 'bad_weekly'
  | 'calendar_address'
  | 'calendar_refused'
  | 'calendar_unreadable'
  | 'limit'
  | 'gone'

const NOTICES: Notices<Code> = {
  added: { kind: 'success', text: 'Added.' },
  removed: { kind: 'success', text: 'Removed.' },
  bad_blackout: { kind: 'error', text: 'Check the dates and times: the end must come after the start.' },
  bad_weekly: { kind: 'error', text: 'Choose a day, and an end time after the start time.' },
  calendar_address: {
    kind: 'error',
    text: 'Enter the calendar’s address, starting with https:// or webcal://.',
  },
  calendar_refused: {
    kind: 'error',
    text: 'RefDesk does not read calendars at private or local network addresses.',
  },
  calendar_unreadable: {
    kind: 'error',
    text: 'RefDesk could not read a calendar at that address. Check that it is the calendar’s iCal (ICS) address.',
  },
  limit: { kind: 'error', text: 'You have reached the most entries of that kind. Remove one first.' },
  gone: { kind: 'error', text: 'That entry was already removed.' },
}

const BLACKOUT_REFUSALS: Refusals<Code> = {
  invalid_from: 'bad_blackout',
  invalid_to: 'bad_blackout',
  availability_limit_reached: 'limit',
}
const WEEKLY_REFUSALS: Refusals<Code> = {
  invalid_dayOfWeek: 'bad_weekly',
  invalid_from: 'bad_weekly',
  invalid_to: 'bad_weekly',
  availability_limit_reached: 'limit',
}
const CALENDAR_REFUSALS: Refusals<Code> = {
  invalid_url: 'calendar_address',
  https_url_required: 'calendar_address',
  calendar_address_refused: 'calendar_refused',
  calendar_unreadable: 'calendar_unreadable',
  availability_limit_reached: 'limit',
}

const DAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const
const DAYS = DAY_NAMES.map((name, i) => ({ value: i + 1, name }))
const KINDS = ['blackout', 'weekly', 'calendar'] as const

const outcome = (refusals: Refusals<Code>) => ({
  done: () => paths.availability.href({ notice: 'added' }),
  back: (notice: Code) => paths.availability.href({ notice }),
  refusals,
})

/** A day and an optional time from the form, as the domain reads them: `YYYY-MM-DD` or a local date-time. */
function when(request: FastifyRequest, prefix: 'from' | 'to'): string {
  const day = field(request, `${prefix}Day`)
  const time = field(request, `${prefix}Time`)
  return time === '' ? day : `${day}T${time}`
}

export function availabilityRoutes(app: FastifyInstance, { deps, sendPage }: WebContext): void {
  app.get(
    paths.availability.pattern,
    signedIn(async (request, reply, person) => {
      const [availability, joinedLeagues] = await Promise.all([
        getAvailability(deps, person),
        joinedLeagueNames(deps, person),
      ])
      const format = formatters(person.timeZone)
      const options = {
        title: 'Availability',
        nav: 'availability',
        notice: noticeOf(request, NOTICES),
      } as const
      return sendPage(request, reply, 'availability', options, {
        blackouts: availability.blackouts.map((b) => ({ id: b.id, label: blackoutLabel(b, format) })),
        weekly: availability.weekly.map((w) => ({ id: w.id, label: weeklyLabel(w) })),
        calendars: availability.calendars.map((c) => ({
          id: c.id,
          url: c.url,
          status: calendarStatus(c, format),
        })),
        days: DAYS,
        joinedLeagues,
      })
    }),
  )

  app.post(
    paths.addBlackout.pattern,
    signedIn(async (request, reply, person) =>
      act(
        reply,
        () => addBlackout(deps, person, { from: when(request, 'from'), to: when(request, 'to') }),
        outcome(BLACKOUT_REFUSALS),
      ),
    ),
  )

  app.post(
    paths.addWeekly.pattern,
    signedIn(async (request, reply, person) => {
      const input = {
        dayOfWeek: field(request, 'dayOfWeek'),
        from: field(request, 'from'),
        to: field(request, 'to'),
      }
      return act(reply, () => addWeekly(deps, person, input), outcome(WEEKLY_REFUSALS))
    }),
  )

  app.post(
    paths.addBusyCalendar.pattern,
    signedIn(async (request, reply, person) =>
      act(
        reply,
        () => addBusyCalendar(deps, person, { url: field(request, 'url') }),
        outcome(CALENDAR_REFUSALS),
      ),
    ),
  )

  app.post(
    paths.removeAvailability.pattern,
    signedIn(async (request, reply, person) => {
      const kind = KINDS.find((k) => k === field(request, 'kind')) ?? 'blackout'
      return act(reply, () => removeAvailability(deps, person, kind, idField(request, 'id')), {
        done: () => paths.availability.href({ notice: 'removed' }),
        back: (notice) => paths.availability.href({ notice }),
        refusals: { not_found: 'gone' },
      })
    }),
  )
}

function blackoutLabel(blackout: Blackout, format: Formatters): string {
  if (blackout.allDay) {
    const first = format.day(blackout.startsAt)
    const last = format.day(iso(Date.parse(blackout.endsAt) - 1))
    return first === last ? `${first}, all day` : `${first} to ${last}, all day`
  }
  return `${format.dateTime(blackout.startsAt)} to ${format.dateTime(blackout.endsAt)}`
}

function weeklyLabel(window: WeeklyWindow): string {
  return `Every ${DAY_NAMES[window.dayOfWeek - 1] ?? ''}, ${window.from} to ${window.to}`
}

function calendarStatus(calendar: BusyCalendar, format: Formatters): string {
  const read = calendar.fetchedAt === null ? 'Not read yet' : `Read ${format.dateTime(calendar.fetchedAt)}`
  return calendar.lastError === null ? read : `${read}; the last read failed, RefDesk will try again`
}
