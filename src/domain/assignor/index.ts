// The assignor's solver: the plan that fills the most positions any rule-abiding assignment could, then
// prefers level margin, short trips and an even spread (docs/assignor.md). Pure: no database, no HTTP.
import { Worker } from 'node:worker_threads'
import { greedyAssignment } from './greedy.mjs'
import { packFrame, packPairs, packProblem, packed as packedOf, type PackedProblem } from './problem.mjs'
import { candidatesOf } from './structure.mjs'
import type { AssignmentProblem, Plan, PlanOptions, Proposal } from './types.js'

// The solve's deadline is a compute budget on real time (shared with the worker thread, whose own
// performance.now() has another origin), not a business rule: deps.clock does not apply.
// eslint-disable-next-line no-restricted-syntax
const realNow = (): number => Date.now()

export type * from './types.js'
export { COST_UNITS_PER_KM, LEVEL_MARGIN_REWARD, SPREAD_STEP, UNKNOWN_DISTANCE_KM } from './weights.mjs'

/** Pairs packed between two turns of the event loop: a few ms of work at most. */
const PACK_CHUNK = 2048
/** The solver stops this long before the deadline (at most a tenth of it) to hand its plan over in time. */
const HAND_OVER_MS = 250
/**
 * The least time a solve gets once its turn comes, whatever the wait took of its budget: enough for the
 * worker's greedy plan on a large problem, so the fallback is never computed on the event loop.
 */
const LEAST_TURN_MS = 3000

/**
 * HiGHS compiled (a WebAssembly.Module, typed by the DOM lib this project does not load). The first
 * plan's worker compiles it and hands it back; later plans' workers instantiate it, so no plan but the
 * first compiles 3.5 MB of WASM or starts from unoptimised code, and the event loop never compiles it
 * (V8 finishes a compile on the calling thread: some 90 ms here).
 */
let compiled: object | undefined

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

/**
 * Solver threads the process runs at once. Each holds a HiGHS heap of its own (hundreds of MB for a
 * weekend) and a core: two keep a 2-core machine's event loop and one other plan going while any
 * number of tenants ask; the others wait their turn, first come first served.
 */
export const SOLVER_WORKERS = 2

const pool = { running: 0, waiting: [] as (() => void)[] }

/** Solves running and waiting now: what the pool's rule is tested by. */
export function solverLoad(): { running: number; waiting: number } {
  return { running: pool.running, waiting: pool.waiting.length }
}

/** Runs `solve` when one of the SOLVER_WORKERS is free; a finished solve hands its turn to the next. */
async function inTurn<T>(solve: () => Promise<T>): Promise<T> {
  if (pool.running < SOLVER_WORKERS) pool.running++
  else await new Promise<void>((resolve) => pool.waiting.push(resolve))
  try {
    return await solve()
  } finally {
    const next = pool.waiting.shift()
    if (next) next()
    else pool.running--
  }
}

async function pack(problem: AssignmentProblem): Promise<PackedProblem> {
  const frame = packFrame(problem)
  for (let from = 0; from < problem.pairs.length; from += PACK_CHUNK) {
    await turn()
    packPairs(problem, frame, from, Math.min(problem.pairs.length, from + PACK_CHUNK))
  }
  return packedOf(frame)
}

interface Answer {
  chosen: Int32Array
  slotFirst: Int32Array
  optimal: boolean
}

type Message =
  | { kind: 'compiled'; wasmModule: object }
  | { kind: 'greedy'; chosen: Int32Array; slotFirst: Int32Array }
  | { kind: 'plan'; chosen: Int32Array; optimal: boolean }
  | { kind: 'error'; message: string }

/**
 * Runs the solve in a worker until `deadlineAt`; past it the worker is terminated and the answer is
 * its greedy plan. A worker that has not sent its greedy plan by then is waited for until it does: the
 * greedy pass over a million pairs takes seconds on a loaded machine, which the event loop must not
 * spend. Undefined only when the thread ended without one.
 */
