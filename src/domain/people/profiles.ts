// A person's settings. Times in the app are shown in their time zone: until they choose one, their first
// league's (sessions.ts), UTC for someone in no league. A league's pages use the league's zone.
import { isoNow } from '../../clock.js'
import * as people from '../../store/people.js'
import * as plans from '../../store/plans.js'
import { canonicalTimeZone } from '../../schemas/schedule.js'
import type { Deps } from '../core/deps.js'
import { fail } from '../core/errors.js'

export const DEFAULT_TIME_ZONE = 'UTC'

/** The IANA zones this runtime knows, UTC first. */
export const TIME_ZONES: readonly string[] = [
  DEFAULT_TIME_ZONE,
  ...Intl.supportedValuesOf('timeZone').filter((zone) => zone !== DEFAULT_TIME_ZONE),
]
const KNOWN = new Set(TIME_ZONES)

/** Stores the zone's canonical name, as a league's is stored: `europe/berlin` is `Europe/Berlin`. */
export async function setTimeZone(deps: Deps, person: { email: string }, timeZone: string): Promise<void> {
  const zone = canonicalTimeZone(timeZone)
  if (zone === undefined || !KNOWN.has(zone)) fail('invalid_time_zone')
  await people.upsertTimeZone(deps.db, person.email, zone, isoNow(deps.clock))
}

/**
 * The person's home point, for the assignor's distance to a game; both null clears it. A latitude
 * outside ±90 or a longitude outside ±180, or one without the other, is refused.
 */
export async function setHomePoint(
  deps: Deps,
  /** `timeZone`: the one they see now, kept if setting the point makes their profile. */
  person: { email: string; timeZone?: string },
  point: { latitude: number | null; longitude: number | null },
): Promise<void> {
  const { latitude, longitude } = point
  if (latitude !== null && !(Math.abs(latitude) <= 90)) fail('invalid_latitude')
  if (longitude !== null && !(Math.abs(longitude) <= 180)) fail('invalid_longitude')
  if ((latitude === null) !== (longitude === null))
    fail(latitude === null ? 'invalid_latitude' : 'invalid_longitude')
  const at = isoNow(deps.clock)
  await plans.setHomePoint(deps.db, person.email, point, {
    timeZone: person.timeZone ?? DEFAULT_TIME_ZONE,
    at,
  })
}

/** The person's home point, or null until they set one. */
export async function getHomePoint(
  deps: Deps,
  person: { email: string },
): Promise<{ latitude: number; longitude: number } | null> {
  const row = await plans.findHomePoint(deps.db, person.email)
  if (!row || row.home_latitude === null || row.home_longitude === null) return null
  return { latitude: row.home_latitude, longitude: row.home_longitude }
}
