import { describe, expect, it } from 'vitest'
import { useTestApp } from '../helpers/app.js'

const OPERATIONS = [
  'getIndex',
  'listLeagues',
  'upsertLeague',
  'getLeague',
  'updateLeague',
  'listGames',
  'upsertGames',
  'getGame',
  'updateGame',
  'cancelGame',
  'listOfficials',
  'upsertOfficial',
  'removeOfficial',
  'listAssignments',
  'assignPosition',
  'unassignPosition',
  'listPayments',
  'listWebhooks',
  'createWebhook',
  'deleteWebhook',
  'listWebhookDeliveries',
]

type Operation = { operationId?: string; summary?: string; responses: Record<string, unknown> }

describe('GET /api/v1/openapi.json', () => {
  const t = useTestApp()

  it('is served without a key as OpenAPI 3.1 with bearer security', async () => {
    const res = await t.app.inject({ url: '/api/v1/openapi.json' })
    expect(res.statusCode).toBe(200)
    const doc = res.json()
    expect(doc.openapi).toBe('3.1.0')
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' })
  })

  it('documents every operation with an operationId, a summary, 401 and its error codes', async () => {
    const doc = (await t.app.inject({ url: '/api/v1/openapi.json' })).json()
    const operations: Operation[] = Object.values(
      doc.paths as Record<string, Record<string, Operation>>,
    ).flatMap((methods) => Object.values(methods))
    expect(operations.map((o) => o.operationId).sort()).toEqual(
      expect.arrayContaining([...OPERATIONS].sort()),
    )
    for (const op of operations) {
      expect(op.summary, op.operationId).toBeTruthy()
      expect(Object.keys(op.responses), op.operationId).toContain('401')
    }
    const upsertLeague = operations.find((o) => o.operationId === 'upsertLeague')!
    expect(Object.keys(upsertLeague.responses).sort()).toEqual(['201', '400', '401'])
    expect(JSON.stringify(upsertLeague.responses['400'])).toContain('source_mismatch')
  })

  it('is generated from the validation schemas (request bodies carry their fields)', async () => {
    const doc = (await t.app.inject({ url: '/api/v1/openapi.json' })).json()
    const body = doc.paths['/api/v1/leagues'].post.requestBody.content['application/json'].schema
    expect(Object.keys(body.properties)).toEqual(['name', 'paymentMode', 'currency', 'source', 'externalId'])
    expect(body.required).toEqual(['name'])
  })
})
