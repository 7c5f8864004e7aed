// A person's availability (DESIGN "Availability and conflicts"): blackouts, weekly unavailability, busy
// calendars; and what a partner reads of it, merged busy intervals with no detail.
import { z } from 'zod'
import { DateTime, Id, MAX_LENGTH, text } from './common.js'
import { InstantInput } from './games.js'

/** A day `YYYY-MM-DD` or a date-time, with an offset or without one (then in the person's time zone). */
const WHEN = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?)?$/

const when = (name: 'from' | 'to') =>
  text(name, 40)
    .regex(WHEN, { error: `invalid_${name}` })
    .meta({
      description:
        'A day (YYYY-MM-DD: whole days) or a date-time; without an offset, in the person’s time zone.',
    })

export const BlackoutInput = z.object({ from: when('from'), to: when('to') })
export type BlackoutInput = z.infer<typeof BlackoutInput>

const TIME = /^([01]\d|2[0-3]):[0-5]\d$|^24:00$/

export const WeeklyInput = z.object({
  dayOfWeek: z.coerce
    .number({ error: 'invalid_dayOfWeek' })
    .int({ error: 'invalid_dayOfWeek' })
    .min(1, { error: 'invalid_dayOfWeek' })
    .max(7, { error: 'invalid_dayOfWeek' })
    .meta({ description: '1 Monday … 7 Sunday' }),
  from: text('from', 5).regex(TIME, { error: 'invalid_from' }),
  to: text('to', 5).regex(TIME, { error: 'invalid_to' }),
})
export type WeeklyInput = z.infer<typeof WeeklyInput>

export const CalendarInput = z.object({
  url: text('url', MAX_LENGTH.url).min(1, { error: 'invalid_url' }),
})
export type CalendarInput = z.infer<typeof CalendarInput>

export const Blackout = z.object({
  id: Id,
  /** As given: days for a whole-day blackout, else instants. */
  from: z.string(),
  to: z.string(),
  allDay: z.boolean(),
  startsAt: DateTime,
  endsAt: DateTime,
  createdAt: DateTime,
})
export type Blackout = z.infer<typeof Blackout>

export const WeeklyWindow = z.object({
  id: Id,
  dayOfWeek: z.number().int(),
  from: z.string(),
  to: z.string(),
  createdAt: DateTime,
})
export type WeeklyWindow = z.infer<typeof WeeklyWindow>

export const BusyCalendar = z.object({
  id: Id,
  url: z.string(),
  createdAt: DateTime,
  fetchedAt: DateTime.nullable(),
  lastError: z.string().nullable(),
})
export type BusyCalendar = z.infer<typeof BusyCalendar>

export const Availability = z.object({
  blackouts: z.array(Blackout),
  weekly: z.array(WeeklyWindow),
  calendars: z.array(BusyCalendar),
})
export type Availability = z.infer<typeof Availability>

export const BusyInterval = z
  .object({ startsAt: DateTime, endsAt: DateTime })
  .meta({ id: 'BusyInterval', description: 'A time the official is not available; why is never said.' })

/** How far a partner reads an official's availability in one call. */
export const MAX_AVAILABILITY_DAYS = 62

export const AvailabilityQuery = z.object({
  from: InstantInput('from').meta({ description: 'Start of the window (required).' }),
  to: InstantInput('to').meta({
    description: `End of the window (required): after from, at most ${MAX_AVAILABILITY_DAYS} days after it.`,
  }),
})
export type AvailabilityQuery = z.output<typeof AvailabilityQuery>
export type BusyInterval = z.infer<typeof BusyInterval>