function solveInWorker(P: PackedProblem, deadlineAt: number) {
  return new Promise<Answer | undefined>((resolve, reject) => {
    const worker = new Worker(new URL('./solve-worker.mjs', import.meta.url))
    let greedy: Answer | undefined
    const finish = (answer: Answer | undefined, error?: Error) => {
      clearTimeout(timer)
      worker.removeAllListeners()
      // Whatever the terminated thread still reports has no one waiting for it.
      worker.on('error', () => {})
      void worker.terminate()
      if (error) reject(error)
      else resolve(answer)
    }
    let late = false
    const timer = setTimeout(
      () => (greedy ? finish(greedy) : (late = true)),
      Math.max(0, deadlineAt - realNow()),
    )
    worker.on('message', (message: Message) => {
      if (message.kind === 'compiled') compiled = message.wasmModule
      else if (message.kind === 'greedy') {
        greedy = { ...message, optimal: false }
        if (late) finish(greedy)
      } else if (message.kind === 'plan' && greedy) finish({ ...greedy, ...message })
      else if (message.kind === 'error') finish(undefined, new Error(`assignor: ${message.message}`))
    })
    worker.on('error', (error) => finish(undefined, error))
    worker.on('exit', () => finish(greedy))
    const handOver = Math.min(HAND_OVER_MS, (deadlineAt - realNow()) / 10)
    worker.postMessage({ packed: P, deadlineAt: deadlineAt - handOver, wasmModule: compiled })
  })
}

function greedyAnswer(P: PackedProblem): Answer {
  const candidates = candidatesOf(P)
  return { chosen: greedyAssignment(P, candidates), slotFirst: candidates.slotFirst, optimal: false }
}

function toPlan(P: PackedProblem, answer: Answer, solveMs: number): Plan {
  const planned = new Int32Array(P.officialKeys.length)
  for (const p of answer.chosen) if (p >= 0) planned[P.pairOfficial[p]!]!++
  const proposals: Proposal[] = []
  const unfilled: string[] = []
  answer.chosen.forEach((p, s) => {
    const slotKey = P.slotKeys[s]!
    if (p < 0) return void unfilled.push(slotKey)
    const o = P.pairOfficial[p]!
    const distance = P.pairDistance[p]!
    const eligibleOfficials = answer.slotFirst[s + 1]! - answer.slotFirst[s]!
    proposals.push({
      slotKey,
      officialKey: P.officialKeys[o]!,
      terms: {
        levelMargin: P.pairMargin[p]!,
        distanceKm: Number.isNaN(distance) ? null : distance,
        gamesHeld: P.held[o]!,
        gamesPlanned: planned[o]!,
        eligibleOfficials,
        onlyEligible: eligibleOfficials === 1,
      },
    })
  })
  let leads = 0
  let leadsFilled = 0
  P.slotLead.forEach((lead, s) => {
    leads += lead
    if (answer.chosen[s]! >= 0) leadsFilled += lead
  })
  const stats = {
    positions: P.slotKeys.length,
    filled: proposals.length,
    leads,
    leadsFilled,
    optimal: answer.optimal,
    solveMs,
  }
  return { proposals, unfilled, stats }
}

/**
 * The plan: the most positions filled (exactly the maximum), then the most leads, then the preferences
 * (docs/assignor.md).
 * The solve runs in a worker; past `deadlineMs` the greedy plan answers with `optimal: false`. The
 * same problem, in any order, gives the same plan (a solve cut short by its deadline excepted).
 */
export async function planAssignments(problem: AssignmentProblem, options: PlanOptions): Promise<Plan> {
  const started = performance.now()
  // The budget counts from the call, so a plan that waited for a thread still answers in about its
  // time (with less of it for the solve), but never with less than LEAST_TURN_MS for the worker.
  const calledAt = realNow()
  const P = await pack(problem)
  const answer = await inTurn(() => {
    if (options.deadlineMs <= 0) return Promise.resolve(undefined)
    const deadlineAt = Math.max(
      calledAt + options.deadlineMs,
      realNow() + Math.min(LEAST_TURN_MS, options.deadlineMs),
    )
    return solveInWorker(P, deadlineAt)
  })
  return toPlan(P, answer ?? greedyAnswer(P), Math.round(performance.now() - started))
}

/**
 * The greedy pass alone: scarcest positions first, each to the feasible official it costs least. Obeys
 * every hard rule; the yardstick the bench holds the solver against. Synchronous, on the caller's thread.
 */
export function greedyPlan(problem: AssignmentProblem): Plan {
  const started = performance.now()
  const P = packProblem(problem)
  return toPlan(P, greedyAnswer(P), Math.round(performance.now() - started))
}
