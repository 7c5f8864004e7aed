// The exact solve: the most positions, then the most leads (per hard component), then the cheapest plan
// that fills that many
// (per soft component), each by column generation with a proof. The LP over the columns so far is
// re-solved until no other pair has a negative reduced cost: its optimum is then the full LP's, a bound
// on every plan. A restricted integer optimum within one unit of that bound is proven optimal (the
// objective is integral); otherwise every pair whose reduced cost is below the gap joins and the
// integer program is solved again: a pair with reduced cost d can only sit in plans costing at least
// bound + d, so the others cannot improve on the incumbent.
import { greedyAssignment, leadsFirst, score } from './greedy.mjs'
import { RestrictedModel } from './restricted-model.mjs'
import { hardComponents, softComponents } from './structure.mjs'
import { spreadIncrement } from './weights.mjs'

const STATUS_OPTIMAL = 7
const NONE = new Uint8Array(0)
/**
 * Cheapest candidates per slot the first LP starts with, besides the incumbent's, and the most a slot
 * gains per pricing round. Each round re-optimises the LP, so fewer, fuller rounds are cheaper; these
 * took 4 rounds on the bench's weekend against 7 for 3 and 3.
 */
const INITIAL_PER_SLOT = 12
const ADDED_PER_SLOT = 6
/** Reduced costs are sums of duals of integral data; this absorbs the LP's rounding. */
const EPSILON = 1e-6
/**
 * The preferences are optimal within this share of their cost: HiGHS's own default MIP gap. Proving
 * the last unit (100 m over a weekend's plan) can cost more branching than the rest of the solve; the
 * count is always exact, and below 10,000 units (every small instance) so are the preferences.
 */
const PREFERENCE_GAP = 1e-4
/** Share of the time left each search for a plan near the bound may take: the proof needs the rest. */
const SEARCH_SHARE = 0.3

/**
 * @typedef {object} ComponentResult
 * @property {number[]} pairs the component's plan
 * @property {boolean} proven
 */

/**
 * What judging a plan of a component needs.
 * @typedef {object} Judge
 * @property {import('./problem.mjs').PackedProblem} P
 * @property {import('./structure.mjs').Structure} S
 * @property {import('./restricted-model.mjs').Phase} phase
 * @property {number} total positions any plan of the model fills (preferences only)
 * @property {number} leadTotal leads any plan of the model fills (preferences only)
 * @property {number} leadWeight what a position is worth when counting, a lead one more
 */

/**
 * @param {number} deadlineAt
 * @returns {number} seconds HiGHS may still use, 0 when none are left
 */
function secondsLeft(deadlineAt) {
  return Math.max(0, (deadlineAt - Date.now()) / 1000)
}

/**
 * The component's objective for a plan: -(filled × leadWeight + leads filled) when counting, cost with
 * the spread term otherwise.
 * @param {Judge} j
 * @param {number[]} pairs
 */
function objective(j, pairs) {
  const { filled, leads, cost } = score(j.P, j.S, pairs)
  return j.phase === 'count' ? -(filled * j.leadWeight + leads) : cost
}

/**
 * Whether plan a beats plan b: a preference plan that fills fewer positions or leads than it must is no
 * plan.
 * @param {Judge} j
 * @param {number[]} a
 * @param {number[]} b
 */
function beats(j, a, b) {
  const fills = j.phase === 'count' || (a.length >= j.total && score(j.P, j.S, a).leads >= j.leadTotal)
  return fills && objective(j, a) < objective(j, b)
}

/**
 * Column generation on the LP relaxation: re-solve, price every other candidate with the duals, add
 * the most negative few per slot, until none is negative. Returns the reduced cost of every candidate
 * outside the model and the LP bound, or null when the time ran out.
 * @param {RestrictedModel} m
 * @param {Int32Array} slots
 * @param {number} deadlineAt
 * @returns {{ bound: number, reduced: Map<number, number> } | null}
 */
