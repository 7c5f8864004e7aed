// An operation invoked in process (how MCP tools run REST) answers exactly what its route answers over
// HTTP for the same key and the same input: status and body, successes, validation errors in Fastify's
// order (params, body, query), unknown ids and faults.
import { describe, expect, it } from 'vitest'
import { authenticate } from '../../src/domain/partners/api-keys.js'
import { invokeOperation, type Operation } from '../../src/operations/operation.js'
import { getGameOperation } from '../../src/operations/games.js'
import { OPERATIONS } from '../../src/operations/index.js'
import { restPath } from '../../src/mcp/forward.js'
import { useTestApp } from '../helpers/app.js'

const BODIES: unknown[] = [
  {},
  { name: 'Renamed', sport: 'hockey', externalId: 'ext-1', url: 'https://x.example/h', games: [{}] },
  { name: 42, games: 'many', url: 'http://plain.example', events: ['nope'], status: 'open', userId: 7 },
  { games: [{ startsAt: '2026-07-01T00:00:00Z', externalId: 'p-1' }, { startsAt: 'never' }] },
  { source: 'someone-else', externalId: '' },
  { userId: 'no-such-user', positionId: 'no-such-position' },
]

describe('operations invoked in process', () => {
  const t = useTestApp()

  it('is every REST operation but the index, each once', () => {
    expect(new Set(OPERATIONS.map((o) => o.operationId)).size).toBe(20)
    expect(new Set(OPERATIONS.map((o) => `${o.method} ${o.path}`)).size).toBe(20)
  })

  // Two partners build the same world; each call goes over HTTP in one and in process in the other, in
  // the same order, so writes leave both in the same state. Answers match once the ids, times, secrets and
  // sources that differ between the worlds are named alike.
  async function world() {
    const p = await t.partner()
    const caller = (await authenticate(t.deps, `Bearer ${p.key}`))!
    const league = (await p.post('/leagues', { name: 'Parity' })).body.data
    const game = (
      await p.post(`/leagues/${league.id}/games`, { games: [{ startsAt: '2026-05-01T10:00:00Z' }] })
    ).body.data.created[0]
    const official = (await p.post(`/leagues/${league.id}/officials`, { externalId: 'ref' })).body.data
    const webhook = (await p.post('/webhooks', { url: 'https://hooks.example.com/x' })).body.data
    const ids: Record<string, string> = {
      leagueId: league.id,
      gameId: game.id,
      userId: official.userId,
      webhookId: webhook.id,
      positionId: game.positions[0].id,
    }
    return { p, caller, ids }
  }

  const normalized = (body: unknown, source: string) =>
    JSON.parse(
      JSON.stringify(body)
        .replaceAll(source, 'SOURCE')
        .replace(/(?<![a-z0-9])[a-z][a-z0-9]{23}(?![a-z0-9])/g, 'ID')
        .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g, 'TIME')
        .replace(/sec_[0-9a-f]{48}/g, 'SECRET'),
    )

  it('answer what the route answers over HTTP, for every operation and input', async () => {
    const [a, b] = [await world(), await world()]
    const unknown = Object.fromEntries(Object.keys(a.ids).map((k) => [k, 'no such/id?']))
    let compared = 0
    for (const operation of OPERATIONS) {
      for (const known of [true, false]) {
        const ids = (w: typeof a) => (known ? w.ids : unknown)
        const inputs = (w: typeof a) => ({
          params: Object.fromEntries(Object.keys(operation.params?.shape ?? {}).map((k) => [k, ids(w)[k]!])),
          queries: [
            {},
            { limit: '3', positionId: ids(w).positionId! },
            { limit: 'x', positionId: '' },
          ] as Record<string, string>[],
        })
        const [ia, ib] = [inputs(a), inputs(b)]
        for (const [q, query] of ia.queries.entries()) {
          for (const body of operation.body ? BODIES : [undefined]) {
            const call = { operation, params: ia.params, query, body }
            const viaHttp = await t.app.inject({
              method: operation.method,
              url: `/api/v1${restPath(call)}`,
              headers: { authorization: `Bearer ${a.p.key}` },
              ...(body !== undefined && { payload: body as object }),
            })
            const input = { params: ib.params, query: ib.queries[q]!, body }
            const inProcess = await invokeOperation(operation, t.deps, b.caller, input, t.app.log)
            expect(
              { status: inProcess.status, body: normalized(inProcess.body, b.p.source) },
              `${operation.operationId} ${JSON.stringify(input)}`,
            ).toEqual({ status: viaHttp.statusCode, body: normalized(viaHttp.json(), a.p.source) })
            compared++
          }
        }
      }
    }
    expect(compared).toBeGreaterThan(200)
  })

  it('answers a fault as REST does: a logged plain 500', async () => {
    const p = await t.partner()
    const caller = (await authenticate(t.deps, `Bearer ${p.key}`))!
    const logged: unknown[] = []
    const log = { ...t.app.log, error: (entry: unknown) => void logged.push(entry) } as typeof t.app.log
    const broken = {
      ...getGameOperation,
      handle: async () => {
        throw new Error('database gone')
      },
    } as Operation
    const answer = await invokeOperation(
      broken,
      t.deps,
      caller,
      { params: { gameId: 'x' }, query: {}, body: undefined },
      log,
    )
    expect(answer).toEqual({ status: 500, body: { error: 'internal_error' } })
    expect(logged).toHaveLength(1)
  })
})
