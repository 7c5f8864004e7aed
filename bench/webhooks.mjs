// Webhook delivery figures on this machine: events/s delivered to a local HTTPS receiver, and commit→receipt
// latency (p50/p99) of single events on an otherwise idle system. Uses the compiled package:
//   npm run build && node bench/webhooks.mjs [postgres://…]    (default: a fresh SQLite file)
// Results are printed and written to bench/results/webhooks-<db>.json.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:https'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { openRuntime } from '../dist/app.js'
import { webhookSettings } from '../dist/config.js'
import { issueKey } from '../dist/domain/api-keys.js'
import { upsertGames } from '../dist/domain/games.js'
import { upsertLeague } from '../dist/domain/leagues.js'
import { createWebhook } from '../dist/domain/webhook-endpoints.js'
import { startDispatcher } from '../dist/webhooks/dispatcher.js'

const LATENCY_SAMPLES = 300
const BATCHES = 4
const BATCH_SIZE = 500

const fixture = (name) => readFileSync(new URL(`../test/webhooks/fixtures/${name}`, import.meta.url))
const url = process.argv[2] ?? `file:${join(mkdtempSync(join(tmpdir(), 'refdesk-bench-')), 'bench.sqlite')}`
const dbName = url.startsWith('postgres') ? 'postgres' : 'sqlite'

const arrivals = new Map()
let waiting
const server = createServer({ key: fixture('server.key'), cert: fixture('server.crt') }, (req, res) => {
  const chunks = []
  req.on('data', (c) => chunks.push(c))
  req.on('end', () => {
    const at = performance.now()
    const { data } = JSON.parse(Buffer.concat(chunks).toString())
    arrivals.set(data.externalId, at)
    res.writeHead(204).end()
    if (waiting && arrivals.size >= waiting.n) waiting.resolve()
  })
})
server.keepAliveTimeout = 60_000
await new Promise((r) => server.listen(0, '127.0.0.1', r))
const until = (n) => new Promise((resolve) => (arrivals.size >= n ? resolve() : (waiting = { n, resolve })))

const runtime = await openRuntime(url)
const { deps } = runtime
const issued = await issueKey(deps, { source: `bench-${Date.now()}` })
const caller = {
  kind: 'partner',
  keyId: issued.id,
  source: issued.source,
  organizerId: issued.organizerId,
  grantedLeagueIds: [],
}
const league = await upsertLeague(deps, caller, { name: 'bench' })
await createWebhook(deps, caller, {
  url: `https://127.0.0.1:${server.address().port}/hook`,
  events: ['game.created'],
})
const settings = { ...webhookSettings({ ...process.env, REFDESK_WEBHOOK_ALLOW_PRIVATE: '127.0.0.0/8' }) }
const dispatcher = startDispatcher({ db: deps.db, settings, databaseUrl: url, ca: fixture('ca.crt') })

const game = (id) => ({ externalId: id, startsAt: '2026-05-01T18:00:00Z' })

// Latency: one event at a time, each after the previous one arrived (idle system).
const latencies = []
for (let i = 0; i < LATENCY_SAMPLES; i++) {
  const id = `lat-${i}`
  await upsertGames(deps, caller, league.id, { games: [game(id)] })
  const committed = performance.now()
  await until(arrivals.size + 1)
  latencies.push(arrivals.get(id) - committed)
}
latencies.sort((a, b) => a - b)
const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]

// Throughput: BATCHES imports of BATCH_SIZE games back to back; first commit to last receipt.
const before = arrivals.size
const started = performance.now()
for (let b = 0; b < BATCHES; b++) {
  await upsertGames(deps, caller, league.id, {
    games: Array.from({ length: BATCH_SIZE }, (_, i) => game(`tp-${b}-${i}`)),
  })
}
const importSeconds = (performance.now() - started) / 1000
await until(before + BATCHES * BATCH_SIZE)
const seconds = (performance.now() - started) / 1000

const result = {
  database: dbName,
  node: process.version,
  concurrency: settings.concurrency,
  perEndpointConcurrency: settings.perEndpointConcurrency,
  latencyMs: {
    samples: LATENCY_SAMPLES,
    p50: +pct(50).toFixed(1),
    p99: +pct(99).toFixed(1),
    max: +latencies.at(-1).toFixed(1),
  },
  throughput: {
    events: BATCHES * BATCH_SIZE,
    seconds: +seconds.toFixed(2),
    eventsPerSecond: Math.round((BATCHES * BATCH_SIZE) / seconds),
    importSeconds: +importSeconds.toFixed(2),
  },
}
console.log(JSON.stringify(result, null, 2))
mkdirSync(new URL('./results/', import.meta.url), { recursive: true })
writeFileSync(
  new URL(`./results/webhooks-${dbName}.json`, import.meta.url),
  `${JSON.stringify(result, null, 2)}\n`,
)

await dispatcher.stop()
await runtime.close()
server.close()
