// `npm run bench [-- --quick] [-- --database postgres://…] [-- --only import,reads,app]`: every scenario of
// docs/performance.md against its baseline measured in the same run. Prints a Markdown table and writes
// bench/results/latest.json. Needs the compiled service (`npm run bench` builds first).
import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { parseArgs } from 'node:util'
import { isPostgresUrl } from '../dist/store/database-url.js'
import { appScenario } from './scenarios/app.mjs'
import { claimsScenario } from './scenarios/claims.mjs'
import { growthScenario } from './scenarios/growth.mjs'
import { importScenario } from './scenarios/import.mjs'
import { mcpScenario } from './scenarios/mcp.mjs'
import { notificationsScenario } from './scenarios/notifications.mjs'
import { readsScenario } from './scenarios/reads.mjs'
import { solverScenario } from './scenarios/solver.mjs'
import { stallScenario } from './scenarios/stall.mjs'
import { webhooksScenario } from './scenarios/webhooks.mjs'

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    database: { type: 'string' },
    only: { type: 'string' },
    out: { type: 'string', default: 'latest.json' },
  },
})
const databaseUrl = args.database
if (databaseUrl !== undefined && !isPostgresUrl(databaseUrl)) {
  throw new Error('--database takes a postgres:// URL (SQLite is the default)')
}

const ROUNDS = 5
const sizes = args.quick
  ? {
      import: { rounds: ROUNDS },
      reads: { seconds: 1 },
      claims: { rounds: 25 },
      webhooks: { eventsPerRound: 400, latencySamples: 20 },
      growth: { sizes: [100, 1000] },
      mcp: { calls: 100 },
      app: { requests: 10 },
      stall: { games: 2000, seconds: 1 },
      plan: { rounds: 1 },
      notifications: { rounds: 2 },
    }
  : {
      import: { rounds: 2 * ROUNDS },
      reads: { seconds: 3 },
      claims: { rounds: 100 },
      webhooks: { eventsPerRound: 2000, latencySamples: 60 },
      growth: { sizes: [100, 1000, 10000] },
      mcp: { calls: 500 },
      app: { requests: 30 },
      stall: { games: 10000, seconds: 3 },
      plan: { rounds: 3 },
      notifications: { rounds: ROUNDS },
    }
const scenarios = {
  import: importScenario,
  reads: readsScenario,
  claims: claimsScenario,
  webhooks: webhooksScenario,
  growth: growthScenario,
  mcp: mcpScenario,
  app: appScenario,
  stall: stallScenario,
  plan: solverScenario,
  notifications: notificationsScenario,
}
const selected = args.only ? args.only.split(',') : Object.keys(scenarios)

const results = []
const failed = []
const started = Date.now()
for (const name of selected) {
  if (!scenarios[name]) throw new Error(`unknown scenario ${name}`)
  const t = Date.now()
  process.stderr.write(`bench: ${name}…`)
  try {
    results.push(...(await scenarios[name]({ databaseUrl, rounds: ROUNDS, ...sizes[name] })))
    process.stderr.write(` ${((Date.now() - t) / 1000).toFixed(1)} s\n`)
  } catch (error) {
    // One broken scenario must not hide the others' figures; the run still exits non-zero.
    process.stderr.write(` failed: ${error.stack}\n`)
    failed.push(name)
    process.exitCode = 1
  }
}

const git = (...a) => execFileSync('git', a, { encoding: 'utf8' }).trim()
const dirty = git('status', '--porcelain', '--', 'src') !== ''
const report = {
  commit: `${git('rev-parse', 'HEAD')}${dirty ? '-dirty' : ''}`,
  node: process.version,
  cpus: availableParallelism(),
  database: databaseUrl ? 'postgres' : 'sqlite',
  quick: args.quick,
  seconds: Math.round((Date.now() - started) / 1000),
  scenarios: results,
  failed,
}
mkdirSync(new URL('./results/', import.meta.url), { recursive: true })
writeFileSync(new URL(`./results/${args.out}`, import.meta.url), `${JSON.stringify(report, null, 2)}\n`)

const cell = (e, v, min, max) =>
  min === max ? `${v}${e.unit ? ` ${e.unit}` : ''}` : `${v} (${min}–${max})${e.unit ? ` ${e.unit}` : ''}`
const met = (m) => (m === null ? '–' : m ? 'yes' : '**no**')
console.log(
  `RefDesk bench · ${report.database} · node ${report.node} · ${report.cpus} cpus · ${report.commit.slice(0, 12)}` +
    `${args.quick ? ' · quick' : ''} · ${report.seconds} s\n`,
)
console.log(
  '| scenario | metric | value (median, min–max) | baseline (median, min–max) | ratio | target | met |',
)
console.log('|---|---|---|---|---|---|---|')
if (failed.length) console.log(`\nFailed scenarios: ${failed.join(', ')}\n`)
for (const e of results) {
  console.log(
    `| ${e.name} | ${e.metric} | ${cell(e, e.value, e.min, e.max)} | ${cell(e, e.baseline, e.baselineMin, e.baselineMax)} | ${e.ratio ?? '–'} | ${e.target} | ${met(e.met)} |`,
  )
}
// A pool some scenario left open (a stray PostgreSQL connection) must not hold the finished run.
process.exit()
