// The greedy pass: the fallback past the deadline, the solver's first incumbent, and the bench's yardstick.
// Scarcest positions first, each to the feasible official it costs least; every hard rule holds.
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
 * conflict (same game, or within the travel buffer) with a slot they already have.
 * @param {import('./problem.mjs').PackedProblem} P
 * @param {Ledger} ledger
 * @param {number} o
 * @param {number} s
 * @returns {boolean}
 */
export function fits(P, ledger, o, s) {
  const day = o * P.days.length + P.slotDay[s]
  if (ledger.perDay[day] >= P.room[day]) return false
  for (const t of ledger.taken[o]) {
    if (P.slotGame[t] === P.slotGame[s]) return false
    if (P.slotStart[t] < P.slotReach[s] && P.slotStart[s] < P.slotReach[t]) return false
  }
  return true
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
  return chosen
}

/**
 * A plan's place in the lexicographic order: filled positions, then the secondary cost (lower is better).
 * @param {import('./problem.mjs').PackedProblem} P
 * @param {import('./structure.mjs').Candidates} S
 * @param {Int32Array} chosen pair per slot, -1 when open
 * @returns {{ filled: number, cost: number }}
 */
export function score(P, S, chosen) {
  const added = new Int32Array(P.officialKeys.length)
  let filled = 0
  let cost = 0
  for (const p of chosen) {
    if (p < 0) continue
    const o = P.pairOfficial[p]
    filled++
    cost += S.cost[p] + spreadIncrement(P.held[o] + added[o])
    added[o]++
  }
  return { filled, cost }
}

/**
 * Whether plan a is strictly better than plan b.
 * @param {{ filled: number, cost: number }} a
 * @param {{ filled: number, cost: number }} b
 */
export const better = (a, b) => a.filled > b.filled || (a.filled === b.filled && a.cost < b.cost)
