// What the solver derives from a packed problem before any model: the pairs that can matter in canonical
// order, each official's maximal conflict cliques, the daily caps that can bind, and the components.
import { pairCost } from './weights.mjs'

/**
 * Each slot's candidates: what the greedy pass and the explanations need.
 * @typedef {object} Candidates
 * @property {Int32Array} order usable pairs sorted by (slot, official)
 * @property {Int32Array} slotFirst order[slotFirst[s] .. slotFirst[s + 1]) are slot s's candidates
 * @property {Int32Array} cost pairCost by pair index
 */

/**
 * @typedef {Candidates & StructureRest} Structure
 * @typedef {object} StructureRest
 * @property {Int32Array} officialPairs usable pairs by official, each official's sorted by (start, slot)
 * @property {Int32Array} officialFirst officialPairs[officialFirst[o] .. officialFirst[o + 1]) are official o's
 * @property {Float64Array} cliqueTime the time point of each kept clique, officials' cliques consecutive
 * @property {Int32Array} cliqueFirst official o's cliques are cliqueFirst[o] .. cliqueFirst[o + 1]
 * @property {Int32Array} pairCliqueLo the pair sits in cliques pairCliqueLo[p] .. pairCliqueHi[p] (exclusive)
 * @property {Int32Array} pairCliqueHi
 * @property {Uint8Array} capBinds [official * days + day]: the daily cap can bind, so the model needs its row
 * @property {Int32Array} maxNew an upper bound on the positions an official can take in any plan
 */

/**
 * Sorts `items` (indices) in place by `key`, then by index: the one tie-break every ordering here uses.
 * @param {Int32Array} items
 * @param {(i: number) => number} key
 */
function sortBy(items, key) {
  items.sort((a, b) => key(a) - key(b) || a - b)
}

/**
 * Counting sort of `items` into buckets: returns [sorted, first] with bucket b at first[b] .. first[b + 1].
 * @param {Int32Array} items
 * @param {number} buckets
 * @param {(i: number) => number} bucketOf
 * @returns {[Int32Array, Int32Array]}
 */
function bucket(items, buckets, bucketOf) {
  const first = new Int32Array(buckets + 1)
  for (const i of items) first[bucketOf(i) + 1]++
  for (let b = 0; b < buckets; b++) first[b + 1] += first[b]
  const next = first.slice(0, buckets)
  const sorted = new Int32Array(items.length)
  for (const i of items) sorted[next[bucketOf(i)]++] = i
  return [sorted, first]
}

/**
 * @param {import('./problem.mjs').PackedProblem} P
 * @returns {Int32Array} the pairs an official has room for on the slot's day
 */
function usablePairs(P) {
  const days = P.days.length
  const usable = []
  for (let p = 0; p < P.pairSlot.length; p++) {
    if (P.room[P.pairOfficial[p] * days + P.slotDay[P.pairSlot[p]]] > 0) usable.push(p)
  }
  return Int32Array.from(usable)
}

/**
 * The maximal cliques of one official's interval graph (intervals [start, reach)), as the time points
 * where they sit: sweeping starts and reaches in time order, reaches first at a tie (half-open), a
 * clique is maximal where a reach follows a start. Cliques of one interval are no constraint: dropped.
 * @param {import('./problem.mjs').PackedProblem} P
 * @param {Int32Array} pairs the official's, sorted by start
 * @returns {number[]}
 */
function cliqueTimes(P, pairs) {
  const reaches = Float64Array.from(pairs, (p) => P.slotReach[P.pairSlot[p]]).sort()
  const times = []
  let active = 0
  let lastWasStart = false
  let lastStart = 0
  for (let i = 0, j = 0; j < reaches.length;) {
    const start = i < pairs.length ? P.slotStart[P.pairSlot[pairs[i]]] : Infinity
    if (reaches[j] <= start) {
      if (lastWasStart && active > 1) times.push(lastStart)
      active--
      lastWasStart = false
      j++
    } else {
      active++
      lastWasStart = true
      lastStart = start
      i++
    }
  }
  return times
}

