// plans (issue 36 item 3): making plans must not stall other tenants. The worst and the 99th-percentile
// `GET /healthz` latency, paced every 20 ms (open loop: a stalled event loop delays every request sent
// during the stall), while one plan of 2,000 officials × 500 positions is made, and while four such
// plans (four leagues) are made at once; the same probe on the idle service is the baseline. Then the
// service's RSS after them, against its RSS before the first. Run on the compiled service:
// `npm run build && node bench/scenarios/plans.mjs [--database postgres://…]`.
import { setTimeout as sleep } from 'node:timers/promises'
import { parseArgs } from 'node:util'
import { newId } from '../../dist/clock.js'
import { rawDriver, startServiceProcess } from '../lib/setup.mjs'
import { entry, quantile, summary } from '../lib/stats.mjs'

const PACE_MS = 20
const OFFICIALS = 2000
const POSITIONS = 500
const DAY = 86_400_000

/** `GET /healthz` every PACE_MS until `until` settles: the latency of every request sent. */
async function probe(origin, until) {
  const pending = []
  let done = false
  const finished = until.finally(() => (done = true))
  while (!done) {
    const sent = performance.now()
    pending.push(
      fetch(`${origin}/healthz`).then(
        async (res) => (await res.text(), performance.now() - sent),
        () => performance.now() - sent,
      ),
    )
    await sleep(PACE_MS)
  }
  const [result, latencies] = await Promise.all([finished, Promise.all(pending)])
  return { result, latencies }
}

/** A league of OFFICIALS approved officials (written straight to the database) and POSITIONS open games. */
async function bigLeague(api, raw, source, n) {
  const league = await api.ok('POST', '/leagues', { name: `Plans ${n}`, travelBufferMinutes: 30 })
  const at = new Date().toISOString()
  await raw.transaction(async (exec) => {
    for (let i = 0; i < OFFICIALS; i++) {
      const userId = newId()
      await exec(
        'insert into users (id, source, external_id, email, name, created_at, updated_at) values ($1, $2, $3, $4, $5, $6, $7)',
        [userId, source, `plans-${n}-${i}`, `plans-${n}-${i}@example.test`, `Official ${i}`, at, at],
      )
      await exec(
        'insert into memberships (id, league_id, user_id, role, status, created_at, updated_at) values ($1, $2, $3, $4, $5, $6, $7)',
        [newId(), league.id, userId, 'official', 'approved', at, at],
      )
    }
  })
  // Games every 30 minutes from tomorrow on 17 fields: 500 positions over some 10 days.
  const start = Math.ceil(Date.now() / DAY) * DAY
  const games = Array.from({ length: POSITIONS }, (_, i) => ({
    externalId: `plans-${n}-${i}`,
    startsAt: new Date(start + i * 30 * 60_000).toISOString(),
    location: `Field ${i % 17}`,
  }))
  await api.ok('POST', `/leagues/${league.id}/games`, { games })
  return {
    id: league.id,
    window: { from: new Date(start).toISOString(), to: new Date(start + 20 * DAY).toISOString() },
  }
}

const plan = async (api, league) => {
  const res = await api.post(`/leagues/${league.id}/assignment-plans`, league.window)
  if (res.status !== 201) throw new Error(`plans: ${res.status} ${JSON.stringify(res.body)}`)
  return { stats: res.body.data.stats, bytes: res.bytes }
}

const worst = (values) => Math.max(...values)

export async function plansScenario({ databaseUrl }) {
  const service = await startServiceProcess(databaseUrl, 'plans')
  const raw = rawDriver(service.database.url)
  try {
    const { api, origin } = service
    const leagues = []
    for (let n = 0; n < 4; n++) leagues.push(await bigLeague(api, raw, service.issued.source, n))
    await service.peakRss()
    const before = await service.memory()
    const rssBefore = before.rss
    const idle = (await probe(origin, sleep(3000))).latencies
    const started = performance.now()
    const seconds = () => `${((performance.now() - started) / 1000).toFixed(1)} s`
    const one = await probe(origin, plan(api, leagues[0]))
    console.error(`plans: one plan made in ${seconds()}`)
    const four = await probe(origin, Promise.all(leagues.map((league) => plan(api, league))))
    console.error(`plans: four more made by ${seconds()}`)
    const peak = await service.peakRss()
    const after = await service.memory()
    const rssAfter = after.rss
    const mb = (bytes) => Math.round(bytes / 2 ** 20)
    console.error(
      `plans: one plan ${JSON.stringify(one.result.stats)} (${one.result.bytes} bytes); ` +
        `four plans' stats ${JSON.stringify(four.result.map((r) => r.stats))}; ` +
        `RSS before ${mb(rssBefore)} MB, peak ${mb(peak)} MB, after ${mb(rssAfter)} MB; ` +
        `JS heap used before ${mb(before.heapUsed)} MB, after ${mb(after.heapUsed)} MB; ` +
        `array buffers after ${mb(after.arrayBuffers)} MB`,
    )
    const figure = (metric, values, base, target, check, unit = 'ms') =>
      entry({
        name: 'plans',
        metric,
        value: summary([values]),
        baseline: summary([base]),
        target,
        check,
        unit,
      })
    return [
      figure('healthz_worst_ms@one_plan', worst(one.latencies), worst(idle), '<= 100', (_r, v) => v <= 100),
      figure('healthz_p99_ms@one_plan', quantile(one.latencies, 0.99), quantile(idle, 0.99)),
      figure(
        'healthz_worst_ms@four_plans',
        worst(four.latencies),
        worst(idle),
        '<= 100',
        (_r, v) => v <= 100,
      ),
      figure('healthz_p99_ms@four_plans', quantile(four.latencies, 0.99), quantile(idle, 0.99)),
      figure('rss_after_mb', mb(rssAfter), mb(rssBefore), 'info', undefined, 'MB'),
      figure('rss_peak_mb', mb(peak), mb(rssBefore), 'info', undefined, 'MB'),
    ]
  } finally {
    await raw.close()
    await service.close()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { database: { type: 'string' } } })
  const rows = await plansScenario({ databaseUrl: values.database })
  for (const row of rows) console.log(JSON.stringify(row))
}
