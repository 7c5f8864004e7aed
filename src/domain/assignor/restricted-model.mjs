// One component's integer program over a growing subset of its pairs (column generation). The rows are
// those of the full formulation: a column only ever enters the rows it belongs to, and a row enters the
// model with its first column, so the restricted model is exactly the full one with the other columns
// at zero, and the duals of absent rows are zero.
import { spreadIncrement } from './weights.mjs'

const INTEGER = 1

/**
 * @typedef {'count' | 'prefer'} Phase
 * @typedef {{ slot: Uint8Array, clique: Uint8Array, cap: Uint8Array }} Tight
 * How many positions a preference model must fill: every slot marked in `must` (their hard components
 * fill all they can, so each of those slot rows is an equation), and `floor` more among the others
 * (one count row over those), `leadFloor` of them leads (one lead row). `total` and `leadTotal` are
 * what any plan of the model fills. `leadWeight`: what a position is worth when counting (see cost).
 * @typedef {{ must: Uint8Array, floor: number, total: number, leadFloor: number, leadTotal: number, leadWeight: number }} Fill
 */

export class RestrictedModel {
  /**
   * @param {import('highs').Highs} highs
   * @param {import('./problem.mjs').PackedProblem} P
   * @param {import('./structure.mjs').Structure} S
   * @param {Phase} phase count: fill the most positions; prefer: as many as `fill` says, at the least cost
   * @param {Fill} fill
   * @param {Tight} [tight] rows to hold at their upper bound (the LP optimum's binding rows)
   */
  constructor(highs, P, S, phase, fill, tight) {
    this.tight = tight
    this.fill = fill
    this.highs = highs
    this.P = P
    this.S = S
    this.phase = phase
    /** @type {import('./exact.mjs').Judge} */
    this.judge = { P, S, phase, total: fill.total, leadTotal: fill.leadTotal, leadWeight: fill.leadWeight }
    this.model = highs.createModel()
    this.model.options.set({ output_flag: false })
    this.days = P.days.length
    this.slotRow = new Int32Array(P.slotKeys.length).fill(-1)
    this.cliqueRow = new Int32Array(S.cliques).fill(-1)
    this.capRow = new Int32Array(P.officialKeys.length * this.days).fill(-1)
    this.linkRow = new Int32Array(P.officialKeys.length).fill(-1)
    /** y columns of official o: spreadCol[o] .. spreadCol[o] + maxNew[o]; -1 before o has any pair */
    this.spreadCol = new Int32Array(P.officialKeys.length).fill(-1)
    this.pairCol = new Int32Array(P.pairSlot.length).fill(-1)
    /** @type {number[]} the pair of each x column, -1 for a spread column */
    this.colPair = []
    this.rows = 0
    this.countRow = -1
    this.leadRow = -1
    if (phase === 'prefer' && fill.floor > 0) this.countRow = this.newRows([[fill.floor, Infinity]])
    if (phase === 'prefer' && fill.leadFloor > 0) this.leadRow = this.newRows([[fill.leadFloor, Infinity]])
  }

  /**
   * Counting, a position is worth `leadWeight` and a lead one more: more leads never outweigh one
   * position more (the weight exceeds the component's leads), and the objective stays integral.
   * @param {number} p
   */
  cost(p) {
    if (this.phase === 'prefer') return this.S.cost[p]
    return -(this.fill.leadWeight + this.P.slotLead[this.P.pairSlot[p]])
  }

  /**
   * Appends empty rows; returns the first one's index.
   * @param {[number, number][]} bounds
   */
  newRows(bounds) {
    const first = this.rows
    if (bounds.length === 0) return first
    const cols = this.colPair.length
    this.model.addRows({
      lower: Float64Array.from(bounds, (b) => b[0]),
      upper: Float64Array.from(bounds, (b) => b[1]),
      matrix: {
        format: 'csr',
        numRows: bounds.length,
        numCols: cols,
        starts: new Int32Array(bounds.length + 1),
        indices: new Int32Array(0),
        values: new Float64Array(0),
      },
    })
    this.rows += bounds.length
    return first
  }

