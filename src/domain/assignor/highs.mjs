// Loads HiGHS. The package's types describe its CommonJS build, where the default import is the whole
// module; the ES build this file loads exports the loader itself.
import highsDefault from 'highs'

/**
 * @param {import('highs').InitOptions} [options] `wasmModule`: HiGHS compiled once per process
 * @returns {Promise<import('highs').Highs>}
 */
export function loadHighs(options = {}) {
  const load = /** @type {(options: import('highs').InitOptions) => Promise<import('highs').Highs>} */ (
    /** @type {unknown} */ (highsDefault)
  )
  return load(options)
}
