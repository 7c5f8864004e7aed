// planAssignments as integration calls it: in a worker, with a deadline, explained, deterministic.
import { describe, expect, it } from 'vitest'
import {
  greedyPlan,
  planAssignments,
  type AssignmentProblem,
  type EligiblePair,
  type Plan,
} from '../../../src/domain/assignor/index.js'
import { assignmentOf, instance, shuffled, violations } from './fixtures.js'

const HOUR = 3_600_000
const AT = Date.UTC(2027, 4, 1, 10)
const DAY = '2027-05-01'
const AMPLE = { deadlineMs: 60_000 }

const slot = (key: string, gameKey: string, startsAt = AT) => ({
  key,
  gameKey,
  startsAt,
  endsAt: startsAt + HOUR,
  day: DAY,
})
const official = (key: string, gamesHeld = 0) => ({ key, gamesHeld })
const pair = (
  slotKey: string,
  officialKey: string,
  distanceKm: number | null,
  levelMargin = 0,
): EligiblePair => ({
  slotKey,
  officialKey,
  levelMargin,
  distanceKm,
})

const chosen = (plan: Plan) => Object.fromEntries(plan.proposals.map((p) => [p.slotKey, p.officialKey]))
/** The plan without its timing, which is the one thing allowed to differ between two runs. */
const withoutTiming = (plan: Plan) => ({ ...plan, stats: { ...plan.stats, solveMs: 0 } })

/**
 * Three games at once, each with two candidates: by cost alone, s1 goes to x and s2 to z, and s3 is
 * left with neither. Two plans fill all three; {s1: y, s2: z, s3: x} costs 27 km, the other 36 km.
 */
const trap: AssignmentProblem = {
  slots: [slot('s1', 'g1'), slot('s2', 'g2'), slot('s3', 'g3')],
  officials: [official('x'), official('y'), official('z')],
  pairs: [
    pair('s1', 'x', 1),
    pair('s1', 'y', 20),
    pair('s2', 'y', 30),
    pair('s2', 'z', 2),
    pair('s3', 'x', 5),
    pair('s3', 'z', 5),
  ],
  travelBufferMinutes: 30,
  maxGamesPerDay: null,
}

describe('planAssignments', () => {
  it('fills every position where the greedy pass leaves one open, and picks the cheaper full plan', async () => {
    const greedy = greedyPlan(trap)
    expect(greedy.stats).toMatchObject({ filled: 2, optimal: false })
    const plan = await planAssignments(trap, AMPLE)
    expect(plan.stats).toMatchObject({ positions: 3, filled: 3, optimal: true })
    expect(chosen(plan)).toEqual({ s1: 'y', s2: 'z', s3: 'x' })
    expect(plan.unfilled).toEqual([])
  })

  it('spreads games: a second game for the nearest official loses to a first for one slightly further', async () => {
    const problem: AssignmentProblem = {
      slots: [slot('morning', 'g1', AT), slot('evening', 'g2', AT + 6 * HOUR)],
      officials: [official('near'), official('further')],
      pairs: [pair('morning', 'near', 10), pair('evening', 'near', 10), pair('morning', 'further', 12)],
      travelBufferMinutes: 30,
      maxGamesPerDay: null,
    }
    const plan = await planAssignments(problem, AMPLE)
    expect(chosen(plan)).toEqual({ morning: 'further', evening: 'near' })
    // Without the spread term `near` would take both: 20 km against 22 km.
  })

  it('names the terms that decided each proposal, and says when there was no choice', async () => {
    const problem: AssignmentProblem = {
      slots: [slot('a', 'g1'), slot('b', 'g2', AT + 4 * HOUR)],
      officials: [official('u', 2), official('v')],
      pairs: [pair('a', 'u', 3.5, 2), pair('a', 'v', null), pair('b', 'v', null, 1)],
      travelBufferMinutes: 30,
      maxGamesPerDay: 3,
    }
    const plan = await planAssignments(problem, AMPLE)
    expect(plan.proposals).toEqual([
      {
        slotKey: 'a',
        officialKey: 'u',
        terms: {
          levelMargin: 2,
          distanceKm: 3.5,
          gamesHeld: 2,
          gamesPlanned: 1,
          eligibleOfficials: 2,
          onlyEligible: false,
        },
      },
      {
        slotKey: 'b',
        officialKey: 'v',
        terms: {
          levelMargin: 1,
          distanceKm: null,
          gamesHeld: 0,
          gamesPlanned: 1,
          eligibleOfficials: 1,
          onlyEligible: true,
        },
      },
    ])
  })

  it('leaves a position open when no candidate can take it, and lists it', async () => {
    const problem: AssignmentProblem = {
      slots: [slot('a', 'g1'), slot('b', 'g1'), slot('c', 'g2', AT + 4 * HOUR)],
      officials: [{ key: 'u', gamesHeld: 1, gamesHeldByDay: { [DAY]: 1 } }],
      // One official for two positions of one game, and a later game the daily cap leaves no room for.
      pairs: [pair('a', 'u', 1), pair('b', 'u', 2), pair('c', 'u', 3)],
      travelBufferMinutes: 0,
      maxGamesPerDay: 2,
    }
    const plan = await planAssignments(problem, AMPLE)
    expect(plan.stats).toMatchObject({ positions: 3, filled: 1, optimal: true })
    expect(chosen(plan)).toEqual({ a: 'u' })
    expect(plan.unfilled).toEqual(['b', 'c'])
  })

  it('gives the same plan for the same problem in any order', async () => {
    const problem = instance(7, { slots: 80, officials: 14, days: 2, startSteps: 10, density: 0.5 })
    const first = await planAssignments(problem, AMPLE)
    const again = await planAssignments(shuffled(problem, 1), AMPLE)
    expect(first.stats.optimal).toBe(true)
    expect(withoutTiming(again)).toEqual(withoutTiming(first))
  })

  it.each([0, 1])(
    'past a deadline of %i ms answers with the greedy plan, optimal: false',
    async (deadlineMs) => {
      const problem = instance(3, { slots: 60, officials: 10, days: 2, startSteps: 6, density: 0.6 })
      const plan = await planAssignments(problem, { deadlineMs })
      expect(plan.stats.optimal).toBe(false)
      expect(violations(problem, assignmentOf(problem, plan))).toEqual([])
      expect(chosen(plan)).toEqual(chosen(greedyPlan(problem)))
    },
  )

  it('keeps every hard rule on random problems', async () => {
    for (const seed of [11, 12, 13]) {
      const problem = instance(seed, { slots: 50, officials: 9, days: 2, startSteps: 5, density: 0.7 })
      const plan = await planAssignments(problem, AMPLE)
      expect(violations(problem, assignmentOf(problem, plan))).toEqual([])
    }
  })

  it.each([
    ['an unknown official', { pairs: [pair('s1', 'nobody', 1)] }, /unknown key/],
    ['a pair twice', { pairs: [pair('s1', 'x', 1), pair('s1', 'x', 2)] }, /duplicate pair/],
    ['a negative level margin', { pairs: [pair('s1', 'x', 1, -1)] }, /levelMargin/],
    [
      'a game whose positions disagree on its time',
      { slots: [slot('s1', 'g'), slot('s2', 'g', AT + 1)] },
      /times/,
    ],
    ['a zero daily cap', { maxGamesPerDay: 0 }, /maxGamesPerDay/],
  ])('refuses %s', async (_what, change, message) => {
    await expect(planAssignments({ ...trap, ...change }, AMPLE)).rejects.toThrow(message)
  })
})