  /**
   * The rows pair p belongs to, created as needed, with their coefficients.
   * @param {number} p
   * @param {[number, number][]} pending bounds of rows to create, in index order
   * @param {number[]} officials whose spread columns must be created
   * @returns {[number, number][]}
   */
  entriesOf(p, pending, officials) {
    const { P, S } = this
    const s = P.pairSlot[p]
    const o = P.pairOfficial[p]
    const tight = this.tight
    const rowFor = (
      /** @type {Int32Array} */ table,
      /** @type {Uint8Array | undefined} */ held,
      /** @type {number} */ key,
      /** @type {number} */ upper,
    ) => {
      if (table[key] < 0) {
        table[key] = this.rows + pending.length
        pending.push([held?.[key] ? upper : -Infinity, upper])
      }
      return table[key]
    }
    const must = this.phase === 'prefer' && this.fill.must[s] === 1
    /** @type {[number, number][]} */
    const entries = [[rowFor(this.slotRow, must ? this.fill.must : tight?.slot, s, 1), 1]]
    for (let k = S.pairCliqueFirst[p]; k < S.pairCliqueFirst[p + 1]; k++) {
      entries.push([rowFor(this.cliqueRow, tight?.clique, S.pairCliques[k], 1), 1])
    }
    const day = o * this.days + P.slotDay[s]
    if (S.capBinds[day]) entries.push([rowFor(this.capRow, tight?.cap, day, P.room[day]), 1])
    if (this.phase === 'prefer') {
      if (this.linkRow[o] < 0) {
        this.linkRow[o] = this.rows + pending.length
        pending.push([0, 0])
        officials.push(o)
      }
      entries.push([this.linkRow[o], 1])
      if (!must && this.countRow >= 0) entries.push([this.countRow, 1])
      if (!must && this.leadRow >= 0 && P.slotLead[s]) entries.push([this.leadRow, 1])
    }
    return entries
  }

  /**
   * Adds the columns of these pairs (and the rows and spread columns they bring).
   * @param {Iterable<number>} pairs
   * @param {boolean} integer
   */
  addPairs(pairs, integer) {
    /** @type {[number, number][]} */
    const pending = []
    /** @type {number[]} */
    const officials = []
    const fresh = [...pairs].filter((p) => this.pairCol[p] < 0)
    const entries = fresh.map((p) => this.entriesOf(p, pending, officials))
    this.newRows(pending)
    for (const o of officials) this.addSpreadColumns(o)
    if (fresh.length === 0) return
    const first = this.colPair.length
    const starts = new Int32Array(fresh.length + 1)
    entries.forEach((e, k) => (starts[k + 1] = starts[k] + e.length))
    this.model.addCols({
      cost: Float64Array.from(fresh, (p) => this.cost(p)),
      lower: new Float64Array(fresh.length),
      upper: new Float64Array(fresh.length).fill(1),
      matrix: {
        format: 'csc',
        numRows: this.rows,
        numCols: fresh.length,
        starts,
        indices: Int32Array.from(entries.flat(), (e) => e[0]),
        values: Float64Array.from(entries.flat(), (e) => e[1]),
      },
    })
    fresh.forEach((p, k) => {
      this.pairCol[p] = first + k
      this.colPair.push(p)
    })
    if (integer) {
      this.model.changeColsIntegrality(
        { kind: 'range', from: first, to: first + fresh.length - 1 },
        new Int32Array(fresh.length).fill(INTEGER),
      )
    }
  }

  /**
   * The spread term of official o: y_1 .. y_m in [0, 1], y_i costing the i-th new game's increment, and
   * their sum tied to o's positions by the link row. The increments grow, so an optimum fills them in
   * order and the sum of their costs is the convex penalty exactly.
   * @param {number} o
   */
  addSpreadColumns(o) {
    const m = this.S.maxNew[o]
    this.spreadCol[o] = this.colPair.length
    const held = this.P.held[o]
    this.model.addCols({
      cost: Float64Array.from({ length: m }, (_, i) => spreadIncrement(held + i)),
      lower: new Float64Array(m),
      upper: new Float64Array(m).fill(1),
      matrix: {
        format: 'csc',
        numRows: this.rows,
        numCols: m,
        starts: Int32Array.from({ length: m + 1 }, (_, i) => i),
        indices: new Int32Array(m).fill(this.linkRow[o]),
        values: new Float64Array(m).fill(-1),
      },
    })
    for (let i = 0; i < m; i++) this.colPair.push(-1)
  }

