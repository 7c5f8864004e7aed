// The solver's thread: one plan each, with its own HiGHS instance. A fresh instance per plan because a
// WASM heap only grows (a weekend's models take it to hundreds of MB a server would keep for good) and
// because the deadline ends a solve by terminating the thread, instance and all. Plain JavaScript:
// a worker loads it the same from src/ under the tests and from dist/.
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { parentPort } from 'node:worker_threads'
import { solveExact } from './exact.mjs'
import { greedyAssignment } from './greedy.mjs'
import { loadHighs } from './highs.mjs'
import { analyse } from './structure.mjs'

/**
 * @typedef {object} Job
 * @property {import('./problem.mjs').PackedProblem} packed
 * @property {number} deadlineAt when the solve must have answered (ms since the epoch)
 * @property {object} [wasmModule] HiGHS compiled by an earlier plan's worker (a WebAssembly.Module)
 */

/** The WebAssembly API (declared by the DOM lib, which this project does not load). */
const wasmApi = /** @type {{ compile(bytes: Uint8Array): Promise<object> }} */ (
  /** @type {{ WebAssembly: unknown }} */ (/** @type {unknown} */ (globalThis)).WebAssembly
)

/**
 * Compiles HiGHS here, off the event loop, and hands the module to the caller for the next plans.
 * @param {import('node:worker_threads').MessagePort} port
 */
async function compileOnce(port) {
  const path = createRequire(import.meta.url).resolve('highs/runtime')
  const wasmModule = await wasmApi.compile(await readFile(path))
  port.postMessage({ kind: 'compiled', wasmModule })
  return wasmModule
}

/** @param {Job} job */
async function plan({ packed, deadlineAt, wasmModule }) {
  const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort)
  const S = analyse(packed)
  const greedy = greedyAssignment(packed, S)
  // The fallback first: if the deadline ends this thread, the caller still has the greedy plan.
  port.postMessage({ kind: 'greedy', chosen: greedy, slotFirst: S.slotFirst })
  const highs = await loadHighs({ wasmModule: wasmModule ?? (await compileOnce(port)) })
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
