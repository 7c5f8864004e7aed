// stall (issue 21 item 3, issue 27 target 4): a 10,000-game league's lists are answered whole (the spec
// forbids pagination), megabytes each. Another tenant must not feel them: its `GET /games/{id}` p99 while
// one client fetches the big league's detail, games and assignments in a loop, against the same p99 with
// nothing else running, both measured in the same round. The other tenant's requests go out at a fixed
// pace whatever the answers' latency (open loop), so a stalled event loop shows as the delay of every
// request sent during the stall, not as one slow request.
import { fork } from 'node:child_process'
import { setTimeout as sleep } from 'node:timers/promises'
import { Pool } from 'undici'
import { importGames, nextMessage, rawDriver, startServiceProcess } from '../lib/setup.mjs'
import { entry, quantile, summary } from '../lib/stats.mjs'
import { claimEverything } from './growth.mjs'

const PACE_MS = 20
const BIG_LISTS = new URL('../lib/big-lists.mjs', import.meta.url)
let dropped = 0

/** GET `/api/v1{path}` over the pool, the body read to its last byte and never parsed. */
async function get(pool, authorization, path) {
  const res = await pool.request({ method: 'GET', path: `/api/v1${path}`, headers: { authorization } })
  for await (const chunk of res.body) void chunk
  if (res.statusCode !== 200) throw new Error(`stall: GET ${path} answered ${res.statusCode}`)
}

/** `GET /games/{id}` every PACE_MS for `ms`: the latencies of every request sent. */
async function pacedReads(pool, authorization, path, ms) {
  const pending = []
  const end = performance.now() + ms
  while (performance.now() < end) {
    const sent = performance.now()
    // A request the server dropped (its request time-out closes a socket that waited 30 s) counts with
    // the time it waited: a stall long enough to drop requests is the worst latency, not a bench error.
    const latency = () => performance.now() - sent
    pending.push(get(pool, authorization, path).then(latency, () => (dropped++, latency())))
    await sleep(PACE_MS)
  }
  return Promise.all(pending)
}

/**
 * The big-list client (bench/lib/big-lists.mjs) in a process of its own, fetching the big league's three
 * lists one after the other between `start()` and `stop()` (which answers how many it fetched).
 */
async function bigListClient(origin, authorization, leagueId) {
  const paths = ['', '/games', '/assignments'].map((tail) => `/api/v1/leagues/${leagueId}${tail}`)
  const child = fork(BIG_LISTS, [origin, authorization, ...paths], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const next = () => nextMessage(child, 'stall: big-list client')
  await next()
  return {
    async start() {
      const started = next()
      child.send('start')
      await started
    },
    async stop() {
      const answer = next()
      child.send('stop')
      const { fetched, error } = await answer
      if (error) throw new Error(error)
      return fetched
    },
    close() {
      child.send('close')
    },
  }
}

export async function stallScenario({ databaseUrl, rounds, games, seconds }) {
  const service = await startServiceProcess(databaseUrl, 'stall')
  const raw = rawDriver(service.database.url)
  // Keep-alive connections opened up front, so no request waits for a connect.
  const pool = new Pool(service.origin, { connections: 64 })
  let bigLists
  try {
    const big = service.api
    const league = await big.ok('POST', '/leagues', { name: `Stall ${games}` })
    await importGames(big, league.id, games, 'stall')
    const official = await big.ok('POST', `/leagues/${league.id}/officials`, { externalId: 'stall-ref' })
    await claimEverything(raw, league.id, official.userId)

    const other = await service.tenant('bench-stall-other')
    const small = await other.api.ok('POST', '/leagues', { name: 'Small' })
    const [gameId] = await importGames(other.api, small.id, 1, 'small')
    const path = `/games/${gameId}`
    const reads = (ms) => pacedReads(pool, other.authorization, path, ms)
    await reads(500)
    bigLists = await bigListClient(service.origin, service.authorization, league.id)

    const alone = []
    const loaded = []
    let fetched = 0
    for (let r = 0; r < rounds; r++) {
      alone.push(quantile(await reads(seconds * 1000), 0.99))
      await bigLists.start()
      loaded.push(quantile(await reads(seconds * 1000), 0.99))
      fetched += await bigLists.stop()
    }
    if (fetched < rounds) throw new Error(`stall: only ${fetched} big lists fetched in ${rounds} rounds`)
    return [
      entry({
        name: 'stall',
        metric: `other_tenant_game_p99_ms@${games}`,
        value: summary(loaded),
        baseline: summary(alone),
        target: '<= 2.0',
        check: (ratio) => ratio <= 2,
        unit: 'ms',
      }),
      entry({
        name: 'stall',
        metric: 'other_tenant_requests_dropped',
        value: summary([dropped]),
        baseline: summary([0]),
        target: '= 0',
        check: (_ratio, value) => value === 0,
      }),
      entry({
        name: 'stall',
        metric: 'big_lists_fetched_per_round',
        value: summary([fetched / rounds]),
        baseline: summary([1]),
        unit: '',
      }),
    ]
  } finally {
    await pool.close()
    bigLists?.close()
    await raw.close()
    await service.close()
  }
}
