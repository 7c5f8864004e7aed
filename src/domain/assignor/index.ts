// The assignor's solver: the plan that fills the most positions any rule-abiding assignment could, then
// prefers level margin, short trips and an even spread (docs/assignor.md). Pure: no database, no HTTP.
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'
import { greedyAssignment } from './greedy.mjs'
import { packFrame, packPairs, packed as packedOf, type PackedProblem } from './problem.mjs'
import { candidatesOf } from './structure.mjs'
import type { AssignmentProblem, Plan, PlanOptions, Proposal } from './types.js'

export type * from './types.js'
export { COST_UNITS_PER_KM, LEVEL_MARGIN_REWARD, SPREAD_STEP, UNKNOWN_DISTANCE_KM } from './weights.mjs'

/** Pairs packed between two turns of the event loop: a few ms of work at most. */
const PACK_CHUNK = 8192
/** The solver stops this long before the deadline (at most a tenth of it) to hand its plan over in time. */
const HAND_OVER_MS = 250

/** A compiled WebAssembly.Module (declared by the DOM lib, which this project does not load). */
type WasmModule = object
const { WebAssembly: wasmApi } = globalThis as unknown as {
  WebAssembly: { compile(bytes: Uint8Array): Promise<WasmModule> }
}

let compiled: Promise<WasmModule> | undefined

/**
 * HiGHS compiled once per process, off the event loop; each plan's worker instantiates it, so a plan
 * neither recompiles 3.5 MB of WASM nor loses the optimised code earlier plans left.
 */
function highsModule(): Promise<WasmModule> {
  const path = createRequire(import.meta.url).resolve('highs/runtime')
  compiled ??= readFile(path).then((bytes) => wasmApi.compile(bytes))
  return compiled
}

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

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
  | { kind: 'greedy'; chosen: Int32Array; slotFirst: Int32Array }
  | { kind: 'plan'; chosen: Int32Array; optimal: boolean }
  | { kind: 'error'; message: string }

/**
 * Runs the solve in a worker until `deadlineAt`; past it the worker is terminated and the answer is
 * its greedy plan, or undefined when it had not sent one yet.
 */
function solveInWorker(P: PackedProblem, deadlineAt: number, wasmModule: WasmModule) {
  return new Promise<Answer | undefined>((resolve, reject) => {
    const worker = new Worker(new URL('./solve-worker.mjs', import.meta.url))
    let greedy: Answer | undefined
    const finish = (answer: Answer | undefined, error?: Error) => {
      clearTimeout(timer)
      worker.removeAllListeners()
      void worker.terminate()
      if (error) reject(error)
      else resolve(answer)
    }
    const timer = setTimeout(() => finish(greedy), Math.max(0, deadlineAt - Date.now()))
    worker.on('message', (message: Message) => {
      if (message.kind === 'greedy') greedy = { ...message, optimal: false }
      else if (message.kind === 'plan' && greedy) finish({ ...greedy, ...message })
      else if (message.kind === 'error') finish(undefined, new Error(`assignor: ${message.message}`))
    })
    worker.on('error', (error) => finish(undefined, error))
    worker.on('exit', () => finish(greedy))
    const handOver = Math.min(HAND_OVER_MS, (deadlineAt - Date.now()) / 10)
    worker.postMessage({ packed: P, deadlineAt: deadlineAt - handOver, wasmModule })
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
  const stats = { positions: P.slotKeys.length, filled: proposals.length, optimal: answer.optimal, solveMs }
  return { proposals, unfilled, stats }
}

/**
 * The plan: the most positions filled (exactly the maximum), then the preferences (docs/assignor.md).
 * The solve runs in a worker; past `deadlineMs` the greedy plan answers with `optimal: false`. The
 * same problem, in any order, gives the same plan (a solve cut short by its deadline excepted).
 */
export async function planAssignments(problem: AssignmentProblem, options: PlanOptions): Promise<Plan> {
  const started = performance.now()
  const deadlineAt = Date.now() + options.deadlineMs
  const [P, wasmModule] = await Promise.all([pack(problem), highsModule()])
  const answer = Date.now() < deadlineAt ? await solveInWorker(P, deadlineAt, wasmModule) : undefined
  return toPlan(P, answer ?? greedyAnswer(P), Math.round(performance.now() - started))
}

/**
 * The greedy pass alone: scarcest positions first, each to the feasible official it costs least. Obeys
 * every hard rule; the yardstick the bench holds the solver against. Synchronous, on the caller's thread.
 */
export function greedyPlan(problem: AssignmentProblem): Plan {
  const started = performance.now()
  const packed = packFrame(problem)
  packPairs(problem, packed, 0, problem.pairs.length)
  const P = packedOf(packed)
  return toPlan(P, greedyAnswer(P), Math.round(performance.now() - started))
}
