// Time in tests moves through the services' clock (Deps.clock), never by waiting.
import type { Clock } from '../../src/clock.js'
import type { Deps } from '../../src/domain/deps.js'

/** The clock stopped at `when`. */
export const stoppedAt = (when: Date): Clock => ({ now: () => when.getTime() })

/** The same services, reading the time `when`. */
export const asOf = (deps: Deps, when: Date): Deps => ({ ...deps, clock: stoppedAt(when) })
