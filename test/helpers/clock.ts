// Time in tests moves through the services' clock (Deps.clock), never by waiting.
import type { Clock } from '../../src/clock.js'
import type { Deps } from '../../src/domain/core/deps.js'

/** The clock stopped at `when`. */
export const stoppedAt = (when: Date): Clock => ({ now: () => when.getTime() })

/** The same services, reading the time `when`. */
export const asOf = (deps: Deps, when: Date): Deps => ({ ...deps, clock: stoppedAt(when) })

/** After every game the fixtures seed (seedGame starts them on 2030-05-01): a game is completed once played. */
export const PLAYED = new Date('2031-01-01T00:00:00.000Z')

/** The same services, once the seeded games have been played. */
export const played = (deps: Deps): Deps => asOf(deps, PLAYED)

/** A clock the test sets or moves on, for an app built with `useTestApp({ clock })`. */
export function settableClock(when: Date): Clock & { set(when: Date): void; advance(ms: number): void } {
  let now = when.getTime()
  return {
    now: () => now,
    set: (next) => void (now = next.getTime()),
    advance: (ms) => void (now += ms),
  }
}
