// Hostile input on every REST operation, driven by the OpenAPI document: whatever arrives, the answer is
// a documented status with exactly {"error":"<catalogued code>"} (or success), never a 5xx.
import { describe, expect, it } from 'vitest'
import { isErrorCode } from '../../src/domain/core/errors.js'
import { useTestApp, type Partner } from '../helpers/app.js'

type Operation = {
  operationId: string
  responses: Record<string, unknown>
  requestBody?: { content: { 'application/json': { schema: { properties?: Record<string, unknown> } } } }
}

const WRONG_VALUES: unknown[] = [
  42,
  -1.5,
  true,
  null,
  [],
  [1, 'x'],
  { nested: { deep: 1 } },
  'x'.repeat(100_000),
  '🏟️\u0000\u202e',
]
const RAW_BODIES = [
  '{"a":',
  '[]',
  'null',
  '"text"',
  '12',
  '{"__proto__":{"polluted":1},"constructor":{"prototype":{"x":1}}}',
]

function expectContract(op: Operation, res: { statusCode: number; body: string }): void {
  expect(res.statusCode, `${op.operationId} → ${res.statusCode} ${res.body.slice(0, 200)}`).toBeLessThan(500)
  const status = String(res.statusCode)
  if (res.statusCode >= 400) {
    expect(Object.keys(op.responses), `${op.operationId} documents ${status}`).toContain(status)
    const body = JSON.parse(res.body) as Record<string, unknown>
    expect(Object.keys(body)).toEqual(['error'])
    const code = String(body.error).split(':')[0]!
    expect(isErrorCode(code), `${op.operationId}: ${String(body.error)}`).toBe(true)
  }
}

describe('every operation under hostile input', () => {
  const t = useTestApp()

  async function world(p: Partner) {
    const league = (await p.post('/leagues', { name: 'Fuzz' })).body.data
    const game = (
      await p.post(`/leagues/${league.id}/games`, { games: [{ startsAt: '2026-05-01T10:00:00Z' }] })
    ).body.data.created[0]
    const official = (await p.post(`/leagues/${league.id}/officials`, { externalId: 'ref' })).body.data
    const webhook = (await p.post('/webhooks', { url: 'https://hooks.example.com/x' })).body.data
    return { leagueId: league.id, gameId: game.id, userId: official.userId, webhookId: webhook.id }
  }

  it('answers every operation with a documented status and a catalogued error code', async () => {
    const p = await t.partner()
    const ids: Record<string, string> = await world(p)
    const doc = (await t.app.inject({ url: '/api/v1/openapi.json' })).json()
    let requests = 0
    for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, Operation>>)) {
      for (const [method, op] of Object.entries(methods)) {
        for (const idSet of [ids, Object.fromEntries(Object.keys(ids).map((k) => [k, 'no-such-id']))]) {
          const url = path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(idSet[name] ?? 'x'))
          const send = async (payload?: string, query = '') => {
            requests++
            const res = await t.app.inject({
              method: method.toUpperCase() as 'GET',
              url: `${url}${query}`,
              headers: {
                authorization: `Bearer ${p.key}`,
                ...(payload !== undefined && { 'content-type': 'application/json' }),
              },
              ...(payload !== undefined && { payload }),
            })
            expectContract(op, { statusCode: res.statusCode, body: res.body })
          }
          await send(undefined, '?limit=abc&positionId[]=1')
          if (method === 'get') continue
          for (const raw of RAW_BODIES) await send(raw)
          const fields = Object.keys(op.requestBody?.content['application/json'].schema.properties ?? {})
          for (const field of fields) {
            for (const value of WRONG_VALUES) await send(JSON.stringify({ [field]: value }))
          }
        }
      }
    }
    expect(requests).toBeGreaterThan(500)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })
})
