#!/usr/bin/env node
// `npm run test:reliability`: the reliability suite (reliability/) on SQLite, then on PostgreSQL
// (TEST_DATABASE_URL, default: the local server), then one summary table of every recorded figure and
// the line `reliability: N passed, M failed`. Skipped tests count as failed: nothing is left out quietly.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const dir = mkdtempSync(join(tmpdir(), 'refdesk-reliability-'))
const figuresFile = join(dir, 'figures.jsonl')
const pgUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const passes = [
  { database: 'sqlite', env: { TEST_DATABASE_URL: '' } },
  { database: 'postgres', env: { TEST_DATABASE_URL: pgUrl } },
]
const extraArgs = process.argv.slice(2)
const started = Date.now()
let passed = 0
let failed = 0
const rows = []

for (const pass of passes) {
  const report = join(dir, `${pass.database}.json`)
  const env = { ...process.env, ...pass.env, RELIABILITY_FIGURES: figuresFile }
  if (!env.TEST_DATABASE_URL) delete env.TEST_DATABASE_URL
  const passStarted = Date.now()
  spawnSync(
    'npx',
    [
      'vitest',
      'run',
      '--config',
      'vitest.reliability.config.ts',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${report}`,
      ...extraArgs,
    ],
    { stdio: 'inherit', env },
  )
  const seconds = ((Date.now() - passStarted) / 1000).toFixed(0)
  if (!existsSync(report)) {
    failed += 1
    rows.push(['run', 'vitest report', pass.database, 'missing', 'present', 'no'])
    continue
  }
  const result = JSON.parse(readFileSync(report, 'utf8'))
  const skipped = result.numPendingTests + result.numTodoTests
  passed += result.numPassedTests
  failed += result.numFailedTests + skipped
  // A file that fails to load has no tests to count; count it so it cannot pass silently.
  failed += result.testResults.filter(
    (file) => file.status === 'failed' && file.assertionResults.length === 0,
  ).length
  rows.push([
    'run',
    'tests passed / failed / skipped',
    pass.database,
    `${result.numPassedTests} / ${result.numFailedTests} / ${skipped}`,
    'all pass',
    result.success && skipped === 0 ? 'yes' : 'no',
  ])
  rows.push(['run', 'wall time (s)', pass.database, seconds, '', ''])
}

const figures = existsSync(figuresFile)
  ? readFileSync(figuresFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line))
  : []
for (const f of figures)
  rows.push([f.section, f.metric, f.database, String(f.value), f.target, f.met ? 'yes' : 'no'])
const unmet = figures.filter((f) => !f.met).length

console.log('\n## Reliability summary\n')
console.log('| section | metric | database | value | target | met |')
console.log('|---|---|---|---|---|---|')
for (const row of rows) console.log(`| ${row.join(' | ')} |`)
console.log(`\nTotal wall time: ${((Date.now() - started) / 1000).toFixed(0)} s; figures not met: ${unmet}`)
console.log(`reliability: ${passed} passed, ${failed} failed`)
process.exit(failed === 0 && unmet === 0 ? 0 : 1)
