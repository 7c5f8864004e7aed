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
 * @property {number} cliques conflict cliques, each one row `Σ x ≤ 1`
 * @property {Int32Array} pairCliqueFirst pair p sits in cliques pairCliques[pairCliqueFirst[p] .. pairCliqueFirst[p + 1])
 * @property {Int32Array} pairCliques
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
 * At least the most positions one official could take on one day ignoring the cap: interval scheduling
 * by earliest reach, exact on an interval graph. A game with a known place reaches only to its end here:
 * fewer conflicts than the rules' (at one place they are exactly these, across places a subset), so the
 * count is exact without places and an upper bound with them, which is all a cap row and the spread
 * columns need.
 * @param {import('./problem.mjs').PackedProblem} P
 * @param {number[]} pairs
 * @returns {number}
 */
function mostDisjoint(P, pairs) {
  const reachOf = (/** @type {number} */ p) => {
    const s = P.pairSlot[p]
    return P.slotSite[s] >= 0 ? P.slotEnd[s] : P.slotReach[s]
  }
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
 * Whether these games (of one place) all overlap one another: one clique however the buffer reads.
 * @param {import('./problem.mjs').PackedProblem} P
 * @param {number[]} pairs
 */
function overlapAll(P, pairs) {
  let latestStart = -Infinity
  let earliestEnd = Infinity
  for (const p of pairs) {
    latestStart = Math.max(latestStart, P.slotStart[P.pairSlot[p]])
    earliestEnd = Math.min(earliestEnd, P.slotEnd[P.pairSlot[p]])
  }
  return latestStart < earliestEnd
}

/**
 * The maximal sets of these games (of one place) that share a moment: the plain intervals' cliques,
 * of one game too. Few games, so the plain way: each start's set, less those inside another.
 * @param {import('./problem.mjs').PackedProblem} P
 * @param {number[]} pairs
 * @returns {number[][]}
 */
function plainCliques(P, pairs) {
  const at = [...new Set(pairs.map((p) => P.slotStart[P.pairSlot[p]]))].map((t) =>
    pairs.filter((p) => P.slotStart[P.pairSlot[p]] <= t && t < P.slotEnd[P.pairSlot[p]]),
  )
  return at.filter(
    (a, i) => !at.some((b, j) => j !== i && b.length > a.length && a.every((p) => b.includes(p))),
  )
}

/**
 * The rows for the games whose buffered intervals share a moment (a maximal clique of the buffered
 * interval graph). Games at different or unknown places there all conflict; at one place only those
 * that overlap. Where every place's games overlap, the set is one clique, as without places. Otherwise
 * the places whose games do not (split) contribute one of their plain cliques each: each plain clique
 * of a split place with all the rest, or, with two or more split places, each pair of theirs with all
 * the rest. Every conflict within the set lies in one of these rows, and each row is a clique.
 * @param {import('./problem.mjs').PackedProblem} P
 * @param {number[]} group
 * @returns {number[][]}
 */
function rowsOf(P, group) {
  /** @type {Map<number, number[]>} */
  const bySite = new Map()
  /** @type {number[]} */
  const together = []
  for (const p of group) {
    const site = P.slotSite[P.pairSlot[p]]
    if (site < 0) together.push(p)
    else bySite.set(site, [...(bySite.get(site) ?? []), p])
  }
  const split = []
  for (const list of bySite.values()) {
    if (overlapAll(P, list)) together.push(...list)
    else split.push(plainCliques(P, list))
  }
  if (split.length === 0) return [group]
  if (split.length === 1) return split[0].map((q) => [...q, ...together])
  const rows = []
  for (let i = 0; i < split.length; i++)
    for (let j = i + 1; j < split.length; j++)
      for (const q of split[i]) for (const r of split[j]) rows.push([...q, ...r, ...together])
  return rows
}

/**
 * One official's conflict rows: the maximal cliques of their buffered interval graph (two or more games
 * each), split by place where games at one place do not overlap (rowsOf), each split row once, rows of
 * one game dropped.
 * @param {import('./problem.mjs').PackedProblem} P
 * @param {Int32Array} mine the official's pairs, sorted by start
 * @returns {Int32Array[]}
 */
function officialRows(P, mine) {
  const own = cliqueTimes(P, mine)
  /** @type {number[][]} */
  const groups = own.map(() => [])
  for (const p of mine) {
    const lo = lowerBound(own, 0, own.length, P.slotStart[P.pairSlot[p]])
    const hi = lowerBound(own, 0, own.length, P.slotReach[P.pairSlot[p]])
    for (let r = lo; r < hi; r++) groups[r].push(p)
  }
  const seen = new Set()
  const rows = []
  for (const group of groups) {
    const split = rowsOf(P, group)
    // An unsplit group is a maximal clique of the buffered graph: distinct from every other, no key.
    if (split.length === 1 && split[0] === group) {
      rows.push(Int32Array.from(group))
      continue
    }
    for (const members of split) {
      const row = Int32Array.from(members).sort()
      const key = row.join()
      if (row.length < 2 || seen.has(key)) continue
      seen.add(key)
      rows.push(row)
    }
  }
  return rows
}

/**
 * @param {import('./problem.mjs').PackedProblem} P
 * @returns {Structure}
 */
export function analyse(P) {
  const nOfficials = P.officialKeys.length
  const days = P.days.length
  const nPairs = P.pairSlot.length
  const { order: bySlot, slotFirst, cost } = candidatesOf(P)
  const [officialPairs, officialFirst] = bucket(bySlot, nOfficials, (p) => P.pairOfficial[p])
  const capBinds = new Uint8Array(nOfficials * days)
  const maxNew = new Int32Array(nOfficials)
  /** @type {Int32Array[]} */
  const rows = []
  for (let o = 0; o < nOfficials; o++) {
    const mine = officialPairs.subarray(officialFirst[o], officialFirst[o + 1])
    sortBy(mine, (p) => P.slotStart[P.pairSlot[p]])
    rows.push(...officialRows(P, mine))
    maxNew[o] = capsOf(P, mine, o, capBinds)
  }
  const pairCliqueFirst = new Int32Array(nPairs + 1)
  for (const row of rows) for (const p of row) pairCliqueFirst[p + 1]++
  for (let p = 0; p < nPairs; p++) pairCliqueFirst[p + 1] += pairCliqueFirst[p]
  const pairCliques = new Int32Array(pairCliqueFirst[nPairs])
  const next = pairCliqueFirst.slice(0, nPairs)
  rows.forEach((row, r) => {
    for (const p of row) pairCliques[next[p]++] = r
  })
  return {
    order: bySlot,
    slotFirst,
    officialPairs,
    officialFirst,
    cost,
    cliques: rows.length,
    pairCliqueFirst,
    pairCliques,
    capBinds,
    maxNew,
  }
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
        for (let k = S.pairCliqueFirst[p]; k < S.pairCliqueFirst[p + 1]; k++) {
          const r = S.pairCliques[k]
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