/**
 * @param {Float64Array | number[]} sorted
 * @param {number} from
 * @param {number} to
 * @param {number} value
 * @returns {number} the first index in [from, to) whose value is ≥ value
 */
function lowerBound(sorted, from, to, value) {
  let lo = from
  let hi = to
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (sorted[mid] < value) lo = mid + 1
    else hi = mid
  }
  return lo
}

/**
 * The most positions one official could take on one day ignoring the cap: interval scheduling by
 * earliest reach is exact on an interval graph.
 * @param {import('./problem.mjs').PackedProblem} P
 * @param {number[]} pairs
 * @returns {number}
 */
function mostDisjoint(P, pairs) {
  const reachOf = (/** @type {number} */ p) => P.slotReach[P.pairSlot[p]]
  const byReach = Int32Array.from(pairs)
  sortBy(byReach, reachOf)
  let count = 0
  let free = -Infinity
  for (const p of byReach) {
    if (P.slotStart[P.pairSlot[p]] >= free) {
      count++
      free = reachOf(p)
    }
  }
  return count
}

/**
 * The usable pairs (the official has room on the slot's day) grouped by slot in canonical order.
 * @param {import('./problem.mjs').PackedProblem} P
 * @returns {Candidates}
 */
export function candidatesOf(P) {
  const nSlots = P.slotKeys.length
  const [order, slotFirst] = bucket(usablePairs(P), nSlots, (p) => P.pairSlot[p])
  for (let s = 0; s < nSlots; s++) {
    const segment = order.subarray(slotFirst[s], slotFirst[s + 1])
    sortBy(segment, (p) => P.pairOfficial[p])
    for (let k = 1; k < segment.length; k++) {
      if (P.pairOfficial[segment[k]] === P.pairOfficial[segment[k - 1]]) {
        throw new RangeError(
          `assignor: duplicate pair ${P.slotKeys[s]}/${P.officialKeys[P.pairOfficial[segment[k]]]}`,
        )
      }
    }
  }
  const cost = new Int32Array(P.pairSlot.length)
  for (const p of order) cost[p] = pairCost(P.pairMargin[p], P.pairDistance[p])
  return { order, slotFirst, cost }
}

/**
 * @param {import('./problem.mjs').PackedProblem} P
 * @returns {Structure}
 */
export function analyse(P) {
  const nOfficials = P.officialKeys.length
  const days = P.days.length
  const { order: bySlot, slotFirst, cost } = candidatesOf(P)
  const [officialPairs, officialFirst] = bucket(bySlot, nOfficials, (p) => P.pairOfficial[p])
  const S = {
    order: bySlot,
    slotFirst,
    officialPairs,
    officialFirst,
    cost,
    pairCliqueLo: new Int32Array(P.pairSlot.length),
    pairCliqueHi: new Int32Array(P.pairSlot.length),
    capBinds: new Uint8Array(nOfficials * days),
    maxNew: new Int32Array(nOfficials),
  }
  const times = []
  const cliqueFirst = new Int32Array(nOfficials + 1)
  for (let o = 0; o < nOfficials; o++) {
    const mine = officialPairs.subarray(officialFirst[o], officialFirst[o + 1])
    sortBy(mine, (p) => P.slotStart[P.pairSlot[p]])
    const own = cliqueTimes(P, mine)
    const base = times.length
    times.push(...own)
    cliqueFirst[o + 1] = times.length
    for (const p of mine) {
      S.pairCliqueLo[p] = base + lowerBound(own, 0, own.length, P.slotStart[P.pairSlot[p]])
      S.pairCliqueHi[p] = base + lowerBound(own, 0, own.length, P.slotReach[P.pairSlot[p]])
    }
    S.maxNew[o] = capsOf(P, mine, o, S.capBinds)
  }
  return { ...S, cliqueTime: Float64Array.from(times), cliqueFirst }
}

