// The solver's thread: one plan each, with its own HiGHS instance. A fresh instance per plan because a
// WASM heap only grows (a weekend's models take it to hundreds of MB a server would keep for good) and
// because the deadline ends a solve by terminating the thread, instance and all. Plain JavaScript:
// a worker loads it the same from src/ under the tests and from dist/.
import { parentPort } from 'node:worker_threads'
import { solveExact } from './exact.mjs'
import { greedyAssignment } from './greedy.mjs'
import { loadHighs } from './highs.mjs'
import { analyse } from './structure.mjs'

/**
 * @typedef {object} Job
 * @property {import('./problem.mjs').PackedProblem} packed
 * @property {number} deadlineAt when the solve must have answered (ms since the epoch)
 * @property {any} wasmModule HiGHS compiled once per process (a WebAssembly.Module)
 */

/** @param {Job} job */
async function plan({ packed, deadlineAt, wasmModule }) {
  const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort)
  const S = analyse(packed)
  const greedy = greedyAssignment(packed, S)
  // The fallback first: if the deadline ends this thread, the caller still has the greedy plan.
  port.postMessage({ kind: 'greedy', chosen: greedy, slotFirst: S.slotFirst })
  const highs = await loadHighs({ wasmModule })
  const { chosen, optimal } = solveExact(highs, packed, S, deadlineAt, greedy)
  port.postMessage({ kind: 'plan', chosen, optimal })
}

parentPort?.once('message', (/** @type {Job} */ job) => {
  plan(job).catch((/** @type {unknown} */ error) => {
    parentPort?.postMessage({
      kind: 'error',
      message: error instanceof Error ? error.message : String(error),
    })
  })
})
