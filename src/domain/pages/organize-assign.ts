// The organizer's Assign tab in the app: the league's open positions of upcoming games, soonest first, each
// with its candidates as the assignor ranks them (assignment-plans.ts `listCandidates`): the eligible ones
// to assign with one press, the others with the rule that excludes them.
import type { AssignmentPlan, Candidate } from '../../schemas/plans.js'
import * as organizer from '../../store/organizer.js'
import { isoNow } from '../../clock.js'
import { getPlan } from '../plans/assignment-plans.js'
import { listCandidates } from '../plans/candidates.js'
import type { Caller } from '../core/caller.js'
import type { Deps } from '../core/deps.js'
import { requireOrganizedLeague, type OrganizedLeague } from './organize.js'

/** Positions on one board: each costs a candidates query, so the tab shows the soonest this many. */
const BOARD_SIZE = 25

export interface BoardPosition {
  readonly gameId: string
  readonly startsAt: string
  readonly sport: string
  readonly location: string
  readonly positionId: string
  readonly label: string
  readonly minLevel: number | null
  /** Eligible, best first. */
  readonly candidates: readonly Candidate[]
  /** Not eligible, each with the rules that exclude them. */
  readonly excluded: readonly Candidate[]
  /** The officials who gave this game back: the tab says so, and proposes none of them. */
  readonly turnedBackBy: readonly string[]
}

export async function listAssignBoard(
  deps: Deps,
  caller: Caller,
  leagueId: string,
): Promise<{ league: OrganizedLeague; positions: BoardPosition[]; more: boolean }> {
  const league = await requireOrganizedLeague(deps.db, caller, leagueId)
  const rows = await organizer.listOpenPositions(deps.db, league.id, isoNow(deps.clock), BOARD_SIZE + 1)
  const positions: BoardPosition[] = []
  for (const row of rows.slice(0, BOARD_SIZE)) {
    const all = await listCandidates(deps, caller, row.game_id, row.position_id)
    positions.push({
      gameId: row.game_id,
      startsAt: row.starts_at,
      sport: row.sport,
      location: row.location,
      positionId: row.position_id,
      label: row.label,
      minLevel: row.min_level,
      candidates: all.filter((c) => c.eligible),
      excluded: all.filter((c) => !c.eligible),
      turnedBackBy: all.filter((c) => c.reasons.includes('withdrew')).map((c) => c.name),
    })
  }
  return { league, positions, more: rows.length > BOARD_SIZE }
}

/** A plan with its league, for the plan's page; another league's plan reads as one that does not exist. */
export async function findPlanPage(
  deps: Deps,
  caller: Caller,
  planId: string,
): Promise<{ league: OrganizedLeague; plan: AssignmentPlan }> {
  const plan = await getPlan(deps, caller, planId)
  return { league: await requireOrganizedLeague(deps.db, caller, plan.leagueId), plan }
}
