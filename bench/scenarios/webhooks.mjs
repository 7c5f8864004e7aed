// webhooks: game.created events fanned out to a local HTTPS receiver. Throughput: the events of a round are
// committed first, then a dispatcher is started and timed until the last receipt (deliveries/s). Latency:
// with the dispatcher running, one event at a time, commit → receipt. Baseline: the same signed bodies and
// headers the receiver got, re-POSTed through a raw keep-alive undici Pool with the dispatcher's
// per-endpoint connection count.
import { readFileSync } from 'node:fs'
import { createServer } from 'node:https'
import { performance } from 'node:perf_hooks'
import { Pool } from 'undici'
import { webhookSettings } from '../../dist/config.js'
import { upsertGames } from '../../dist/domain/games/games.js'
import { upsertLeague } from '../../dist/domain/leagues/leagues.js'
import { createWebhook } from '../../dist/domain/partners/webhook-endpoints.js'
import { startDispatcher } from '../../dist/webhooks/dispatcher.js'
import { gameItem, startService } from '../lib/setup.mjs'
import { entry, quantile, summary } from '../lib/stats.mjs'

const WARM_UP_ROUNDS = 2

const fixture = (name) => readFileSync(new URL(`../../test/webhooks/fixtures/${name}`, import.meta.url))

function startReceiver() {
  const state = { count: 0, arrivals: new Map(), captured: [], waiting: undefined }
  const server = createServer({ key: fixture('server.key'), cert: fixture('server.crt') }, (req, res) => {
    const chunks = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => {
      const at = performance.now()
      const body = Buffer.concat(chunks).toString()
      state.count++
      if (state.capture) {
        const headers = {}
        for (const name of [
          'content-type',
          'user-agent',
          'webhook-id',
          'webhook-timestamp',
          'webhook-signature',
        ])
          headers[name] = req.headers[name]
        state.captured.push({ body, headers })
      }
      if (state.track) state.arrivals.set(JSON.parse(body).data.externalId, at)
      res.writeHead(204).end()
      if (state.waiting && state.count >= state.waiting.n) state.waiting.resolve()
    })
  })
  server.keepAliveTimeout = 60_000
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        state,
        origin: `https://127.0.0.1:${server.address().port}`,
        until: (n) => new Promise((r) => (state.count >= n ? r() : (state.waiting = { n, resolve: r }))),
        reset() {
          state.count = 0
          state.captured = []
          state.waiting = undefined
        },
        close: () => new Promise((r) => server.close(r)),
      }),
    ),
  )
}

export async function webhooksScenario({ databaseUrl, rounds, eventsPerRound, latencySamples }) {
  const service = await startService(databaseUrl, 'webhooks')
  const receiver = await startReceiver()
  const { deps } = service.runtime
  const ca = fixture('ca.crt')
  const settings = webhookSettings({ ...process.env, REFDESK_WEBHOOK_ALLOW_PRIVATE: '127.0.0.0/8' })
  const dispatcherOptions = { database: service.runtime.database, settings, ca }
  const running = new Set()
  const dispatch = () => {
    const dispatcher = startDispatcher(dispatcherOptions)
    running.add(dispatcher)
    return {
      stop: async () => {
        running.delete(dispatcher)
        await dispatcher.stop()
      },
    }
  }
  const pool = new Pool(receiver.origin, { connections: settings.perEndpointConcurrency, connect: { ca } })
  try {
    const { issued } = service
    const caller = {
      kind: 'partner',
      keyId: issued.id,
      source: issued.source,
      organizerId: issued.organizerId,
      grantedLeagueIds: [],
    }
    const league = await upsertLeague(deps, caller, { name: 'Webhooks' })
    await createWebhook(deps, caller, { url: `${receiver.origin}/hook`, events: ['game.created'] })
    const importEvents = async (prefix, n) => {
      for (let start = 0; start < n; start += 500) {
        const games = Array.from({ length: Math.min(500, n - start) }, (_, i) =>
          gameItem(`${prefix}-${start + i}`, start + i),
        )
        await upsertGames(deps, caller, league.id, { games })
      }
    }
    const post = async ({ body, headers }) => {
      const res = await pool.request({ path: '/hook', method: 'POST', headers, body })
      await res.body.dump()
      if (res.statusCode !== 204) throw new Error(`raw POST: ${res.statusCode}`)
    }

    const rates = []
    const rawRates = []
    // A dispatcher reaches its steady pace only after some thousands of deliveries (JIT): two full
    // warm-up rounds, so the measured ones compare steady states.
    for (let r = -WARM_UP_ROUNDS; r < rounds; r++) {
      const n = eventsPerRound
      receiver.reset()
      receiver.state.capture = true
      await importEvents(`tp-${r}`, n)
      const started = performance.now()
      const dispatcher = dispatch()
      await receiver.until(n)
      const seconds = (performance.now() - started) / 1000
      await dispatcher.stop()
      receiver.state.capture = false
      const captured = receiver.state.captured
      receiver.reset()
      const rawStarted = performance.now()
      await Promise.all(captured.map(post))
      const rawSeconds = (performance.now() - rawStarted) / 1000
      if (r < 0) continue // warm-up
      rates.push(n / seconds)
      rawRates.push(n / rawSeconds)
    }

    // Latency: the dispatcher running, one event at a time on an otherwise idle system.
    receiver.reset()
    receiver.state.track = true
    const dispatcher = dispatch()
    const p50s = []
    const p99s = []
    const rawP50s = []
    const rawP99s = []
    for (let r = -1; r < rounds; r++) {
      const latencies = []
      const rawLatencies = []
      receiver.reset()
      receiver.state.capture = true
      for (let i = 0; i < latencySamples; i++) {
        const id = `lat-${r}-${i}`
        const before = receiver.state.count
        await upsertGames(deps, caller, league.id, { games: [gameItem(id, i)] })
        const committed = performance.now()
        await receiver.until(before + 1)
        latencies.push(receiver.state.arrivals.get(id) - committed)
      }
      receiver.state.capture = false
      for (const one of receiver.state.captured) {
        const before = receiver.state.count
        const start = performance.now()
        await post(one)
        await receiver.until(before + 1)
        rawLatencies.push(performance.now() - start)
      }
      if (r < 0) continue
      p50s.push(quantile(latencies, 0.5))
      p99s.push(quantile(latencies, 0.99))
      rawP50s.push(quantile(rawLatencies, 0.5))
      rawP99s.push(quantile(rawLatencies, 0.99))
    }
    await dispatcher.stop()

    return [
      entry({
        name: 'webhooks',
        metric: 'deliveries_per_s',
        value: summary(rates),
        baseline: summary(rawRates),
        // Issue 27 (issue 5: 0.3x).
        target: '>= 0.5',
        check: (ratio) => ratio >= 0.5,
        unit: '/s',
      }),
      entry({
        name: 'webhooks',
        metric: 'commit_to_receipt_p50_ms',
        value: summary(p50s),
        baseline: summary(rawP50s),
        target: 'p50 <= 50 ms',
        check: (_, value) => value <= 50,
        unit: 'ms',
      }),
      entry({
        name: 'webhooks',
        metric: 'commit_to_receipt_p99_ms',
        value: summary(p99s),
        baseline: summary(rawP99s),
        unit: 'ms',
      }),
    ]
  } finally {
    for (const dispatcher of running) await dispatcher.stop()
    await pool.close()
    await receiver.close()
    await service.close()
  }
}
