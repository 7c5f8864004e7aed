// The exact solver against exhaustive search on small instances, and the hard rules on larger ones,
// for the solver and the greedy pass alike. One HiGHS instance serves every solve here (the worker
// gets a fresh one per plan); these call the solver's core directly, without the worker.
import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Highs } from 'highs'
import { greedyPlan, type AssignmentProblem } from '../../../src/domain/assignor/index.js'
import { solveExact } from '../../../src/domain/assignor/exact.mjs'
import { greedyAssignment } from '../../../src/domain/assignor/greedy.mjs'
import { loadHighs } from '../../../src/domain/assignor/highs.mjs'
import { packProblem } from '../../../src/domain/assignor/problem.mjs'
import { analyse } from '../../../src/domain/assignor/structure.mjs'
import { assignmentOf, bruteForce, costOf, instance, leadsOf, violations, type Shape } from './fixtures.js'

let highs: Highs
beforeAll(async () => {
  highs = await loadHighs()
})

/** The exact solver's plan as slot key → official key. */
function solve(problem: AssignmentProblem, proofOnly = false) {
  const P = packProblem(problem)
  const S = analyse(P)
  const deadlineAt = Date.now() + 60_000
  const { chosen, optimal } = solveExact(highs, P, S, deadlineAt, greedyAssignment(P, S), { proofOnly })
  const assignment = new Map<string, string>()
  for (const p of chosen) {
    if (p >= 0) assignment.set(problem.pairs[p]!.slotKey, problem.pairs[p]!.officialKey)
  }
  return { assignment, optimal }
}

const seed = fc.integer({ min: 0, max: 2 ** 31 - 1 })
const small: fc.Arbitrary<Shape> = fc.record({
  slots: fc.integer({ min: 1, max: 7 }),
  officials: fc.integer({ min: 1, max: 4 }),
  days: fc.integer({ min: 1, max: 2 }),
  startSteps: fc.integer({ min: 1, max: 6 }),
  density: fc.double({ min: 0.3, max: 1, noNaN: true }),
})
const larger: fc.Arbitrary<Shape> = fc.record({
  slots: fc.integer({ min: 20, max: 60 }),
  officials: fc.integer({ min: 4, max: 16 }),
  days: fc.integer({ min: 1, max: 3 }),
  startSteps: fc.integer({ min: 2, max: 16 }),
  density: fc.double({ min: 0.2, max: 0.9, noNaN: true }),
})

describe('the exact solver', () => {
  it.each([
    ['with its shortcuts', false],
    ['by the reduced-cost proof alone', true],
  ])(
    'fills as many positions as exhaustive search, then as many leads, then matches its best cost (%s)',
    (_how, proofOnly) => {
      fc.assert(
        fc.property(seed, small, (s, shape) => {
          const problem = instance(s, shape)
          const { assignment, optimal } = solve(problem, proofOnly)
          expect(violations(problem, assignment)).toEqual([])
          const found = {
            filled: assignment.size,
            leads: leadsOf(problem, assignment),
            cost: costOf(problem, assignment),
          }
          expect(found).toEqual(bruteForce(problem))
          expect(optimal).toBe(true)
        }),
        { numRuns: 150 },
      )
    },
  )

  it('out of time, keeps the plan it started from and does not call it optimal', () => {
    const problem = instance(5, { slots: 40, officials: 6, days: 1, startSteps: 4, density: 0.8 })
    const P = packProblem(problem)
    const S = analyse(P)
    const start = greedyAssignment(P, S)
    const { chosen, optimal } = solveExact(highs, P, S, Date.now() - 1, start)
    expect(optimal).toBe(false)
    expect(chosen).toEqual(start)
  })

  it('never breaks a hard rule and never does worse than the greedy pass (positions, leads, cost)', () => {
    fc.assert(
      fc.property(seed, larger, (s, shape) => {
        const problem = instance(s, shape)
        const { assignment } = solve(problem)
        const greedy = assignmentOf(problem, greedyPlan(problem))
        expect(violations(problem, assignment)).toEqual([])
        expect(violations(problem, greedy)).toEqual([])
        expect(assignment.size).toBeGreaterThanOrEqual(greedy.size)
        if (assignment.size > greedy.size) return
        expect(leadsOf(problem, assignment)).toBeGreaterThanOrEqual(leadsOf(problem, greedy))
        if (leadsOf(problem, assignment) === leadsOf(problem, greedy)) {
          expect(costOf(problem, assignment)).toBeLessThanOrEqual(costOf(problem, greedy))
        }
      }),
      { numRuns: 40 },
    )
  })
})
