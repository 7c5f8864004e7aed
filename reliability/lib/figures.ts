// Figures a reliability test measured (counts, rates, bytes), collected by scripts/test-reliability.mjs
// into the run's summary table. A test still asserts on its figure: the table reports, the test decides.
import { appendFileSync } from 'node:fs'

export interface Figure {
  /** The area: model, fuzz, isolation, crash, multi-process, webhook-faults, secrets. */
  section: string
  metric: string
  value: number | string
  /** What the figure must be, in words a reader checks it against: "0", ">= 10000", "bounded". */
  target: string
  met: boolean
}

export const databaseKind = (): 'sqlite' | 'postgres' =>
  process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite'

export function recordFigure(figure: Figure): void {
  const file = process.env.RELIABILITY_FIGURES
  if (!file) return
  appendFileSync(file, JSON.stringify({ ...figure, database: databaseKind() }) + '\n')
}
