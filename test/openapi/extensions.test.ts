// RefDesk's additive operations are marked as extensions in the document (and said so in their
// descriptions), get no MCP tool but the assignor's three (DESIGN), and extend the deliveries listing without changing what `data` is.
import { beforeAll, describe, expect, it } from 'vitest'
import { TOOL_LIST, TOOLS } from '../../src/mcp/server.js'
import { EXTENSION_OPERATIONS, OPERATIONS } from '../../src/operations/index.js'
import { fetchDocument, operationsOf } from './helpers.js'

/** The fields beyond the spec's model in the spec's own shapes and operations, where each sits. */
const EXTENSION_FIELDS = [
  'League.timeZone',
  'League.gameMinutes',
  'League.travelBufferMinutes',
  'League.maxGamesPerDay',
  'League.conflictPolicy',
  ...['LeagueListItem', 'LeagueDetail', 'upsertLeague body', 'updateLeague body'].flatMap((at) =>
    ['timeZone', 'gameMinutes', 'travelBufferMinutes', 'maxGamesPerDay', 'conflictPolicy'].map(
      (field) => `${at}.${field}`,
    ),
  ),
  ...['GameSummary', 'Game', 'GameDetail'].flatMap((at) => [`${at}.durationMinutes`, `${at}.endsAt`]),
  'Position.minLevel',
  'PositionDetail.minLevel',
  'Official.level',
  'Official.confirmed',
  'WebhookEndpoint.disabled',
  'WebhookEndpoint.disabledAt',
  'CreatedWebhookEndpoint.disabled',
  'CreatedWebhookEndpoint.disabledAt',
  'upsertGames body.games[].durationMinutes',
  'upsertGames body.games[].positions',
  'upsertGames body.games[].venue',
  'Game.venue',
  'GameDetail.venue',
  'GameSummary.venue',
  'UnfilledReason.count',
  'UnfilledReason.userIds',
  'PlanProposal.game',
  'updateGame body.durationMinutes',
  'upsertOfficial body.level',
  'upsertGames header.idempotency-key',
  'assignPosition header.idempotency-key',
  'createWebhook header.idempotency-key',
  'listWebhookDeliveries query.cursor',
  'listWebhookDeliveries query.status',
]

/** Every field of the document's schemas, request bodies and parameters outside extension operations. */
function fieldsOf(doc: any): { where: string; schema: any }[] {
  const found: { where: string; schema: any }[] = []
  const walk = (node: any, where: string): void => {
    if (node === null || typeof node !== 'object') return
    for (const [name, child] of Object.entries<any>(node.properties ?? {})) {
      found.push({ where: `${where}.${name}`, schema: child })
      walk(child, `${where}.${name}`)
    }
    if (node.items) walk(node.items, `${where}[]`)
    for (const branch of [...(node.anyOf ?? []), ...(node.oneOf ?? [])]) walk(branch, where)
  }
  for (const [name, schema] of Object.entries<any>(doc.components.schemas)) walk(schema, name)
  for (const { where, op } of operationsOf(doc)) {
    if (op['x-refdesk-extension'] || where.startsWith('webhook ')) continue
    walk(op.requestBody?.content?.['application/json']?.schema, `${op.operationId} body`)
    for (const p of op.parameters ?? [])
      found.push({ where: `${op.operationId} ${p.in}.${p.name}`, schema: { ...p.schema, ...p } })
  }
  return found
}

const EXTENSIONS = [
  'testWebhook',
  'retryWebhookDelivery',
  'recoverWebhook',
  'enableWebhook',
  'addPosition',
  'removePosition',
  'getOfficialAvailability',
  'listCandidates',
  'createAssignmentPlan',
  'getAssignmentPlan',
  'editAssignmentPlan',
  'publishAssignmentPlan',
]

describe('RefDesk extensions', () => {
  let doc: any
  beforeAll(async () => {
    doc = await fetchDocument()
  })

  it('are marked x-refdesk-extension and described as extensions; the spec’s operations are not', () => {
    const marked = operationsOf(doc).filter(({ op }) => op['x-refdesk-extension'] === true)
    const operations = marked.filter(({ where }) => !where.startsWith('webhook '))
    expect(operations.map(({ op }) => op.operationId).sort()).toEqual([...EXTENSIONS].sort())
    // The one event beyond the spec's 12 is marked the same way.
    expect(marked.filter(({ where }) => where.startsWith('webhook ')).map(({ where }) => where)).toEqual([
      'webhook position.withdrawn',
    ])
    for (const { op } of marked) expect(op.description).toMatch(/^\*\*RefDesk extension\*\*/)
    expect(EXTENSION_OPERATIONS.map((o) => o.operationId).sort()).toEqual([...EXTENSIONS].sort())
    expect(EXTENSION_OPERATIONS.every((o) => o.extension === true)).toBe(true)
    expect(OPERATIONS.some((o) => o.extension)).toBe(false)
  })

  it('mark each field beyond the spec x-refdesk-extension, in responses, bodies and parameters alike', () => {
    const fields = fieldsOf(doc)
    const marked = fields.filter(({ schema }) => schema['x-refdesk-extension'] === true)
    expect(marked.map(({ where }) => where).sort()).toEqual([...EXTENSION_FIELDS].sort())
    // A field whose description calls it an extension is marked as one.
    const said = fields.filter(({ schema }) => /extension/i.test(schema.description ?? ''))
    expect(
      said.filter(({ schema }) => schema['x-refdesk-extension'] !== true).map(({ where }) => where),
    ).toEqual([])
  })

  it('have no MCP tool but the assignor’s four: the server keeps the spec’s 20 and adds those', () => {
    expect(TOOL_LIST).toHaveLength(24)
    expect(
      TOOLS.filter((spec) => EXTENSION_OPERATIONS.includes(spec.operation)).map(
        (spec) => spec.operation.operationId,
      ),
    ).toEqual(['listCandidates', 'createAssignmentPlan', 'getAssignmentPlan', 'publishAssignmentPlan'])
  })

  it('list their error codes, and the deliveries listing answers `{data}`, its next page in a Link header', () => {
    const retry = doc.paths['/api/v1/webhooks/{webhookId}/deliveries/{deliveryId}/retry'].post
    expect(Object.keys(retry.responses).sort()).toEqual(['202', '401', '404', '409', '429'])
    expect(retry.responses['404'].content['application/json'].schema.properties.error.enum).toEqual([
      'endpoint_not_found',
      'delivery_not_found',
      'not_found',
    ])
    const list = doc.paths['/api/v1/webhooks/{webhookId}/deliveries'].get
    const body = list.responses['200'].content['application/json'].schema
    expect(body.properties.data.type).toBe('array')
    // The spec's envelope never changes within v1: the next page's address is a Link header.
    expect(Object.keys(body.properties)).toEqual(['data'])
    expect(list.responses['200'].headers.Link.description).toContain('rel="next"')
    expect(list.parameters.map((p: any) => p.name)).toEqual(
      expect.arrayContaining(['limit', 'cursor', 'status']),
    )
    expect(list['x-refdesk-extension']).toBeUndefined()
  })
})
