// What @fastify/swagger leaves to finish in the document: examples on every operation, a description on
// every operation, one component per shared shape (no unused `*Input` twins), and the `webhooks` section
// (the events, their envelopes and the signature headers).
import { z } from 'zod'
import { EVENT_ENVELOPES, EVENT_NAMES, type EventName } from '../schemas/events.js'
import type { Operation } from '../operations/operation.js'
import { COMPONENT_EXAMPLES, ID_EXAMPLES, exampleOf } from './openapi-examples.js'

type Schema = Record<string, unknown>

interface Media {
  schema: Schema
  example?: unknown
}

interface OperationObject {
  'x-refdesk-extension'?: true
  operationId?: string
  summary?: string
  description?: string
  parameters?: { name: string; schema: Schema; example?: unknown }[]
  requestBody?: { content?: Record<string, Media> }
  responses: Record<string, { content?: Record<string, Media>; headers?: Record<string, unknown> }>
}

const RETRY_AFTER = {
  description: 'Seconds to wait before the key has a request to spend again.',
  schema: { type: 'integer', minimum: 1 },
  example: 1,
}

/** The parts of the document this pass reads or writes. */
export interface Document {
  paths: Record<string, Record<string, OperationObject>>
  components: { schemas: Record<string, Schema> }
  webhooks?: Record<string, unknown>
}

const TAG_DESCRIPTIONS: Record<string, string> = {
  index: 'The authenticated smoke test: what this server offers.',
  leagues: 'Leagues of your source (and leagues granted to your key), upserted on (source, externalId).',
  games:
    'Games of a league, batch-imported with one position each or a crew (`positions`, an extension), upserted on (source, externalId).',
  officials: 'League officials: memberships with role official, upserted on (source, externalId).',
  assignments: 'Who works which position: race-safe assignment and release.',
  payments: 'The read-only payout ledger, one payment per worked position.',
  webhooks: 'Signed event deliveries to your HTTPS endpoints (Standard Webhooks).',
}

export function tagsOf(operations: readonly Operation[]): { name: string; description: string }[] {
  const names = new Set(['index', ...operations.flatMap((operation) => operation.tags), 'webhooks'])
  return [...names].map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? `${name} operations.` }))
}

export function refineDocument(doc: Document, operations: readonly Operation[]): Document {
  const schemas = doc.components.schemas
  for (const [name, schema] of Object.entries(schemas)) {
    // `$id: "#/components/schemas/X"` is no base URI: a resolver would read the component's own refs
    // relative to it and fail.
    delete schema.$id
    delete schema.$schema
    if (COMPONENT_EXAMPLES[name] !== undefined) schema.examples = [COMPONENT_EXAMPLES[name]]
  }
  // The index is `GET /` under the base: Fastify serves it with and without the slash, and the document
  // names it without, as clients join paths to a base.
  doc.paths = Object.fromEntries(
    Object.entries(doc.paths).map(([path, item]) => [path.length > 1 ? path.replace(/\/$/, '') : path, item]),
  )
  const byId = new Map(operations.map((operation) => [operation.operationId, operation]))
  for (const item of Object.values(doc.paths)) {
    for (const op of Object.values(item)) completeOperation(op, byId.get(op.operationId ?? ''), schemas)
  }
  doc.webhooks = webhooksSection(schemas)
  pruneUnusedComponents(doc)
  return doc
}

function completeOperation(
  op: OperationObject,
  operation: Operation | undefined,
  schemas: Record<string, Schema>,
): void {
  op.description ??= op.summary
  if (operation?.extension) {
    op['x-refdesk-extension'] = true
    op.description = `${EXTENSION_NOTE} ${op.description}`
  }
  for (const parameter of op.parameters ?? []) {
    parameter.example ??= ID_EXAMPLES[parameter.name] ?? exampleOf(parameter.schema, schemas)
  }
  const body = op.requestBody?.content?.['application/json']
  if (body) body.example ??= operation?.requestExample ?? exampleOf(body.schema, schemas)
  for (const response of Object.values(op.responses)) {
    const media = response.content?.['application/json']
    if (media) media.example ??= exampleOf(media.schema, schemas)
  }
  const limited = op.responses['429']
  if (limited) limited.headers = { ...limited.headers, 'Retry-After': RETRY_AFTER }
  const ok = op.responses['200']
  if (operation?.paged && ok) ok.headers = { ...ok.headers, Link: NEXT_LINK }
}

const NEXT_LINK = {
  description:
    'RefDesk extension. `<…>; rel="next"`: the next (older) page, this request with its `cursor` set (a reference relative to the request URL). Absent on the last page.',
  schema: { type: 'string' },
  example:
    '</api/v1/webhooks/tz4a98xxat96iws9zmbrgj3a/deliveries?limit=50&cursor=WyIyMDI2LTA0LTIxVDEyOjAwOjAwLjAwMFoiLDQyXQ>; rel="next"',
}

