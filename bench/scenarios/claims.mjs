// claim storm: 50 concurrent assigns (50 different officials) on one open position, round after round:
// per-request p50/p99 and the correctness figure (exactly one winner in every round). Baseline: the same
// storm against a bare route claiming the position through the raw driver (conditional update + insert).
import { randomUUID } from 'node:crypto'
import Fastify from 'fastify'
import { importGames, rawDriver, startService } from '../lib/setup.mjs'
import { entry, quantile, summary } from '../lib/stats.mjs'

const STORM = 50
const BLOCKS = 5

async function startRawClaimServer(raw) {
  const app = Fastify({ logger: false })
  app.post('/positions/:id/claim', async (request, reply) => {
    const at = new Date().toISOString()
    const won = await raw.transaction(async (exec) => {
      const [row] = await exec(
        `update positions set status = 'claimed', updated_at = $1 where id = $2 and status = 'open' returning id`,
        [at, request.params.id],
      )
      if (!row) return false
      await exec(
        `insert into claims (id, position_id, user_id, status, created_at) values ($1, $2, $3, 'confirmed', $4)`,
        [randomUUID(), row.id, request.body.userId, at],
      )
      return true
    })
    return won ? { data: { claimed: true } } : reply.code(409).send({ error: 'position_taken' })
  })
  await app.listen({ port: 0, host: '127.0.0.1' })
  return { origin: `http://127.0.0.1:${app.server.address().port}`, close: () => app.close() }
}

async function storm(send) {
  const results = await Promise.all(
    Array.from({ length: STORM }, async (_, i) => {
      const start = process.hrtime.bigint()
      const res = await send(i)
      const body = await res.json()
      return { ms: Number(process.hrtime.bigint() - start) / 1e6, status: res.status, body }
    }),
  )
  const winners = results.filter((r) => r.status === 200).length
  const strays = results.filter((r) => r.status !== 200 && r.status !== 409)
  if (strays.length) throw new Error(`claim storm: unexpected ${JSON.stringify(strays[0])}`)
  return { latencies: results.map((r) => r.ms), exactlyOne: winners === 1 }
}

export async function claimsScenario({ databaseUrl, rounds }) {
  const service = await startService(databaseUrl, 'claims')
  const raw = rawDriver(service.database.url)
  const rawServer = await startRawClaimServer(raw)
  try {
    const { api, authorization } = service
    const league = await api.ok('POST', '/leagues', { name: 'Claims' })
    const officials = []
    for (let i = 0; i < STORM; i++) {
      officials.push(await api.ok('POST', `/leagues/${league.id}/officials`, { externalId: `off-${i}` }))
    }
    const games = await importGames(api, league.id, rounds + 1, 'claims')
    const rawGames = await importGames(api, league.id, rounds + 1, 'claims-raw')
    const positionOf = async (gameId) => (await api.ok('GET', `/games/${gameId}`)).positions[0].id
    const headers = { authorization, 'content-type': 'application/json' }
    const assign = (gameId) => (i) =>
      fetch(`${api.base}/games/${gameId}/assign`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ userId: officials[i].userId }),
      })
    const rawClaim = (positionId) => (i) =>
      fetch(`${rawServer.origin}/positions/${positionId}/claim`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ userId: officials[i].userId }),
      })
    const service_ = []
    const baseline = []
    for (let r = 0; r <= rounds; r++) {
      const a = await storm(assign(games[r]))
      const b = await storm(rawClaim(await positionOf(rawGames[r])))
      if (r === 0) continue // warm-up
      service_.push(a)
      baseline.push(b)
    }
    const per = Math.ceil(rounds / BLOCKS)
    const blocks = (storms, q) =>
      Array.from({ length: BLOCKS }, (_, b) =>
        quantile(
          storms.slice(b * per, (b + 1) * per).flatMap((s) => s.latencies),
          q,
        ),
      ).filter((v) => v !== undefined)
    const correct = (storms) => {
      const perBlock = Array.from({ length: BLOCKS }, (_, b) => storms.slice(b * per, (b + 1) * per))
      return summary(
        perBlock.filter((s) => s.length).map((s) => s.filter((x) => x.exactlyOne).length / s.length),
      )
    }
    return [
      entry({
        name: 'claims',
        metric: 'p50_ms',
        value: summary(blocks(service_, 0.5)),
        baseline: summary(blocks(baseline, 0.5)),
        unit: 'ms',
      }),
      entry({
        name: 'claims',
        metric: 'p99_ms',
        value: summary(blocks(service_, 0.99)),
        baseline: summary(blocks(baseline, 0.99)),
        unit: 'ms',
      }),
      entry({
        name: 'claims',
        metric: 'exactly_one_winner',
        value: correct(service_),
        baseline: correct(baseline),
        target: '= 1.0 (every round)',
        check: (_, value) => value === 1 && service_.every((s) => s.exactlyOne),
      }),
    ]
  } finally {
    await rawServer.close()
    await raw.close()
    await service.close()
  }
}
