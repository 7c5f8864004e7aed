// The greedy pass: the fallback past the deadline, the solver's first incumbent, and the bench's yardstick.
// Scarcest positions first, each to the feasible official it costs least; every hard rule holds.
import { conflicting } from './problem.mjs'
import { spreadIncrement } from './weights.mjs'

/**
 * Which hard rule-keeping state a plan under construction carries.
 * @typedef {object} Ledger
 * @property {number[][]} taken slots per official
 * @property {Int32Array} perDay positions per [official * days + day]
 */

/**
 * @param {import('./problem.mjs').PackedProblem} P
 * @returns {Ledger}
 */
export function emptyLedger(P) {
  return {
    taken: P.officialKeys.map(() => []),
    perDay: new Int32Array(P.officialKeys.length * P.days.length),
  }
}

/**
 * Whether official o can take slot s on top of what the ledger holds: a free place on the day and no
 * conflict (`conflicting`) with a slot they already have.
 * @param {import('./problem.mjs').PackedProblem} P
 * @param {Ledger} ledger
 * @param {number} o
 * @param {number} s
 * @returns {boolean}
 */
export function fits(P, ledger, o, s) {
  const day = o * P.days.length + P.slotDay[s]
  if (ledger.perDay[day] >= P.room[day]) return false
  return ledger.taken[o].every((t) => !conflicting(P, s, t))
}

/**
 * @param {import('./problem.mjs').PackedProblem} P
 * @param {Ledger} ledger
 * @param {number} o
 * @param {number} s
 */
export function record(P, ledger, o, s) {
  ledger.taken[o].push(s)
  ledger.perDay[o * P.days.length + P.slotDay[s]]++
}

/**
 * Fills the open slots among `slots`, scarcest first (fewest candidates, then earliest, then by key),
 * each with the feasible candidate that costs least with the spread term (then the first by key).
 * @param {import('./problem.mjs').PackedProblem} P
 * @param {import('./structure.mjs').Candidates} S
 * @param {Int32Array} slots
 * @param {Ledger} ledger what `chosen` already holds
 * @param {Int32Array} chosen pair per slot, -1 when open; filled in place
 */
export function fillOpen(P, S, slots, ledger, chosen) {
  const candidates = (/** @type {number} */ s) => S.slotFirst[s + 1] - S.slotFirst[s]
  const order = slots
    .filter((s) => chosen[s] < 0)
    .sort((a, b) => candidates(a) - candidates(b) || P.slotStart[a] - P.slotStart[b] || a - b)
  for (const s of order) {
    let best = -1
    let bestCost = Infinity
    for (let k = S.slotFirst[s]; k < S.slotFirst[s + 1]; k++) {
      const p = S.order[k]
      const o = P.pairOfficial[p]
      const cost = S.cost[p] + spreadIncrement(P.held[o] + ledger.taken[o].length)
      if (cost < bestCost && fits(P, ledger, o, s)) {
        best = p
        bestCost = cost
      }
    }
    if (best < 0) continue
    chosen[s] = best
    record(P, ledger, P.pairOfficial[best], s)
  }
}

/**
 * The ledger of a plan.
 * @param {import('./problem.mjs').PackedProblem} P
 * @param {Int32Array} chosen
 */
function ledgerOf(P, chosen) {
  const ledger = emptyLedger(P)
  chosen.forEach((p, s) => {
    if (p >= 0) record(P, ledger, P.pairOfficial[p], s)
  })
  return ledger
}

/**
 * The centre first, what every plan goes through last: an official on another position of a game whose
 * lead stays open, who could take the lead, takes it instead (the same game at the same time: every rule
 * still holds, as many positions, one more lead), and the position they leave goes to whoever fits. A
 * plan with the most leads has no such official; this holds a plan cut short by its deadline to it too.
 * @param {import('./problem.mjs').PackedProblem} P
 * @param {import('./structure.mjs').Candidates} S
 * @param {Int32Array} chosen pair per slot, -1 when open; changed in place
 */
export function leadsFirst(P, S, chosen) {
  /** @type {Map<number, number[]>} */
  const ofGame = new Map()
  P.slotGame.forEach((g, s) => ofGame.set(g, [...(ofGame.get(g) ?? []), s]))
  const ledger = ledgerOf(P, chosen)
  const freed = []
  for (let lead = 0; lead < chosen.length; lead++) {
    if (P.slotLead[lead] !== 1 || chosen[lead] >= 0) continue
    for (const s of ofGame.get(P.slotGame[lead]) ?? []) {
      if (chosen[s] < 0) continue
      const o = P.pairOfficial[chosen[s]]
      let pair = -1
      for (let k = S.slotFirst[lead]; k < S.slotFirst[lead + 1] && pair < 0; k++) {
        if (P.pairOfficial[S.order[k]] === o) pair = S.order[k]
      }
      if (pair < 0) continue
      chosen[lead] = pair
      chosen[s] = -1
      ledger.taken[o] = ledger.taken[o].map((t) => (t === s ? lead : t))
      freed.push(s)
      break
    }
  }
  if (freed.length > 0) fillOpen(P, S, Int32Array.from(freed), ledger, chosen)
}

/**
 * The greedy plan: the pair index chosen per slot, -1 where none fits.
 * @param {import('./problem.mjs').PackedProblem} P
 * @param {import('./structure.mjs').Candidates} S
 * @returns {Int32Array}
 */
export function greedyAssignment(P, S) {
  const nSlots = P.slotKeys.length
  const chosen = new Int32Array(nSlots).fill(-1)
  fillOpen(
    P,
    S,
    Int32Array.from({ length: nSlots }, (_, s) => s),
    emptyLedger(P),
    chosen,
  )
  leadsFirst(P, S, chosen)
  return chosen
}

/**
 * A plan's place in the lexicographic order: filled positions, filled leads, then the secondary cost
 * (lower is better).
 * @param {import('./problem.mjs').PackedProblem} P
 * @param {import('./structure.mjs').Candidates} S
 * @param {Int32Array | number[]} chosen pair per slot (-1 when open), or the plan's pairs
 * @returns {{ filled: number, leads: number, cost: number }}
 */
export function score(P, S, chosen) {
  const added = new Int32Array(P.officialKeys.length)
  let filled = 0
  let leads = 0
  let cost = 0
  for (const p of chosen) {
    if (p < 0) continue
    const o = P.pairOfficial[p]
    filled++
    leads += P.slotLead[P.pairSlot[p]]
    cost += S.cost[p] + spreadIncrement(P.held[o] + added[o])
    added[o]++
  }
  return { filled, leads, cost }
}
