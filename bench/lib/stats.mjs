// Order statistics and the result entry: every figure is a median over rounds, with min–max, and a ratio
// against a baseline measured in the same run.
export const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]
}
export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}
export const summary = (values) => ({
  median: median(values),
  min: Math.min(...values),
  max: Math.max(...values),
  rounds: values,
})

// Three significant digits below 100, so a 0.085 ms call is not printed as 0.09.
const round = (n) => (Math.abs(n) >= 100 ? Math.round(n) : +n.toPrecision(3))

/**
 * One scenario/metric row. `value` and `baseline` are round summaries; `check(ratio, value)` decides
 * `met` (undefined when the issue sets no target for this figure).
 */
export function entry({ name, metric, value, baseline, target = 'info', check, unit = '' }) {
  const ratio = baseline.median === 0 ? NaN : value.median / baseline.median
  return {
    name,
    metric,
    value: round(value.median),
    baseline: round(baseline.median),
    ratio: Number.isFinite(ratio) ? +ratio.toFixed(3) : null,
    target,
    met: check ? check(ratio, value.median) : null,
    unit,
    min: round(value.min),
    max: round(value.max),
    baselineMin: round(baseline.min),
    baselineMax: round(baseline.max),
    rounds: value.rounds.length,
  }
}

export async function timed(fn) {
  const start = process.hrtime.bigint()
  const result = await fn()
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, result }
}
