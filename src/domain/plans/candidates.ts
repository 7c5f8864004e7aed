// Candidates for one position (`GET /games/{id}/candidates`): the league's officials ranked as a plan would
// weigh them, each with what excludes them as the caller may be told it (DESIGN "Consent").
import type { Candidate } from '../../schemas/plans.js'
import * as leagues from '../../store/leagues.js'
import * as positions from '../../store/positions.js'
import { requireGame } from '../core/access.js'
import type { Caller } from '../core/caller.js'
import type { Deps } from '../core/deps.js'
import { fail } from '../core/errors.js'
import { ruleSettings } from '../availability/conflicts.js'
import { rankCost } from './plan-explain.js'
import {
  distanceKm,
  gamesHeldIn,
  levelMargin,
  loadFacts,
  ownFacts,
  pairReasons,
  slotFact,
  type Teller,
  type WindowFacts,
} from './plan-window.js'
import { DAY_MS } from '../../time.js'

/** Candidates' gamesInWindow counts this far either side of the game. */
const CANDIDATE_WINDOW_MS = 7 * DAY_MS

/** Officials for one position, eligible first, then cheapest as the plan would weigh them. */
export async function listCandidates(
  deps: Deps,
  caller: Caller,
  gameId: string,
  positionId: string | undefined,
): Promise<Candidate[]> {
  const game = await requireGame(deps.db, caller, gameId)
  const list = await positions.listPositions(deps.db, [game.id])
  const position =
    positionId === undefined
      ? (list.find((p) => p.status === 'open') ?? list[0])
      : list.find((p) => p.id === positionId)
  if (!position) fail('position_not_found')
  const league = (await leagues.findLeague(deps.db, game.league_id)) ?? fail('game_not_found')
  const rules = ruleSettings(league)
  const slot = slotFact(
    {
      ...game,
      position_id: position.id,
      game_id: game.id,
      label: position.label,
      min_level: position.min_level,
    },
    rules,
  )
  const facts = await loadFacts(deps.db, league, [slot], rules, undefined, CANDIDATE_WINDOW_MS)
  const window = { from: slot.start - CANDIDATE_WINDOW_MS, to: slot.start + CANDIDATE_WINDOW_MS }
  const tell = tellerFor(caller, facts)
  const rows = facts.officials.map((official) => {
    const reasons = pairReasons(facts, slot, official)
    const distance = distanceKm(official.home, slot.point)
    const gamesInWindow = gamesHeldIn(facts, official, window).length
    const cost = rankCost(levelMargin(slot, official), distance, gamesInWindow)
    const candidate: Candidate = {
      userId: official.userId,
      name: official.name,
      level: official.level,
      eligible: reasons.length === 0,
      reasons: tell(slot, official, reasons),
      gamesInWindow,
      distanceKm: distance,
    }
    return { candidate, cost }
  })
  rows.sort(
    (a, b) =>
      Number(b.candidate.eligible) - Number(a.candidate.eligible) ||
      a.cost - b.cost ||
      a.candidate.name.localeCompare(b.candidate.name) ||
      (a.candidate.userId < b.candidate.userId ? -1 : 1),
  )
  return rows.map((row) => row.candidate)
}

/**
 * The reasons a caller is told (DESIGN "Consent"): of a person who has not joined the league, only
 * `unconfirmed`; a partner learns what the league's own games and rules exclude, and what the person's
 * time elsewhere excludes only as one `unavailable`, so a game cannot be told from a blackout. The
 * league's own facts are derived once for all the pairs told.
 */
export function tellerFor(caller: Caller, facts: WindowFacts): Teller {
  const own = caller.kind === 'partner' ? ownFacts(facts) : undefined
  return (slot, official, reasons) => {
    if (!official.joined) return ['unconfirmed']
    if (!own) return [...reasons]
    const ownReasons = pairReasons(own, slot, official)
    const elsewhere = reasons.some((r) => !ownReasons.includes(r))
    const time = ownReasons.filter((r) => r !== 'level_too_low')
    const level = ownReasons.filter((r) => r === 'level_too_low')
    return [...time, ...(elsewhere ? ['unavailable'] : []), ...level]
  }
}
