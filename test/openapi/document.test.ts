import { beforeAll, describe, expect, it } from 'vitest'
import { EVENT_NAMES } from '../../src/schemas/events.js'
import { useTestApp } from '../helpers/app.js'
import { PUBLIC_URL, fetchDocument, operationsOf } from './helpers.js'

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

  it('documents every operation with an operationId, a summary, 401, 429 and its error codes', async () => {
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
      expect(JSON.stringify(op.responses['429']), op.operationId).toContain('rate_limited')
      expect(op.responses['429'], op.operationId).toHaveProperty(['headers', 'Retry-After'])
    }
    const upsertLeague = operations.find((o) => o.operationId === 'upsertLeague')!
    expect(Object.keys(upsertLeague.responses).sort()).toEqual(['201', '400', '401', '429'])
    expect(JSON.stringify(upsertLeague.responses['400'])).toContain('source_mismatch')
  })

  it('is generated from the validation schemas (request bodies carry their fields)', async () => {
    const doc = (await t.app.inject({ url: '/api/v1/openapi.json' })).json()
    const body = doc.paths['/api/v1/leagues'].post.requestBody.content['application/json'].schema
    expect(Object.keys(body.properties)).toEqual([
      'name',
      'paymentMode',
      'currency',
      'source',
      'externalId',
      'timeZone',
      'gameMinutes',
      'travelBufferMinutes',
      'maxGamesPerDay',
      'conflictPolicy',
    ])
    expect(body.required).toEqual(['name'])
  })
})

describe('the OpenAPI document as a partner reads it', () => {
  let doc: any
  beforeAll(async () => {
    doc = await fetchDocument()
  })

  it('names this server by its public URL', () => {
    expect(doc.servers).toEqual([expect.objectContaining({ url: PUBLIC_URL })])
    expect(doc.info.license).toEqual({ name: 'Apache-2.0', identifier: 'Apache-2.0' })
  })

  it('says assign without positionId takes the first open position the official qualifies for', () => {
    const assign = doc.paths['/api/v1/games/{gameId}/assign'].post
    const { positionId } = assign.requestBody.content['application/json'].schema.properties
    expect(positionId.description).toMatch(/^Default: the first open position the official qualifies for/)
    expect(positionId.description).toContain('level_too_low')
    expect(assign.summary).toContain('the first open one they qualify for')
  })

  it('describes every operation and every response, and every tag it uses', () => {
    const tags = new Set(doc.tags.map((t: any) => t.name))
    for (const { where, op } of operationsOf(doc)) {
      expect(op.description, where).toBeTruthy()
      for (const tag of op.tags) expect(tags.has(tag), `${where} ${tag}`).toBe(true)
      for (const [status, response] of Object.entries<any>(op.responses)) {
        expect(response.description, `${where} ${status}`).toBeTruthy()
        expect(response.description, `${where} ${status}`).not.toBe('Default Response')
      }
    }
    for (const tag of doc.tags) expect(tag.description, tag.name).toBeTruthy()
  })

  it("enumerates each error response's codes", () => {
    const assign = doc.paths['/api/v1/games/{gameId}/assign'].post
    const codes = (status: string) =>
      assign.responses[status].content['application/json'].schema.properties.error
    expect(codes('404').enum).toEqual([
      'game_not_found',
      'official_not_found',
      'position_not_found',
      'not_found',
    ])
    expect(codes('401').enum).toEqual(['unauthorized'])
    expect(codes('409').enum).toContain('idempotency_key_in_use')
    // A suffixed code is a pattern beside the enum of the others.
    const batch =
      doc.paths['/api/v1/leagues/{leagueId}/games'].post.responses['400'].content['application/json']
    expect(batch.schema.properties.error.anyOf).toEqual([
      { type: 'string', enum: expect.arrayContaining(['no_games', 'too_many_games']) },
      { type: 'string', pattern: '^(invalid_startsAt):' },
    ])
  })

  it('keeps one component per shared shape: no *Input twins, nothing unused', () => {
    const names = Object.keys(doc.components.schemas)
    expect(names.filter((n) => n.endsWith('Input'))).toEqual([])
    const text = JSON.stringify({ paths: doc.paths, webhooks: doc.webhooks, components: doc.components })
    for (const name of names) expect(text, name).toContain(`"#/components/schemas/${name}"`)
  })

  it('documents each event with its envelope, data and signature headers', () => {
    expect(Object.keys(doc.webhooks)).toEqual([...EVENT_NAMES])
    for (const event of EVENT_NAMES) {
      const post = doc.webhooks[event].post
      expect(post.parameters.map((p: any) => p.name)).toEqual([
        'webhook-id',
        'webhook-timestamp',
        'webhook-signature',
      ])
      const ref = post.requestBody.content['application/json'].schema.$ref.split('/').pop()
      const envelope = doc.components.schemas[ref]
      expect(Object.keys(envelope.properties)).toEqual(['id', 'event', 'createdAt', 'data'])
      expect(envelope.properties.event.const).toBe(event)
    }
  })

  it('marks position.withdrawn, and only it, as an extension event with the PositionEventData data', () => {
    const marked = EVENT_NAMES.filter((event) => doc.webhooks[event].post['x-refdesk-extension'] === true)
    expect(marked).toEqual(['position.withdrawn'])
    const post = doc.webhooks['position.withdrawn'].post
    expect(post.description).toMatch(/^\*\*RefDesk extension\*\*.*empty `events` list receives it/)
    const ref = post.requestBody.content['application/json'].schema.$ref.split('/').pop()
    expect(doc.components.schemas[ref].properties.data.$ref).toBe('#/components/schemas/PositionEventData')
  })

  it('offers Idempotency-Key on exactly the three POSTs the spec calls non-idempotent', () => {
    const withKey = operationsOf(doc)
      .filter(({ op }) => op.parameters?.some((p: any) => p.name === 'idempotency-key'))
      .map(({ op }) => op.operationId)
    expect(withKey.sort()).toEqual(['assignPosition', 'createWebhook', 'upsertGames'])
  })
})
