// A person's settings. Times in the app are shown in their time zone, UTC until they choose one.
import { isoNow } from '../clock.js'
import * as people from '../store/people.js'
import type { Deps } from './deps.js'
import { fail } from './errors.js'

export const DEFAULT_TIME_ZONE = 'UTC'

/** The IANA zones this runtime knows, UTC first. */
export const TIME_ZONES: readonly string[] = [
  DEFAULT_TIME_ZONE,
  ...Intl.supportedValuesOf('timeZone').filter((zone) => zone !== DEFAULT_TIME_ZONE),
]
const KNOWN = new Set(TIME_ZONES)

export async function setTimeZone(deps: Deps, person: { email: string }, timeZone: string): Promise<void> {
  if (!KNOWN.has(timeZone)) fail('invalid_time_zone')
  await people.upsertTimeZone(deps.db, person.email, timeZone, isoNow(deps.clock))
}
