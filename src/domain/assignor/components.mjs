// The parts of a problem that can be solved apart: slots tied by a constraint (hard) or by an objective
// term as well (soft), as connected components.
/** @typedef {import('./structure.mjs').Structure} Structure */

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