function priceOut(m, slots, deadlineAt) {
  const { S } = m
  for (;;) {
    const left = secondsLeft(deadlineAt)
    // The previous basis stays valid when columns are added: no presolve, a warm dual simplex.
    if (left === 0 || m.run({ time_limit: left, presolve: 'off' }) !== STATUS_OPTIMAL) return null
    const { rowDual } = m.model.getSolution()
    /** @type {Map<number, number>} */
    const reduced = new Map()
    const entering = []
    for (const s of slots) {
      const negative = []
      for (let k = S.slotFirst[s]; k < S.slotFirst[s + 1]; k++) {
        const p = S.order[k]
        if (m.pairCol[p] >= 0) continue
        const d = m.reducedCost(p, rowDual)
        reduced.set(p, d)
        if (d < -EPSILON) negative.push([d, p])
      }
      negative.sort((a, b) => a[0] - b[0] || a[1] - b[1])
      entering.push(...negative.slice(0, ADDED_PER_SLOT).map((e) => e[1]))
    }
    if (entering.length === 0) return { bound: m.model.getObjectiveValue(), reduced }
    m.addPairs(entering, false)
  }
}

/**
 * The first columns: the incumbent's pairs and each slot's cheapest few.
 * @param {RestrictedModel} m
 * @param {Int32Array} slots
 * @param {number[]} incumbent
 */
function initialPairs(m, slots, incumbent) {
  const { P, S } = m
  const pairs = new Set(incumbent)
  const key = (/** @type {number} */ p) => S.cost[p] + spreadIncrement(P.held[P.pairOfficial[p]])
  for (const s of slots) {
    const mine = Array.from(S.order.subarray(S.slotFirst[s], S.slotFirst[s + 1]))
    mine.sort((a, b) => key(a) - key(b) || a - b)
    for (const p of mine.slice(0, INITIAL_PER_SLOT)) pairs.add(p)
  }
  return [...pairs].sort((a, b) => a - b)
}

/**
 * The LP relaxation over all the component's pairs: its bound, every pair's reduced cost, the rows it
 * binds, the pairs it sets to one, and its plan when it is integral (then no plan is better).
 * @param {RestrictedModel} m
 * @param {Int32Array} slots
 * @param {number[]} incumbent
 * @param {number} deadlineAt
 */
function relax(m, slots, incumbent, deadlineAt) {
  m.addPairs(initialPairs(m, slots, incumbent), false)
  const lp = priceOut(m, slots, deadlineAt)
  if (lp === null) return null
  const { colValue, colDual, rowDual } = m.model.getSolution()
  m.colPair.forEach((p, c) => {
    if (p >= 0) lp.reduced.set(p, colDual[c])
  })
  return {
    ...lp,
    ones: m.colPair.filter((p, c) => p >= 0 && colValue[c] > 1 - EPSILON),
    tight: m.tightRows(rowDual),
    integral: m.integral() ? m.chosenPairs() : null,
  }
}

/**
 * The integer program over some of the component's pairs, from the incumbent (added if missing).
 * Returns the better of its plan and the incumbent, and whether HiGHS proved it within `gap`.
 * @param {RestrictedModel} m a fresh model
 * @param {number[]} pairs
 * @param {number[]} incumbent
 * @param {number} gap
 * @param {number} deadlineAt
 * @param {number} [target] stop at a plan this cheap
 */
function solveInteger(m, pairs, incumbent, gap, deadlineAt, target) {
  m.addPairs(
    [...new Set([...pairs, ...incumbent])].sort((a, b) => a - b),
    true,
  )
  m.startFrom(incumbent)
  const left = secondsLeft(deadlineAt)
  if (left === 0) return { pairs: incumbent, proven: false }
  const limits = { time_limit: left, mip_rel_gap: 0, mip_abs_gap: gap - EPSILON }
  const status = m.run(target === undefined ? limits : { ...limits, objective_target: target })
  const found = m.hasFeasibleSolution() ? m.chosenPairs() : incumbent
  return { pairs: beats(m.judge, found, incumbent) ? found : incumbent, proven: status === STATUS_OPTIMAL }
}

