// An official's schedule: the positions they hold across all their leagues, upcoming first (soonest first),
// then past ones (latest first, a page at a time). Withdrawal is `withdrawClaim` (assignments.ts).
import type { GameStatus, PositionStatus } from '../store/tables.js'
import * as officialGames from '../store/official-games.js'
import type { HeldPositionRow } from '../store/official-games.js'
import { isoNow } from '../clock.js'
import type { PersonCaller } from './caller.js'
import type { Deps } from './deps.js'
import { fail } from './errors.js'

export interface HeldGame {
  readonly positionId: string
  readonly label: string
  readonly payCents: number
  readonly currency: string
  readonly positionStatus: PositionStatus
  readonly gameId: string
  readonly gameStatus: GameStatus
  readonly startsAt: string
  readonly endsAt: string
  readonly sport: string
  readonly location: string
  readonly leagueId: string
  readonly leagueName: string
  /** Upcoming, still claimed, in a game that is not cancelled. */
  readonly withdrawable: boolean
}

export interface Schedule {
  readonly upcoming: readonly HeldGame[]
  readonly past: readonly HeldGame[]
  /** Whether older past games follow on the next page. */
  readonly morePast: boolean
}

const PAST_PAGE_SIZE = 50

export function toHeldGame(row: HeldPositionRow, at: string): HeldGame {
  return {
    positionId: row.position_id,
    label: row.label,
    payCents: row.pay_cents,
    currency: row.currency,
    positionStatus: row.position_status,
    gameId: row.game_id,
    gameStatus: row.game_status,
    startsAt: row.starts_at,
    endsAt: row.ends_at,
    sport: row.sport,
    location: row.location,
    leagueId: row.league_id,
    leagueName: row.league_name,
    withdrawable: row.position_status === 'claimed' && row.game_status !== 'cancelled' && row.starts_at > at,
  }
}

/** `page` 1 is the first page of past games; every page shows all upcoming ones. */
export async function listSchedule(deps: Deps, person: PersonCaller, page = 1): Promise<Schedule> {
  const at = isoNow(deps.clock)
  const [upcoming, past] = await Promise.all([
    officialGames.listUpcomingHeld(deps.db, person.userIds, at),
    officialGames.listPastHeld(deps.db, person.userIds, at, {
      limit: PAST_PAGE_SIZE + 1,
      offset: (page - 1) * PAST_PAGE_SIZE,
    }),
  ])
  return {
    upcoming: upcoming.map((row) => toHeldGame(row, at)),
    past: past.slice(0, PAST_PAGE_SIZE).map((row) => toHeldGame(row, at)),
    morePast: past.length > PAST_PAGE_SIZE,
  }
}

/** One position the person holds; anyone else's answers like a missing one. */
export async function findHeldGame(deps: Deps, person: PersonCaller, positionId: string): Promise<HeldGame> {
  const row = await officialGames.findHeld(deps.db, person.userIds, positionId)
  return toHeldGame(row ?? fail('position_not_found'), isoNow(deps.clock))
}
