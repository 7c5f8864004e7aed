// How often a person may act in the app: claims and withdrawals, counted per person (their email address,
// whichever of their sessions acts) in a fixed window in the database, so every serving process shares the
// count. A claim-sniping script or a stuck form costs the shared database little, and people never notice.
import { isoNow } from '../../clock.js'
import * as counters from '../../store/sign-in-links.js'
import type { PersonCaller } from '../core/caller.js'
import type { Deps } from '../core/deps.js'
import { hashSecret } from '../core/secret-tokens.js'
import { iso, MINUTE_MS } from '../../time.js'

/** Claims and withdrawals a person may make per window. */
const ACTIONS_PER_WINDOW = 30
export const ACTION_WINDOW_MS = MINUTE_MS

/** Counts one action of the person: false when it is over the limit (and must not run). */
export async function admitAction(deps: Deps, person: PersonCaller): Promise<boolean> {
  const now = deps.clock.now()
  const windowStartedAfter = iso(now - ACTION_WINDOW_MS)
  const hits = await counters.countHit(
    deps.db,
    `action:${hashSecret(person.email)}`,
    isoNow(deps.clock),
    windowStartedAfter,
  )
  return hits <= ACTIONS_PER_WINDOW
}