/**
 * The gap, in cost units, within which a plan counts as optimal: below one unit (exact, the objective
 * being integral) for the count; PREFERENCE_GAP of the bound, at least one unit, for the preferences.
 * @param {Judge} j
 * @param {number} bound
 */
function tolerance(j, bound) {
  return j.phase === 'count' ? 1 : Math.max(1, Math.floor(PREFERENCE_GAP * Math.abs(bound)))
}

/**
 * A plan on the LP's optimal face: pairs at zero reduced cost only, the binding rows held, the LP's
 * ones kept. It costs about the bound and, on these problems, is found in a fraction of what a full
 * branch and bound takes; it may not exist, then this finds nothing.
 * @param {RestrictedModel} m a fresh model with the LP's tight rows
 * @param {number[]} zero
 * @param {number[]} ones
 * @param {number} target
 * @param {number} deadlineAt
 */
function onFace(m, zero, ones, target, deadlineAt) {
  m.addPairs(zero, true)
  m.boundPairs(ones, 1, 1)
  const until = Date.now() + (deadlineAt - Date.now()) * SEARCH_SHARE
  m.run({ time_limit: secondsLeft(until), mip_rel_gap: 0, objective_target: target })
  return m.hasFeasibleSolution() ? m.chosenPairs() : null
}

/**
 * @param {import('highs').Highs} highs
 * @param {import('./problem.mjs').PackedProblem} P
 * @param {import('./structure.mjs').Structure} S
 * @param {Int32Array} slots the component
 * @param {import('./restricted-model.mjs').Phase} phase
 * @param {number[]} incumbent the component's current plan (a feasible start)
 * @param {number} deadlineAt
 * @param {Uint8Array} [must] slots the plan must fill (see Fill)
 * @param {boolean} [proofOnly] skip the shortcuts (an integral LP, the searches near the bound): the
 *   proof alone must reach the optimum, which the tests check
 * @returns {ComponentResult}
 */
export function solveComponent(
  highs,
  P,
  S,
  slots,
  phase,
  incumbent,
  deadlineAt,
  must = NONE,
  proofOnly = false,
) {
  const free = incumbent.filter((p) => must[P.pairSlot[p]] !== 1)
  const leadTotal = incumbent.filter((p) => P.slotLead[P.pairSlot[p]] === 1).length
  const fill = {
    must,
    floor: free.length,
    total: incumbent.length,
    leadFloor: free.filter((p) => P.slotLead[P.pairSlot[p]] === 1).length,
    leadTotal,
    leadWeight: 1 + slots.filter((s) => P.slotLead[s] === 1).length,
  }
  const judge = { P, S, phase, total: incumbent.length, leadTotal, leadWeight: fill.leadWeight }
  const fresh = (/** @type {import('./restricted-model.mjs').Tight | undefined} */ tight = undefined) =>
    new RestrictedModel(highs, P, S, phase, fill, tight)
  const lp = using(fresh(), (m) => relax(m, slots, incumbent, deadlineAt))
  if (lp === null) return { pairs: incumbent, proven: false }
  if (lp.integral && !proofOnly) return { pairs: lp.integral, proven: true }
  const gap = tolerance(judge, lp.bound)
  const within = (/** @type {number[]} */ plan) => objective(judge, plan) - gap < lp.bound - EPSILON
  const pool = (/** @type {number} */ reach) =>
    [...lp.reduced].filter(([, d]) => d <= reach + EPSILON).map(([p]) => p)
  const target = Math.ceil(lp.bound - EPSILON) + gap - 1
  const zero = pool(0)
  const searches = [
    () => using(fresh(lp.tight), (m) => onFace(m, zero, lp.ones, target, deadlineAt)),
    () => {
      const until = Date.now() + (deadlineAt - Date.now()) * SEARCH_SHARE
      return using(fresh(), (m) => solveInteger(m, zero, best, gap, until, target).pairs)
    },
  ]
  let best = incumbent
  for (const search of proofOnly ? [] : searches) {
    const found = search()
    if (found && beats(judge, found, best)) best = found
    if (within(best)) return { pairs: best, proven: true }
  }
  // A plan costing z uses only pairs whose reduced cost is at most z - bound. Plans worth finding cost
  // at most best - gap, so they lie among the pairs within `reach`, and the integer program over those
  // (stopped within the gap) finds them or proves there are none.
  const reach = objective(judge, best) - gap - lp.bound
  return using(fresh(), (m) => solveInteger(m, pool(reach), best, gap, deadlineAt))
}

