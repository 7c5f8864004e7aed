// The plan in words: each proposal's deciding terms, and for each position left open the rule that
// excluded each official (or that every eligible one fills another position of the plan).
import { REASON_IDS, type PlanProposal, type PlanUnfilled } from '../../schemas/plans.js'
import {
  COST_UNITS_PER_KM,
  LEVEL_MARGIN_REWARD,
  SPREAD_STEP,
  UNKNOWN_DISTANCE_KM,
  type Plan,
  type ProposalTerms,
} from '../assignor/index.js'
import { pairReasons, type SlotFact, type Teller, type WindowFacts } from './plan-window.js'

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
  return sentence([
    terms.onlyEligible
      ? 'the only eligible official'
      : `best of ${terms.eligibleOfficials} eligible officials`,
    ...termsInWords(terms),
  ])
}

/** A proposal the organizer chose in an edit of the plan: their choice first, then the same terms. */
export function chosenWhy(terms: ProposalTerms): string {
  return sentence(['chosen by the organizer', ...termsInWords(terms)])
}

function termsInWords(terms: ProposalTerms): string[] {
  const parts: string[] = []
  if (terms.levelMargin > 0) parts.push(`level ${terms.levelMargin} above the minimum`)
  parts.push(terms.distanceKm === null ? 'distance unknown' : `${terms.distanceKm} km from home`)
  const nth = terms.gamesHeld + terms.gamesPlanned
  parts.push(
    terms.gamesHeld === 0
      ? `their ${ordinal(terms.gamesPlanned)} planned game in the window`
      : `their ${ordinal(nth)} game in the window (${terms.gamesHeld} held before)`,
  )
  return parts
}

function sentence(parts: string[]): string {
  const text = parts.join('; ')
  return text.charAt(0).toUpperCase() + text.slice(1)
}

/**
 * Each rule that excluded officials from the position, with how many and the first REASON_IDS of them
 * (pool order): one pass over the officials, constant work each, and an answer bounded per position
 * whatever the pool's size.
 */
function unfilledReasons(facts: WindowFacts, slotIndex: number, tell: Teller): PlanUnfilled['reasons'] {
  const slot = facts.slots[slotIndex]!
  const byCode = new Map<string, { code: string; count: number; userIds: string[] }>()
  for (const official of facts.officials) {
    const code = tell(slot, official, pairReasons(facts, slot, official))[0] ?? 'planned_elsewhere'
    let reason = byCode.get(code)
    if (!reason) byCode.set(code, (reason = { code, count: 0, userIds: [] }))
    reason.count++
    if (reason.userIds.length < REASON_IDS) reason.userIds.push(official.userId)
  }
  if (facts.officials.length === 0)
    byCode.set('no_officials', { code: 'no_officials', count: 0, userIds: [] })
  return [...byCode.values()]
}

/** Where and when a proposal's position is played, so a reviewer needs no second read. */
export const gameOf = (slot: SlotFact): PlanProposal['game'] => ({
  startsAt: slot.startsAt,
  location: slot.location,
  venue: slot.venue,
  sport: slot.sport,
  label: slot.label,
})

/** Pairs explained between two turns of the event loop (as plan-window.ts judges them): a few ms. */
const EXPLAIN_CHUNK = 2048

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

/**
 * The solver's plan as the API shows it, proposals and unfilled positions by start, then position. The
 * explanations run a few positions per turn of the event loop, so other requests are answered between.
 */
export async function explainPlan(
  facts: WindowFacts,
  solved: Plan,
  /** What the plan's maker may be told of each reason (candidates.ts `tellerFor`). */
  tell: Teller,
): Promise<{ proposals: PlanProposal[]; unfilled: PlanUnfilled[] }> {
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
      game: gameOf(slot),
      why: why(p.terms),
      terms: p.terms,
    }
  })
  const unfilled: PlanUnfilled[] = []
  let sinceTurn = EXPLAIN_CHUNK
  for (const key of solved.unfilled) {
    if (sinceTurn >= EXPLAIN_CHUNK) {
      await turn()
      sinceTurn = 0
    }
    sinceTurn += facts.officials.length
    const i = index.get(key)!
    const slot = facts.slots[i]!
    unfilled.push({
      gameId: slot.gameId,
      positionId: slot.positionId,
      startsAt: slot.startsAt,
      label: slot.label,
      reasons: unfilledReasons(facts, i, tell),
    })
  }
  return { proposals: proposals.sort(byStart), unfilled: unfilled.sort(byStart) }
}
