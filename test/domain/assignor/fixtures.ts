// Instances for the assignor's tests, and the checks that judge a plan without the solver's own code:
// the hard rules read from the problem as integration would state them, the objective from the weights.
import {
  COST_UNITS_PER_KM,
  LEVEL_MARGIN_REWARD,
  SPREAD_STEP,
  UNKNOWN_DISTANCE_KM,
  type AssignmentProblem,
  type EligiblePair,
  type Plan,
} from '../../../src/domain/assignor/index.js'

const MINUTE = 60_000
const DAY0 = Date.UTC(2027, 4, 1)

/** A small deterministic generator (mulberry32), so a seed names an instance. */
export function random(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (s + 0x6d2b79f5) >>> 0
    let t = s
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export interface Shape {
  slots: number
  officials: number
  days: number
  /** Start times fall on a grid of this many half hours: fewer, more conflicts. */
  startSteps: number
  /** Share of (slot, official) pairs that are eligible. */
  density: number
}

/**
 * A random instance: games of one to three positions (the first, mostly, the lead), at one of two places
 * or an unknown one, conflicts, daily caps, held games, unknown distances.
 */
export function instance(seed: number, shape: Shape): AssignmentProblem {
  const r = random(seed)
  const int = (n: number) => Math.floor(r() * n)
  const days = Array.from({ length: shape.days }, (_, d) => `2027-05-0${d + 1}`)
  const slots: AssignmentProblem['slots'][number][] = []
  for (let g = 0; slots.length < shape.slots; g++) {
    const d = int(shape.days)
    const startsAt = DAY0 + d * 1440 * MINUTE + (8 * 60 + 30 * int(shape.startSteps)) * MINUTE
    const endsAt = startsAt + (60 + 30 * int(2)) * MINUTE
    const positions = Math.min(1 + int(3), shape.slots - slots.length)
    const site = [null, 'north', 'south'][int(3)]!
    const lead = int(4) > 0
    for (let k = 0; k < positions; k++) {
      const key = `s${slots.length}`
      slots.push({ key, gameKey: `g${g}`, startsAt, endsAt, day: days[d]!, site, lead: lead && k === 0 })
    }
  }
  const officials = Array.from({ length: shape.officials }, (_, o) => {
    const gamesHeldByDay = Object.fromEntries(days.map((day) => [day, int(3) === 0 ? 1 : 0]))
    const held = Object.values(gamesHeldByDay).reduce((a, b) => a + b, 0)
    return { key: `o${o}`, gamesHeld: held + int(2), gamesHeldByDay }
  })
  const pairs: EligiblePair[] = []
  for (const slot of slots) {
    for (const official of officials) {
      if (r() >= shape.density) continue
      const distanceKm = r() < 0.15 ? null : Math.round(r() * 400) / 10
      pairs.push({ slotKey: slot.key, officialKey: official.key, levelMargin: int(3), distanceKm })
    }
  }
  const maxGamesPerDay = int(3) === 0 ? null : 1 + int(3)
  return { slots, officials, pairs, travelBufferMinutes: 15 * int(3), maxGamesPerDay }
}

/** The same problem with every list shuffled. */
export function shuffled(problem: AssignmentProblem, seed: number): AssignmentProblem {
  const r = random(seed)
  const shuffle = <T>(items: readonly T[]): T[] => {
    const out = [...items]
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(r() * (i + 1))
      ;[out[i], out[j]] = [out[j]!, out[i]!]
    }
    return out
  }
  return {
    ...problem,
    slots: shuffle(problem.slots),
    officials: shuffle(problem.officials),
    pairs: shuffle(problem.pairs),
  }
}

const pairKey = (slotKey: string, officialKey: string) => `${slotKey}\u0000${officialKey}`

