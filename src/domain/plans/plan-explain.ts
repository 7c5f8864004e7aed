// The plan in words: each proposal's deciding terms, and for each position left open the rule that
// excluded each official (or that every eligible one fills another position of the plan).
import type { PlanProposal, PlanUnfilled } from '../../schemas/plans.js'
import {
  COST_UNITS_PER_KM,
  LEVEL_MARGIN_REWARD,
  SPREAD_STEP,
  UNKNOWN_DISTANCE_KM,
  type Plan,
  type ProposalTerms,
} from '../assignor/index.js'
import { pairReasons, type WindowFacts } from './plan-window.js'

/** The solver's cost of one pair for an official holding `gamesHeld`: how candidates are ranked. */
export function rankCost(levelMargin: number, distanceKm: number | null, gamesHeld: number): number {
  const km = distanceKm ?? UNKNOWN_DISTANCE_KM
  return Math.round(km * COST_UNITS_PER_KM) - LEVEL_MARGIN_REWARD * levelMargin + SPREAD_STEP * gamesHeld
}

const ordinal = (n: number): string => {
  const suffixes = ['th', 'st', 'nd', 'rd']
  const v = n % 100
  return `${n}${suffixes[(v - 20) % 10] ?? suffixes[v] ?? 'th'}`
}

/** The deciding terms, most decisive first. */
function why(terms: ProposalTerms): string {
  const parts: string[] = []
  parts.push(
    terms.onlyEligible
      ? 'the only eligible official'
      : `best of ${terms.eligibleOfficials} eligible officials`,
  )
  if (terms.levelMargin > 0) parts.push(`level ${terms.levelMargin} above the minimum`)
  parts.push(terms.distanceKm === null ? 'distance unknown' : `${terms.distanceKm} km from home`)
  const nth = terms.gamesHeld + terms.gamesPlanned
  parts.push(
    terms.gamesHeld === 0
      ? `their ${ordinal(terms.gamesPlanned)} planned game in the window`
      : `their ${ordinal(nth)} game in the window (${terms.gamesHeld} held before)`,
  )
  const text = parts.join('; ')
  return text.charAt(0).toUpperCase() + text.slice(1)
}

function unfilledReasons(facts: WindowFacts, slotIndex: number): PlanUnfilled['reasons'] {
  const slot = facts.slots[slotIndex]!
  const byCode = new Map<string, string[]>()
  for (const official of facts.officials) {
    const code = pairReasons(facts, slot, official)[0] ?? 'planned_elsewhere'
    byCode.set(code, [...(byCode.get(code) ?? []), official.userId])
  }
  if (facts.officials.length === 0) byCode.set('no_officials', [])
  return [...byCode].map(([code, userIds]) => ({ code, userIds }))
}

/** The solver's plan as the API shows it, proposals and unfilled positions by start, then position. */
export function explainPlan(
  facts: WindowFacts,
  solved: Plan,
): { proposals: PlanProposal[]; unfilled: PlanUnfilled[] } {
  const index = new Map(facts.slots.map((slot, i) => [slot.positionId, i]))
  const names = new Map(facts.officials.map((o) => [o.userId, o.name]))
  const byStart = (a: { positionId: string }, b: { positionId: string }) =>
    index.get(a.positionId)! - index.get(b.positionId)!
  const proposals = solved.proposals.map((p) => {
    const slot = facts.slots[index.get(p.slotKey)!]!
    return {
      gameId: slot.gameId,
      positionId: slot.positionId,
      userId: p.officialKey,
      name: names.get(p.officialKey) ?? '',
      startsAt: slot.startsAt,
      label: slot.label,
      why: why(p.terms),
      terms: p.terms,
    }
  })
  const unfilled = solved.unfilled.map((key) => {
    const i = index.get(key)!
    const slot = facts.slots[i]!
    return {
      gameId: slot.gameId,
      positionId: slot.positionId,
      startsAt: slot.startsAt,
      label: slot.label,
      reasons: unfilledReasons(facts, i),
    }
  })
  return { proposals: proposals.sort(byStart), unfilled: unfilled.sort(byStart) }
}