/**
 * Runs `use` on a model and disposes it: each HiGHS instance lives for one solve.
 * @template T
 * @param {RestrictedModel} m
 * @param {(m: RestrictedModel) => T} use
 * @returns {T}
 */
function using(m, use) {
  try {
    return use(m)
  } finally {
    m.dispose()
  }
}

/**
 * The pairs of a plan that fall in a component.
 * @param {Int32Array} chosen
 * @param {Int32Array} slots
 */
const planIn = (chosen, slots) => Array.from(slots, (s) => chosen[s]).filter((p) => p >= 0)

/**
 * The best of one slot's candidates for a component that is that slot alone.
 * @param {import('./problem.mjs').PackedProblem} P
 * @param {import('./structure.mjs').Structure} S
 * @param {number} s
 */
function bestSingle(P, S, s) {
  let best = -1
  let bestCost = Infinity
  for (let k = S.slotFirst[s]; k < S.slotFirst[s + 1]; k++) {
    const p = S.order[k]
    const cost = S.cost[p] + spreadIncrement(P.held[P.pairOfficial[p]])
    if (cost < bestCost) [best, bestCost] = [p, cost]
  }
  return best
}

/**
 * @param {import('highs').Highs} highs
 * @param {import('./problem.mjs').PackedProblem} P
 * @param {import('./structure.mjs').Structure} S
 * @param {number} deadlineAt
 * @param {Int32Array} [start] a feasible plan to start from (the greedy one by default)
 * @param {{ proofOnly?: boolean }} [options] see solveComponent
 * @returns {{ chosen: Int32Array, optimal: boolean }}
 */
export function solveExact(highs, P, S, deadlineAt, start = greedyAssignment(P, S), options = {}) {
  const proofOnly = options.proofOnly ?? false
  const chosen = start.slice()
  let optimal = true
  const apply = (/** @type {Int32Array} */ slots, /** @type {ComponentResult} */ result) => {
    for (const s of slots) chosen[s] = -1
    for (const p of result.pairs) chosen[P.pairSlot[p]] = p
    optimal &&= result.proven
  }
  const hard = hardComponents(P, S)
  const must = new Uint8Array(P.slotKeys.length)
  for (const slots of hard) {
    const fillable = slots.filter((s) => S.slotFirst[s + 1] > S.slotFirst[s])
    // Every position that has a candidate is filled: no plan fills more, nothing to solve.
    if (planIn(chosen, slots).length < fillable.length) {
      apply(
        slots,
        solveComponent(highs, P, S, slots, 'count', planIn(chosen, slots), deadlineAt, NONE, proofOnly),
      )
    }
    if (planIn(chosen, slots).length === fillable.length) for (const s of fillable) must[s] = 1
  }
  for (const slots of softComponents(P, S, hard)) {
    const incumbent = planIn(chosen, slots)
    if (incumbent.length === 0) continue
    if (slots.length === 1) apply(slots, { pairs: [bestSingle(P, S, slots[0])], proven: true })
    else apply(slots, solveComponent(highs, P, S, slots, 'prefer', incumbent, deadlineAt, must, proofOnly))
  }
  leadsFirst(P, S, chosen)
  return { chosen, optimal }
}
