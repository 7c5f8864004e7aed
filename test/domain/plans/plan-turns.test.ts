// Issue 36 item 3: making a plan leaves the event loop to others. The rules are asked and the open
// positions explained a few positions per turn, and the process solves at most SOLVER_WORKERS plans at
// once, the others waiting their turn.
import { describe, expect, it } from 'vitest'
import {
  planAssignments,
  SOLVER_WORKERS,
  solverLoad,
  type AssignmentProblem,
} from '../../../src/domain/assignor/index.js'
import { explainPlan } from '../../../src/domain/plans/plan-explain.js'
import { toProblem, type SlotFact, type WindowFacts } from '../../../src/domain/plans/plan-window.js'

const START = Date.UTC(2030, 4, 1, 10)
const HOUR = 3_600_000

function facts(positions: number, officials: number): WindowFacts {
  const slots: SlotFact[] = Array.from({ length: positions }, (_, i) => ({
    gameId: `g${i}`,
    leagueId: 'l',
    positionId: `p${i}`,
    label: 'Referee',
    lead: true,
    start: START + i * 2 * HOUR,
    end: START + i * 2 * HOUR + HOUR,
    startsAt: new Date(START + i * 2 * HOUR).toISOString(),
    location: 'Field',
    venue: null,
    sport: 'soccer',
    day: '2030-05-01',
    site: null,
    // Nobody qualifies: every position stays open and is explained.
    minLevel: 9,
    point: null,
  }))
  const pool = Array.from({ length: officials }, (_, i) => ({
    userId: `u${i}`,
    name: `Official ${i}`,
    email: `o${i}@example.test`,
    level: 1,
    home: null,
    joined: true,
  }))
  const rules = { leagueId: 'l', travelBufferMinutes: 30, maxGamesPerDay: null, timeZone: 'UTC' }
  return {
    leagueId: 'l',
    rules,
    slots,
    officials: pool,
    held: new Map(),
    busy: new Map(),
    turnedBack: new Map(),
  }
}

/** How many turns of the event loop other work got while `work` ran. */
async function turnsDuring(work: () => Promise<unknown>): Promise<number> {
  let turns = 0
  let done = false
  const tick = () => {
    if (done) return
    turns++
    setImmediate(tick)
  }
  setImmediate(tick)
  await work()
  done = true
  return turns
}

describe('making a plan leaves the event loop to others', () => {
  it('asks the rules and explains the open positions a few positions per turn', async () => {
    // 12 positions × 1,000 officials: 12,000 pairs, some 2,000 a turn.
    const window = facts(12, 1000)
    const span = { from: START, to: START + 24 * HOUR }
    const problem = await toProblem(window, span)
    expect(await turnsDuring(() => toProblem(window, span))).toBeGreaterThanOrEqual(3)
    const plan = { proposals: [], unfilled: problem.slots.map((s) => s.key), stats: {} as never }
    const tell = (_slot: unknown, _official: unknown, reasons: readonly string[]) => [...reasons]
    expect(await turnsDuring(() => explainPlan(window, plan, tell))).toBeGreaterThanOrEqual(3)
  })

  it(`solves at most ${SOLVER_WORKERS} plans at once; the others wait their turn and all answer`, async () => {
    const problem: AssignmentProblem = {
      slots: [{ key: 's', gameKey: 'g', startsAt: START, endsAt: START + HOUR, day: '2030-05-01' }],
      officials: [{ key: 'o', gamesHeld: 0 }],
      pairs: [{ slotKey: 's', officialKey: 'o', levelMargin: 0, distanceKm: null }],
      travelBufferMinutes: 0,
      maxGamesPerDay: null,
    }
    const plans = Array.from({ length: SOLVER_WORKERS + 1 }, () =>
      planAssignments(problem, { deadlineMs: 60_000 }),
    )
    // Each plan takes its turn or queues as soon as its problem is packed: wait for that, by progress.
    while (solverLoad().running + solverLoad().waiting < plans.length)
      await new Promise((resolve) => setImmediate(resolve))
    expect(solverLoad()).toEqual({ running: SOLVER_WORKERS, waiting: 1 })
    for (const plan of await Promise.all(plans)) expect(plan.stats.filled).toBe(1)
    expect(solverLoad()).toEqual({ running: 0, waiting: 0 })
  })
})