const EXTENSION_NOTE =
  '**RefDesk extension** (`x-refdesk-extension: true`): an additive operation beyond the Partner API v1 spec (only the assignor’s have MCP tools).'

const EMITTED_BY: Record<EventName, string> = {
  'game.created': 'POST /leagues/{leagueId}/games, once per persisted game, upsert-updates included.',
  'game.updated':
    'PATCH /games/{gameId}, when the patch changes something; a crew change (add or remove a position); and, for each game without its own length, a change of its league’s gameMinutes (its endsAt moved).',
  'game.cancelled': 'DELETE /games/{gameId}.',
  'game.completed': 'In-app completion by the organizer.',
  'position.claimed': 'POST /games/{gameId}/assign, and in-app claims.',
  'position.released': 'DELETE /games/{gameId}/assign.',
  'position.withdrawn':
    'an official’s withdrawal in the app (and `refdesk app withdraw`): the claim is deleted, the position open again.',
  'official.joined': 'POST /leagues/{leagueId}/officials, for a new membership.',
  'official.approved': 'POST /leagues/{leagueId}/officials, for an existing membership.',
  'official.removed': 'DELETE /leagues/{leagueId}/officials/{userId}.',
  'official.no_show': 'The organizer’s in-app no-show action (the slot is cancelled unpaid, the claim kept).',
  'payment.paid': 'A payment reaching paid.',
  'payment.failed': 'A payment reaching failed.',
}

const SIGNATURE_HEADERS = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: 'The event id (the envelope’s `id`): the same on every retry. Deduplicate on it.',
    schema: { type: 'string' },
    example: 'evt_ed4k5jo9bmow1j86y9ehco9u',
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'Unix seconds of this attempt. Refuse timestamps more than a few minutes from your clock.',
    schema: { type: 'string', pattern: '^[0-9]+$' },
    example: '1778263200',
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      '`v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{raw body}`, keyed with the UTF-8 bytes of the whole endpoint secret (`sec_…`). Space-separated when there are several; one valid `v1` entry is enough.',
    schema: { type: 'string' },
    example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  },
]

/** Events beyond the spec's 12 (v1 may add event names); endpoints with an empty `events` list receive them. */
const EXTENSION_EVENTS: ReadonlySet<EventName> = new Set(['position.withdrawn'])

const EXTENSION_EVENT_NOTE =
  '**RefDesk extension** (`x-refdesk-extension: true`): an event beyond the Partner API v1 spec’s 12; an endpoint with an empty `events` list receives it, as it receives every event.'

/** One `post` per event: the Standard Webhooks delivery your endpoint receives. */
function webhooksSection(schemas: Record<string, Schema>): Record<string, unknown> {
  return Object.fromEntries(
    EVENT_NAMES.map((event) => {
      const schema = { $ref: `#/components/schemas/${z.globalRegistry.get(EVENT_ENVELOPES[event])?.id}` }
      return [
        event,
        {
          post: {
            operationId: `${event.replace(/[._](\w)/g, (_, c: string) => c.toUpperCase())}Webhook`,
            tags: ['webhooks'],
            summary: `The ${event} event`,
            ...(EXTENSION_EVENTS.has(event) && { 'x-refdesk-extension': true }),
            description: `${EXTENSION_EVENTS.has(event) ? `${EXTENSION_EVENT_NOTE} ` : ''}Emitted by ${EMITTED_BY[event]} Delivered at least once, signed, to every endpoint registered for it; retried on the schedule until a 2xx arrives.`,
            security: [],
            parameters: SIGNATURE_HEADERS,
            requestBody: {
              required: true,
              description: 'The envelope: `id`, `event`, `createdAt` and the event’s `data`.',
              content: { 'application/json': { schema, example: exampleOf(schema, schemas) } },
            },
            responses: {
              '2XX': { description: 'Received. Any 2xx within the timeout (15 s by default) is a delivery.' },
              '4XX': {
                description:
                  'Refused, like any other non-2xx answer, a redirect or a timeout: the attempt failed and is retried on the schedule.',
              },
            },
          },
        },
      ]
    }),
  )
}

/** Drops components nothing reaches from the paths or webhooks (the `*Input` forms of output shapes). */
function pruneUnusedComponents(doc: Document): void {
  const { schemas } = doc.components
  const refs = (value: unknown): string[] =>
    [...JSON.stringify(value).matchAll(/"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]!)
  const reached = new Set<string>()
  const pending = refs({ paths: doc.paths, webhooks: doc.webhooks })
  while (pending.length > 0) {
    const name = pending.pop()!
    if (reached.has(name)) continue
    reached.add(name)
    pending.push(...refs(schemas[name]))
  }
  for (const name of Object.keys(schemas)) if (!reached.has(name)) delete schemas[name]
}
