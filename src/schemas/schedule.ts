// Schedule data (DESIGN "Running the assigning"): time zones, lengths of games, levels, and the calendar
// check that keeps an impossible date from rolling over into the next month.
import { z } from 'zod'
import { extension, isStorableText } from './common.js'

/** The longest IANA name is 32 characters (`America/Argentina/ComodRivadavia`); twice that is generous. */
const MAX_TIME_ZONE_LENGTH = 64
/** Names only (`Area/Location`, `UTC`, `Etc/GMT+5`): an offset such as `+01:00` is not a zone. */
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+\-/]*$/

/**
 * The runtime's canonical name (ICU, through Intl) of an IANA zone name, or undefined for one it does not
 * know. Zone names match case-insensitively, so `europe/berlin` is `Europe/Berlin`, and aliases resolve
 * (`US/Pacific` is `America/Los_Angeles`): what is stored and shown is one name per zone.
 */
export function canonicalTimeZone(name: string): string | undefined {
  if (name.length > MAX_TIME_ZONE_LENGTH || !ZONE_NAME.test(name)) return undefined
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone
  } catch {
    return undefined
  }
}

export const TimeZoneInput = z
  .string({ error: 'invalid_timeZone' })
  .max(MAX_TIME_ZONE_LENGTH, { error: 'invalid_timeZone' })
  .refine((name) => isStorableText(name) && canonicalTimeZone(name) !== undefined, {
    error: 'invalid_timeZone',
  })
  .transform((name) => canonicalTimeZone(name)!)
  .meta({ description: 'IANA time zone name, e.g. `America/Los_Angeles`.', example: 'America/Los_Angeles' })

/** An integer field in [min, max]; anything else (a fraction, a string, null) answers `invalid_<name>`. */
export const integerIn = (name: string, min: number, max: number) =>
  z
    .number({ error: `invalid_${name}` })
    .int({ error: `invalid_${name}` })
    .min(min, { error: `invalid_${name}` })
    .max(max, { error: `invalid_${name}` })

export const GAME_MINUTES = { min: 15, max: 600, default: 90 } as const
export const TRAVEL_BUFFER_MINUTES = { min: 0, max: 240, default: 30 } as const
export const MAX_GAMES_PER_DAY = { min: 1, max: 20 } as const
export const LEVEL = { min: 1, max: 5 } as const
export const CONFLICT_POLICIES = ['allow', 'refuse'] as const

export const DurationMinutesInput = extension(
  integerIn('durationMinutes', GAME_MINUTES.min, GAME_MINUTES.max),
  `The game's length in minutes (${GAME_MINUTES.min}–${GAME_MINUTES.max}); default: the league's gameMinutes.`,
)

export const LevelInput = extension(
  integerIn('level', LEVEL.min, LEVEL.max).nullable(),
  `The official's level in this league, ${LEVEL.min}–${LEVEL.max}, or null (none).`,
)

export const MinLevelInput = integerIn('minLevel', LEVEL.min, LEVEL.max)
  .nullable()
  .meta({
    description: `The least level that may take the position, ${LEVEL.min}–${LEVEL.max}, or null (anyone).`,
  })

export const Level = z.number().int().min(LEVEL.min).max(LEVEL.max).nullable()