/** Every hard rule a plan breaks, in words; empty when it keeps them all. */
export function violations(problem: AssignmentProblem, assignment: ReadonlyMap<string, string>): string[] {
  const found: string[] = []
  const eligible = new Set(problem.pairs.map((p) => pairKey(p.slotKey, p.officialKey)))
  const slot = new Map(problem.slots.map((s) => [s.key, s]))
  const official = new Map(problem.officials.map((o) => [o.key, o]))
  const buffer = problem.travelBufferMinutes * MINUTE
  const byOfficial = new Map<string, string[]>()
  for (const [slotKey, officialKey] of assignment) {
    if (!eligible.has(pairKey(slotKey, officialKey))) found.push(`${slotKey} to ineligible ${officialKey}`)
    byOfficial.set(officialKey, [...(byOfficial.get(officialKey) ?? []), slotKey])
  }
  for (const [officialKey, keys] of byOfficial) {
    const mine = keys.map((k) => slot.get(k)!)
    for (const [i, a] of mine.entries()) {
      for (const b of mine.slice(i + 1)) {
        // At one place games need only not overlap; elsewhere the buffer apart.
        const gap = a.site && a.site === b.site ? 0 : buffer
        if (a.gameKey === b.gameKey) found.push(`${officialKey} twice in ${a.gameKey}`)
        else if (a.startsAt < b.endsAt + gap && b.startsAt < a.endsAt + gap) {
          found.push(`${officialKey} in conflicting ${a.key} and ${b.key}`)
        }
      }
    }
    if (problem.maxGamesPerDay === null) continue
    for (const day of new Set(mine.map((s) => s.day))) {
      const held = official.get(officialKey)!.gamesHeldByDay?.[day] ?? 0
      const count = mine.filter((s) => s.day === day).length
      if (held + count > problem.maxGamesPerDay) found.push(`${officialKey} over the cap on ${day}`)
    }
  }
  return found
}

/** The plan's assignment, after checking it accounts for every slot once. */
export function assignmentOf(problem: AssignmentProblem, plan: Plan): Map<string, string> {
  const assignment = new Map(plan.proposals.map((p) => [p.slotKey, p.officialKey]))
  const accounted = [...assignment.keys(), ...plan.unfilled].sort()
  if (
    accounted.join() !==
    problem.slots
      .map((s) => s.key)
      .sort()
      .join()
  )
    throw new Error('slots unaccounted')
  if (plan.stats.filled !== assignment.size || plan.stats.positions !== problem.slots.length) {
    throw new Error('stats disagree with the plan')
  }
  return assignment
}

/** The secondary objective of an assignment, from the published weights. */
export function costOf(problem: AssignmentProblem, assignment: ReadonlyMap<string, string>): number {
  const pair = new Map(problem.pairs.map((p) => [pairKey(p.slotKey, p.officialKey), p]))
  const held = new Map(problem.officials.map((o) => [o.key, o.gamesHeld]))
  let cost = 0
  for (const [slotKey, officialKey] of assignment) {
    const p = pair.get(pairKey(slotKey, officialKey))!
    cost +=
      Math.round((p.distanceKm ?? UNKNOWN_DISTANCE_KM) * COST_UNITS_PER_KM) -
      LEVEL_MARGIN_REWARD * p.levelMargin
    const before = held.get(officialKey)!
    cost += SPREAD_STEP * before
    held.set(officialKey, before + 1)
  }
  return cost
}

/** Leads the assignment fills. */
export function leadsOf(problem: AssignmentProblem, assignment: ReadonlyMap<string, string>): number {
  return problem.slots.filter((s) => s.lead === true && assignment.has(s.key)).length
}

/**
 * The best plan by exhaustive search: every slot to each of its candidates or to no one, rules checked
 * as it goes. Returns the most filled, then the most leads, then the lowest cost.
 */
export function bruteForce(problem: AssignmentProblem): { filled: number; leads: number; cost: number } {
  const candidates = problem.slots.map((s) => problem.pairs.filter((p) => p.slotKey === s.key))
  const assignment = new Map<string, string>()
  let best = { filled: -1, leads: -1, cost: Infinity }
  const visit = (i: number) => {
    if (violations(problem, assignment).length > 0) return
    if (i === problem.slots.length) {
      const result = {
        filled: assignment.size,
        leads: leadsOf(problem, assignment),
        cost: costOf(problem, assignment),
      }
      const order = result.filled - best.filled || result.leads - best.leads || best.cost - result.cost
      if (order > 0) best = result
      return
    }
    const key = problem.slots[i]!.key
    for (const p of candidates[i]!) {
      assignment.set(key, p.officialKey)
      visit(i + 1)
      assignment.delete(key)
    }
    visit(i + 1)
  }
  visit(0)
  return best
}
