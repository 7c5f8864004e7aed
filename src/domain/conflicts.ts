// The rules that refuse someone a position (DESIGN "Running the assigning", "Availability and conflicts").
// `refusalFor` is the single entry point: every path that gives a position (a partner's assign over REST and
// MCP, `refdesk app claim`, an official's claim in the app, an organizer's assign, a published plan) calls
// it inside its transaction, after the position is chosen and locked and before the claim is written. New
// rules are added here, not at the call sites.
import type { Transaction } from 'kysely'
import * as memberships from '../store/memberships.js'
import type { Db, GameRow, LeagueRow, PositionRow } from '../store/tables.js'

/** Each rule's code, answered as 409. */
export type Refusal = 'level_too_low'

export interface Taking {
  readonly league: LeagueRow
  readonly game: GameRow
  readonly position: PositionRow
  /** The user row that would hold the position (an approved official of the league). */
  readonly userId: string
  /**
   * Who gives it. `level_too_low` holds whoever it is; the rules about the person's time (schedule,
   * availability, daily limit) bind an official's own claim always and a partner's assign only under the
   * league's conflictPolicy `refuse`.
   */
  readonly by: 'partner' | 'official' | 'organizer'
  /**
   * The organizer's "Assign anyway" (`refdesk app assign --force`): the rules about the person's time do not
   * refuse; `level_too_low` still does.
   */
  readonly force?: boolean
}

/** The first rule that refuses this taking, or null when the person may take the position. */
export async function refusalFor(trx: Transaction<Db>, taking: Taking): Promise<Refusal | null> {
  const membership = await memberships.findMembership(trx, taking.league.id, taking.userId)
  if (!meetsLevel(membership?.level ?? null, taking.position.min_level)) return 'level_too_low'
  return null
}

/** A position without a minimum takes anyone; one with a minimum takes only a level at least as high. */
export function meetsLevel(level: number | null, minLevel: number | null): boolean {
  return minLevel === null || (level !== null && level >= minLevel)
}