/**
 * Marks the days whose cap can bind for one official and returns the most positions they can take.
 * @param {import('./problem.mjs').PackedProblem} P
 * @param {Int32Array} mine
 * @param {number} o
 * @param {Uint8Array} capBinds
 * @returns {number}
 */
function capsOf(P, mine, o, capBinds) {
  const days = P.days.length
  /** @type {Map<number, number[]>} */
  const byDay = new Map()
  for (const p of mine) {
    const d = P.slotDay[P.pairSlot[p]]
    const list = byDay.get(d)
    if (list) list.push(p)
    else byDay.set(d, [p])
  }
  let most = 0
  for (const [d, list] of byDay) {
    const room = P.room[o * days + d]
    const disjoint = mostDisjoint(P, list)
    if (disjoint > room) capBinds[o * days + d] = 1
    most += Math.min(room, disjoint)
  }
  return most
}

/**
 * Connected components of slots under `link`, which unions the slots that share a constraint (or an
 * objective term). Components are numbered by their smallest slot, slots listed in order.
 * @param {number} nSlots
 * @param {(union: (a: number, b: number) => void) => void} link
 * @returns {Int32Array[]}
 */
export function components(nSlots, link) {
  const parent = Int32Array.from({ length: nSlots }, (_, i) => i)
  /** @param {number} a */
  const find = (a) => {
    while (parent[a] !== a) a = parent[a] = parent[parent[a]]
    return a
  }
  link((a, b) => {
    const ra = find(a)
    const rb = find(b)
    if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb)
  })
  /** @type {Map<number, number[]>} */
  const groups = new Map()
  for (let s = 0; s < nSlots; s++) {
    const root = find(s)
    const group = groups.get(root)
    if (group) group.push(s)
    else groups.set(root, [s])
  }
  return [...groups.values()].map((g) => Int32Array.from(g))
}

/**
 * Slots joined by a hard constraint: a conflict clique or a daily cap that can bind. Counts add up over
 * these components, so each one's maximum is found alone.
 * @param {import('./problem.mjs').PackedProblem} P
 * @param {Structure} S
 * @returns {Int32Array[]}
 */
export function hardComponents(P, S) {
  const days = P.days.length
  return components(P.slotKeys.length, (union) => {
    for (let o = 0; o < P.officialKeys.length; o++) {
      /** @type {Map<number, number>} */
      const firstOf = new Map()
      for (let k = S.officialFirst[o]; k < S.officialFirst[o + 1]; k++) {
        const p = S.officialPairs[k]
        const slot = P.pairSlot[p]
        for (let r = S.pairCliqueLo[p]; r < S.pairCliqueHi[p]; r++) {
          const first = firstOf.get(r)
          if (first === undefined) firstOf.set(r, slot)
          else union(first, slot)
        }
        const capKey = -1 - (o * days + P.slotDay[slot])
        if (!S.capBinds[o * days + P.slotDay[slot]]) continue
        const first = firstOf.get(capKey)
        if (first === undefined) firstOf.set(capKey, slot)
        else union(first, slot)
      }
    }
  })
}

/**
 * Slots joined by a hard constraint or by an official they could both go to: the spread term counts an
 * official's games over the whole window, so these are the components the preferences decompose into.
 * @param {import('./problem.mjs').PackedProblem} P
 * @param {Structure} S
 * @param {Int32Array[]} hard
 * @returns {Int32Array[]}
 */
export function softComponents(P, S, hard) {
  return components(P.slotKeys.length, (union) => {
    for (const component of hard) for (const s of component) union(component[0], s)
    for (let o = 0; o < P.officialKeys.length; o++) {
      for (let k = S.officialFirst[o] + 1; k < S.officialFirst[o + 1]; k++) {
        union(P.pairSlot[S.officialPairs[S.officialFirst[o]]], P.pairSlot[S.officialPairs[k]])
      }
    }
  })
}