  /**
   * The reduced cost of pair p under these row duals (zero for rows not in the model).
   * @param {number} p
   * @param {Float64Array} rowDual
   */
  reducedCost(p, rowDual) {
    const { P, S } = this
    const s = P.pairSlot[p]
    const o = P.pairOfficial[p]
    const dual = (/** @type {number} */ row) => (row < 0 ? 0 : rowDual[row])
    let price = dual(this.slotRow[s])
    for (let k = S.pairCliqueFirst[p]; k < S.pairCliqueFirst[p + 1]; k++) {
      price += dual(this.cliqueRow[S.pairCliques[k]])
    }
    price += dual(this.capRow[o * this.days + P.slotDay[s]])
    if (this.phase === 'prefer') {
      price += dual(this.linkRow[o])
      if (this.fill.must[s] !== 1) price += dual(this.countRow) + (P.slotLead[s] ? dual(this.leadRow) : 0)
    }
    return this.cost(p) - price
  }

  /**
   * The rows with a nonzero dual: every optimal solution of the LP holds them at their bound.
   * @param {Float64Array} rowDual
   * @returns {Tight}
   */
  tightRows(rowDual) {
    const flag = (/** @type {Int32Array} */ table) =>
      Uint8Array.from(table, (row) => (row >= 0 && Math.abs(rowDual[row]) > 1e-9 ? 1 : 0))
    return { slot: flag(this.slotRow), clique: flag(this.cliqueRow), cap: flag(this.capRow) }
  }

  /**
   * A dense start for the model's columns from a plan (pair per slot).
   * @param {Iterable<number>} pairs the plan's pairs in this component
   */
  startFrom(pairs) {
    const value = new Float64Array(this.colPair.length)
    const count = new Int32Array(this.P.officialKeys.length)
    for (const p of pairs) {
      value[this.pairCol[p]] = 1
      count[this.P.pairOfficial[p]]++
    }
    if (this.phase === 'prefer') {
      count.forEach((n, o) => {
        for (let i = 0; i < n; i++) value[this.spreadCol[o] + i] = 1
      })
    }
    this.model.setSolution({ colValue: value })
  }

  /** @param {Record<string, number | boolean | string>} options */
  run(options) {
    this.model.options.set(options)
    // HiGHS measures time_limit against its clock since the last reset, across runs.
    this.model.zeroAllClocks()
    return this.model.run().modelStatus
  }

  /** The pairs at one in the current solution. */
  chosenPairs() {
    const { colValue } = this.model.getSolution()
    return this.colPair.filter((p, c) => p >= 0 && colValue[c] > 0.5)
  }

  /** Whether every x column of the current solution is 0 or 1. */
  integral() {
    const { colValue } = this.model.getSolution()
    return this.colPair.every((p, c) => p < 0 || Math.abs(colValue[c] - Math.round(colValue[c])) < 1e-7)
  }

  /**
   * @param {number[]} cols
   * @param {number} lower
   * @param {number} upper
   */
  boundColumns(cols, lower, upper) {
    if (cols.length === 0) return
    this.model.changeColsBounds(
      { kind: 'set', indices: Int32Array.from(cols) },
      new Float64Array(cols.length).fill(lower),
      new Float64Array(cols.length).fill(upper),
    )
  }

  /**
   * @param {number[]} pairs
   * @param {number} lower
   * @param {number} upper
   */
  boundPairs(pairs, lower, upper) {
    this.boundColumns(
      pairs.map((p) => this.pairCol[p]).filter((c) => c >= 0),
      lower,
      upper,
    )
  }

  hasFeasibleSolution() {
    return this.model.info.get('primal_solution_status') === this.highs.constants.solutionStatus.feasible
  }

  dispose() {
    this.model.dispose()
  }
}
