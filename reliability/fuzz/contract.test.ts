// Contract fuzzing (issue 6, item 2): over 10,000 requests generated from the OpenAPI document
// (GET /api/v1/openapi.json) across all its operations, valid and hostile, naming real ids of a populated
// source for most requests. Every answer is a non-5xx status the operation documents, its body matches
// the documented schema for that status, and every error body is {"error":"<catalogued code>"}.
// FUZZ_SEED=<n> replays a run; the seed is in every failure message.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EVENT_NAMES } from '../../src/schemas/events.js'
import { ERROR_STATUS, SUFFIXED_CODES, isErrorCode } from '../../src/domain/core/errors.js'
import type { Partner, TestApp } from '../../test/helpers/app.js'
import { buildReliabilityApp } from '../lib/app.js'
import { recordFigure } from '../lib/figures.js'
import { rememberSecrets } from '../lib/logs.js'
import {
  CUID_SHAPED,
  EMAIL,
  HTTPS_URL,
  ILL_FORMED_STRING,
  boundaryArb,
  unicodeString,
  validArb,
  wrongTypeArb,
  type FieldHints,
  type JsonSchema,
} from './schema-arbitrary.js'
import { buildWorld, type World } from './world.js'

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020

const TARGET_REQUESTS = 10_000
// Small batches, each on a fresh world: cancels and removals soon close what the next requests need.
const BATCH = 400
const BATCHES = Number(process.env.FUZZ_BATCHES ?? 26)
const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31))

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE'

interface Parameter {
  name: string
  in: 'path' | 'query'
  required?: boolean
  schema: JsonSchema
}

interface Operation {
  operationId: string
  method: Method
  path: string
  parameters: Parameter[]
  body?: JsonSchema
  statuses: string[]
  /** Per error status, the codes the document lists for it. */
  codes: Record<string, string[]>
}

interface FuzzRequest {
  op: Operation
  kind: string
  url: string
  headers: Record<string, string>
  payload?: string
}

function operations(doc: any): Operation[] {
  const ops: Operation[] = []
  for (const [path, methods] of Object.entries<Record<string, any>>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(methods)) {
      const codes: Record<string, string[]> = {}
      for (const [status, response] of Object.entries<any>(op.responses)) {
        const description: string | undefined =
          response.content?.['application/json']?.schema?.properties?.error?.description
        if (description) codes[status] = description.replace(/^One of: /, '').split(', ')
      }
      ops.push({
        operationId: op.operationId,
        method: method.toUpperCase() as Method,
        path,
        parameters: op.parameters ?? [],
        ...(op.requestBody && { body: op.requestBody.content['application/json'].schema }),
        statuses: Object.keys(op.responses),
        codes,
      })
    }
  }
  return ops
}

/** One Ajv over the document's components; each operation's response schemas compile against it. */
function responseValidators(doc: any): (op: Operation, status: string) => ValidateFunction | undefined {
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  addFormats(ajv)
  // Components carry `$id: "#/components/schemas/X"`, which is no base URI: drop it and reach them as $defs.
  const rewrite = (value: unknown): unknown =>
    JSON.parse(
      JSON.stringify(value, (key, v) => (key === '$id' || key === '$schema' ? undefined : v)).replaceAll(
        '"#/components/schemas/',
        '"refdesk-components#/$defs/',
      ),
    )
  ajv.addSchema({ $id: 'refdesk-components', $defs: rewrite(doc.components.schemas) as object })
  const cache = new Map<string, ValidateFunction | undefined>()
  return (op, status) => {
    const key = `${op.method} ${op.path} ${status}`
    if (!cache.has(key)) {
      const schema =
        doc.paths[op.path][op.method.toLowerCase()].responses[status]?.content?.['application/json']?.schema
      cache.set(key, schema ? ajv.compile(rewrite(schema) as object) : undefined)
    }
    return cache.get(key)
  }
}

// Path segments as they go on the wire (already percent-encoded): never-existing ids of plausible shape
// and hostile strings. `.` and `..` are left out: a router may resolve them to another operation.
const WEIRD_SEGMENTS = [
  '',
  '%20',
  'x'.repeat(5000),
  '%25',
  '%00',
  '%ED%A0%80',
  '%zz',
  encodeURIComponent('🏟️'),
  encodeURIComponent("' OR '1'='1"),
  'null',
  'undefined',
  '__proto__',
  'constructor',
  '-1',
  '0',
  '1e9',
  'a%2Fb',
  encodeURIComponent('ｌｅａｇｕｅ'),
  'TZ4A98XXAT96IWS9ZMBRGJ3A',
  'tz4a98xxat96iws9zmbrgj3a',
]

const MALFORMED = [
  '{"a":',
  '{',
  '[',
  'nul',
  '{"a":1,}',
  "{'a':1}",
  '{"a":1}{"b":2}',
  '\uFEFF{}',
  '',
  ' ',
  '{"a":"\\u12"}',
  '{"a":NaN}',
  '{"a":Infinity}',
  '{"a":01}',
  '\u0000',
]
const NON_OBJECT = ['[]', 'null', '"text"', '12', 'true', '[{"name":"x"}]', '-0', '1e999']

/** Requests whose body carries a string every field must refuse: any success is a defect. */
const MUST_REFUSE = new Set(['ill-formed', 'over-length'])

/** The string schema of a field (directly, or the string member of a nullable one); enums excluded. */
function textSchema(schema: JsonSchema): JsonSchema | undefined {
  const found = schema.anyOf ? schema.anyOf.find((s) => s.type === 'string') : schema
  return found?.type === 'string' && !found.enum ? found : undefined
}

/** A value every text field refuses: a lone surrogate, or one unit past its maxLength (if it has one). */
function refusedTextArb(schema: JsonSchema): fc.Arbitrary<{ kind: string; value: string }> {
  const lone = ILL_FORMED_STRING.map((value) => ({ kind: 'ill-formed', value }))
  const max = schema.maxLength
  if (max === undefined) return lone
  return fc.oneof(
    lone,
    fc.constantFrom('x', 'é', '🏟').map((unit) => ({ kind: 'over-length', value: unit.repeat(max + 1) })),
  )
}

/** Inserts a raw `"key":value` pair at the front of a JSON object text. */
const withRawPair = (objectText: string, pair: string): string =>
  objectText === '{}' ? `{${pair}}` : `{${pair},${objectText.slice(1)}`

function nested(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array'
    ? '['.repeat(depth) + ']'.repeat(depth)
    : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)
}

describe('contract fuzzing from the OpenAPI document', () => {
  let t: TestApp
  let p: Partner
  let foreign: World
  beforeAll(async () => {
    t = await buildReliabilityApp('fuzz')
    p = await t.partner({ organizerExternalId: 'organizer-ext' })
    foreign = await buildWorld(t, await t.partner())
  })
  afterAll(async () => {
    await t?.close()
  })

  it('answers >= 10,000 generated requests within the documented statuses, schemas and error codes', async () => {
    const doc = (await t.app.inject({ url: '/api/v1/openapi.json' })).json()
    const ops = operations(doc)
    expect(ops.length).toBeGreaterThanOrEqual(21)
    const validatorFor = responseValidators(doc)
    const tally = {
      requests: 0,
      serverErrors: [] as string[],
      undocumentedStatuses: [] as string[],
      schemaMismatches: [] as string[],
      uncataloguedCodes: [] as string[],
      codesOutsideOperationList: [] as string[],
      acceptedInvalidText: [] as string[],
      invalidTextSent: 0,
    }
    const byOperation = new Map<string, Set<number>>()
    const protoBefore = Object.getOwnPropertyNames(Object.prototype).sort()

    const requestArb = (world: World): fc.Arbitrary<FuzzRequest> => {
      const pools: Record<string, string[]> = {
        leagueId: world.leagueIds,
        // Open games and approved officials weigh more, so that assigns get past their 409s.
        gameId: [...world.gameIds, ...world.openGameIds],
        userId: [...world.userIds, world.userIds[0]!, world.userIds[1]!, world.organizerId],
        webhookId: world.webhookIds,
        deliveryId: world.deliveryIds,
        positionId: world.positionIds,
        planId: world.planIds,
      }
      const allReal = Object.values(pools).flat()
      const foreignIds = [
        ...foreign.leagueIds,
        ...foreign.gameIds,
        ...foreign.userIds,
        ...foreign.webhookIds,
        ...foreign.positionIds,
        ...foreign.planIds,
      ]
      const idArb = (name: string): fc.Arbitrary<string> =>
        fc.oneof(
          { weight: 60, arbitrary: fc.constantFrom(...(pools[name] ?? allReal)) },
          { weight: 8, arbitrary: fc.constantFrom(...allReal, ...world.paymentIds, ...world.deliveryIds) },
          { weight: 10, arbitrary: fc.constantFrom(...foreignIds) },
          { weight: 8, arbitrary: CUID_SHAPED },
          { weight: 14, arbitrary: fc.constantFrom(...WEIRD_SEGMENTS) },
        )
      const hints: FieldHints = (name) => {
        switch (name) {
          case 'source':
            return fc.oneof(
              { weight: 8, arbitrary: fc.constant(world.source) },
              {
                weight: 1,
                arbitrary: fc.constantFrom('app', foreign.source, world.source.toUpperCase(), ''),
              },
            )
          case 'userId':
            return fc.oneof(
              { weight: 4, arbitrary: fc.constantFrom(...pools[name]!) },
              { weight: 1, arbitrary: idArb(name) },
            )
          case 'positionId':
            // `undefined` leaves the optional field out of the JSON body.
            return fc.oneof(
              { weight: 3, arbitrary: fc.constantFrom(...pools[name]!) },
              { weight: 1, arbitrary: idArb(name) },
              { weight: 4, arbitrary: fc.constant(undefined) },
            )
          case 'externalId':
            return fc.oneof(
              fc.constantFrom(
                ...world.officialExternalIds,
                ...world.gameExternalIds,
                ...world.leagueExternalIds,
                ...foreign.officialExternalIds,
                ...foreign.gameExternalIds,
                'organizer-ext',
              ),
              fc.string({ minLength: 1, maxLength: 12 }),
            )
          case 'events[]':
            return fc.oneof(
              { weight: 9, arbitrary: fc.constantFrom(...EVENT_NAMES) },
              { weight: 1, arbitrary: fc.constantFrom('game.*', 'GAME.CREATED', '', 'payment.refunded') },
            )
          case 'url':
            return fc.oneof(
              { weight: 6, arbitrary: HTTPS_URL },
              {
                weight: 1,
                arbitrary: fc.constantFrom(
                  'http://example.com/x',
                  'https://127.0.0.1/x',
                  'https://[::1]/x',
                  'ftp://example.com',
                  'https://',
                  'not a url',
                  'https://user:pass@example.com/x',
                  'javascript:alert(1)',
                ),
              },
            )
          case 'email':
            return fc.oneof(EMAIL, fc.constantFrom('', '  ', 'NOT-AN-EMAIL', 'A@B.C'))
          default:
            return undefined
        }
      }
      const queryArb = (param: Parameter): fc.Arbitrary<string[]> => {
        const encode = (value: string) => `${param.name}=${encodeURIComponent(value)}`
        return fc.oneof(
          {
            weight: 5,
            arbitrary: validArb(param.schema, hints, param.name).map((v): string[] => [encode(String(v))]),
          },
          {
            weight: 3,
            arbitrary: fc
              .constantFrom(
                '0',
                '1',
                '200',
                '201',
                '-1',
                '1.5',
                'abc',
                '',
                '1e2',
                ' 5',
                '0x10',
                '９',
                '9'.repeat(30),
              )
              .map((v): string[] => [encode(v)]),
          },
          { weight: 2, arbitrary: fc.constant<string[]>([]) },
          {
            weight: 1,
            arbitrary: fc
              .tuple(idArb(param.name), idArb(param.name))
              .map(([a, b]): string[] => [encode(a), encode(b)]),
          },
          {
            weight: 1,
            arbitrary: fc.constantFrom<string[]>([`${param.name}[]=1`], [`${param.name}[a]=1`], [param.name]),
          },
        )
      }
      const bodyArb = (schema: JsonSchema): fc.Arbitrary<{ kind: string; payload: string }> => {
        const valid = validArb(schema, hints)
        const json = (kind: string) => (value: unknown) => ({ kind, payload: JSON.stringify(value) })
        const fields = Object.entries(schema.properties ?? {})
        const field = fc.constantFrom(...fields)
        const stringFields = fields.filter(([, s]) => s.type === 'string' || s.anyOf)
        const stringField = fc.constantFrom(...(stringFields.length > 0 ? stringFields : fields))
        const replace = (kind: string, value: fc.Arbitrary<unknown>, which = field) =>
          fc
            .tuple(valid, which, value)
            .map(([base, [key], v]) => json(kind)({ ...(base as object), [key]: v }))
        const nestedGames = schema.properties?.games
        const textFields = fields.flatMap(([key, s]) => {
          const text = textSchema(s)
          return text ? [[key, text] as const] : []
        })
        const itemTextFields = Object.entries(nestedGames?.items?.properties ?? {}).flatMap(([key, s]) => {
          const text = textSchema(s)
          return text ? [[key, text] as const] : []
        })
        return fc.oneof(
          { weight: 30, arbitrary: valid.map(json('valid')) },
          { weight: 15, arbitrary: boundaryArb(schema, hints).map(json('boundary')) },
          {
            weight: 10,
            arbitrary: fc.oneof(
              ...fields.map(([key, s]) =>
                fc
                  .tuple(valid, wrongTypeArb(s))
                  .map(([base, v]) => json('wrong-type')({ ...(base as object), [key]: v })),
              ),
            ),
          },
          ...(nestedGames?.items
            ? [
                {
                  weight: 6,
                  arbitrary: fc.oneof(
                    ...Object.entries(nestedGames.items.properties ?? {}).map(([key, s]) =>
                      fc
                        .oneof(wrongTypeArb(s), boundaryArb(s, hints, key))
                        .map((v) =>
                          json('game-item')({ games: [{ startsAt: '2026-05-01T10:00:00Z', [key]: v }] }),
                        ),
                    ),
                  ),
                },
              ]
            : []),
          {
            weight: 8,
            arbitrary: fc.tuple(valid, fc.constantFrom(...(schema.required ?? ['-']))).map(([base, key]) => {
              const copy = { ...(base as Record<string, unknown>) }
              delete copy[key]
              return json('missing')(copy)
            }),
          },
          { weight: 2, arbitrary: fc.constant({ kind: 'missing', payload: '{}' }) },
          {
            weight: 6,
            arbitrary: fc.constantFrom(...MALFORMED).map((payload) => ({ kind: 'malformed', payload })),
          },
          {
            weight: 5,
            arbitrary: fc.constantFrom(...NON_OBJECT).map((payload) => ({ kind: 'non-object', payload })),
          },
          {
            weight: 4,
            arbitrary: replace(
              'huge',
              fc.constantFrom(100_000, 1_100_000).map((n) => 'x'.repeat(n)),
              stringField,
            ),
          },
          {
            weight: 4,
            arbitrary: fc
              .tuple(
                valid,
                field,
                fc.constantFrom(100, 5_000, 50_000),
                fc.constantFrom('array', 'object') as fc.Arbitrary<'array' | 'object'>,
              )
              .map(([base, [key], depth, kind]) => {
                const rest = { ...(base as Record<string, unknown>) }
                delete rest[key]
                return {
                  kind: 'deep',
                  payload: withRawPair(JSON.stringify(rest), `${JSON.stringify(key)}:${nested(depth, kind)}`),
                }
              }),
          },
          { weight: 8, arbitrary: replace('unicode', unicodeString(), stringField) },
          // One text field (top level or in a game item) ill-formed or over-length, the rest valid.
          ...textFields.map(([key, text]) => ({
            weight: Math.max(1, Math.round(8 / textFields.length)),
            arbitrary: fc
              .tuple(valid, refusedTextArb(text))
              .map(([base, { kind, value }]) => json(kind)({ ...(base as object), [key]: value })),
          })),
          ...itemTextFields.map(([key, text]) => ({
            weight: Math.max(1, Math.round(6 / itemTextFields.length)),
            arbitrary: refusedTextArb(text).map(({ kind, value }) =>
              json(kind)({ games: [{ startsAt: '2026-05-01T10:00:00Z', [key]: value }] }),
            ),
          })),
          {
            weight: 5,
            arbitrary: fc
              .tuple(
                valid,
                fc.constantFrom(
                  '"__proto__":{"polluted":1,"name":"","status":"pending"}',
                  '"constructor":{"prototype":{"polluted":1}}',
                  '"__proto__":{"__proto__":{"polluted":1}}',
                  '"prototype":{"polluted":1}',
                  '"games":[{"__proto__":{"startsAt":"nope"},"startsAt":"2026-05-01T10:00:00Z","constructor":{"prototype":{"polluted":1}}}]',
                ),
              )
              .map(([base, pair]) => ({ kind: 'proto', payload: withRawPair(JSON.stringify(base), pair) })),
          },
          {
            weight: 5,
            arbitrary: fc
              .tuple(
                valid,
                fc.dictionary(
                  fc.oneof(fc.string({ maxLength: 8 }), unicodeString()),
                  fc.jsonValue({ maxDepth: 2 }),
                  { minKeys: 1, maxKeys: 4 },
                ),
              )
              .map(([base, extra]) => json('extra-fields')({ ...extra, ...(base as object) })),
          },
        )
      }
      const authArb = fc.oneof(
        { weight: 96, arbitrary: fc.constant<string | undefined>(`Bearer ${p.key}`) },
        {
          weight: 4,
          arbitrary: fc.constantFrom<string | undefined>(
            undefined,
            '',
            'Bearer',
            `Bearer key_${'0'.repeat(48)}`,
            'Basic Zm9vOmJhcg==',
            `Bearer ${p.key}x`,
            `Bearer  ${p.key}`,
            `Token ${p.key}`,
          ),
        },
      )
      const contentTypeArb = fc.oneof(
        { weight: 90, arbitrary: fc.constant<string | undefined>('application/json') },
        {
          weight: 10,
          arbitrary: fc.constantFrom<string | undefined>(
            'application/json; charset=utf-8',
            'text/plain',
            'application/x-www-form-urlencoded',
            'application/vnd.api+json',
            'multipart/form-data; boundary=x',
            undefined,
          ),
        },
      )
      const strayBody = fc.oneof(
        { weight: 4, arbitrary: fc.constant(undefined) },
        {
          weight: 1,
          arbitrary: fc.oneof(
            fc
              .jsonValue({ maxDepth: 2 })
              .map((v) => ({ kind: 'stray', payload: JSON.stringify(v) ?? 'null' })),
            fc.constantFrom(...MALFORMED, ...NON_OBJECT).map((payload) => ({ kind: 'stray', payload })),
            fc.constant({ kind: 'stray', payload: JSON.stringify({ a: 'x'.repeat(1_100_000) }) }),
          ),
        },
      )
      const extraQuery = fc.oneof(
        { weight: 9, arbitrary: fc.constant<string[]>([]) },
        {
          weight: 1,
          arbitrary: fc.constantFrom(
            ['__proto__[polluted]=1'],
            ['constructor[prototype][polluted]=1'],
            ['foo=bar'],
            [`${encodeURIComponent('🏟')}=${encodeURIComponent('\u202e')}`],
          ),
        },
      )
      // Built once per world: rebuilding arbitraries inside a chain for every sample costs more than sending.
      const perOperation = ops.map((op) => {
        const pathParams = op.parameters.filter((param) => param.in === 'path')
        const queryParams = op.parameters.filter((param) => param.in === 'query')
        return fc
          .record({
            ids: fc.tuple(...pathParams.map((param) => idArb(param.name))),
            query: fc.tuple(...queryParams.map(queryArb)),
            extra: extraQuery,
            body: op.body ? bodyArb(op.body) : strayBody,
            // Ids that belong together (a game, its league, its position), for the paths past the lookups.
            coherent: fc.oneof(
              { weight: 7, arbitrary: fc.constant(undefined) },
              { weight: 3, arbitrary: fc.constantFrom(...world.games) },
            ),
            authorization: authArb,
            contentType: contentTypeArb,
          })
          .map(({ ids, query, extra, body, authorization, contentType, coherent }) => {
            let i = 0
            const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
              const id = ids[i++]!
              return coherent?.[name as keyof typeof coherent] ?? id
            })
            let pieces = [...query.flat(), ...extra]
            if (coherent && queryParams.some((param) => param.name === 'positionId'))
              pieces = [
                ...pieces.filter((q) => !q.startsWith('positionId')),
                `positionId=${coherent.positionId}`,
              ]
            // A window's bounds that belong together: `from` before `to`, at most 62 days apart.
            if (coherent && queryParams.some((param) => param.name === 'from'))
              pieces = [
                ...pieces.filter((q) => !q.startsWith('from') && !q.startsWith('to')),
                'from=2026-05-01T00:00:00Z',
                'to=2026-05-15T00:00:00Z',
              ]
            const headers: Record<string, string> = {}
            if (authorization !== undefined) headers.authorization = authorization
            if (body && contentType !== undefined) headers['content-type'] = contentType
            return {
              op,
              kind: body?.kind ?? 'none',
              url: pieces.length > 0 ? `${path}?${pieces.join('&')}` : path,
              headers,
              ...(body && { payload: body.payload }),
            }
          })
      })
      // Destructive operations soon close what the rest need; the claim paths have the most branches.
      const weight = (op: Operation) =>
        ['cancelGame', 'removeOfficial', 'deleteWebhook'].includes(op.operationId)
          ? 1
          : ['assignPosition', 'unassignPosition', 'upsertGames'].includes(op.operationId)
            ? 4
            : 2
      return fc.oneof(...perOperation.map((arbitrary, i) => ({ weight: weight(ops[i]!), arbitrary })))
    }

    const sample = (what: string, req: FuzzRequest, status: number, body: string) =>
      `[seed ${SEED}] ${req.op.operationId} ${req.kind} ${req.op.method} ${req.url.slice(0, 150)} ` +
      `(${req.headers['content-type'] ?? 'no content-type'}) ` +
      `${(req.payload ?? '').slice(0, 200)} → ${status} ${body.slice(0, 300)}: ${what}`

    const timing = new Map<string, number>()
    const successes = new Map<string, number>()
    async function send(req: FuzzRequest): Promise<{ status: number; json: any }> {
      tally.requests++
      const res = await t.app.inject({
        method: req.op.method,
        url: req.url,
        headers: req.headers,
        ...(req.payload !== undefined && { payload: req.payload }),
      })
      const status = res.statusCode
      byOperation.set(req.op.operationId, (byOperation.get(req.op.operationId) ?? new Set()).add(status))
      if (status < 300) successes.set(req.op.operationId, (successes.get(req.op.operationId) ?? 0) + 1)
      const note = (list: string[], what: string) => list.push(sample(what, req, status, res.body))
      if (status >= 500) note(tally.serverErrors, '5xx')
      if (MUST_REFUSE.has(req.kind)) tally.invalidTextSent++
      if (MUST_REFUSE.has(req.kind) && status < 400)
        note(tally.acceptedInvalidText, `${req.kind} text accepted`)
      if (!req.op.statuses.includes(String(status))) {
        note(tally.undocumentedStatuses, 'status not documented')
        return { status, json: undefined }
      }
      let json: any
      try {
        json = res.json()
      } catch {
        note(tally.schemaMismatches, 'body is not JSON')
        return { status, json: undefined }
      }
      if (!String(res.headers['content-type']).startsWith('application/json'))
        note(tally.schemaMismatches, `content-type ${String(res.headers['content-type'])}`)
      const validate = validatorFor(req.op, String(status))
      if (!validate) note(tally.schemaMismatches, 'no documented schema')
      else if (!validate(json)) note(tally.schemaMismatches, JSON.stringify(validate.errors?.slice(0, 3)))
      if (status >= 400) {
        const error = typeof json?.error === 'string' ? json.error : ''
        const colon = error.indexOf(':')
        const code = colon === -1 ? error : error.slice(0, colon)
        const catalogued =
          Object.keys(json ?? {}).join() === 'error' &&
          isErrorCode(code) &&
          ERROR_STATUS[code] === status &&
          (colon === -1 || (SUFFIXED_CODES as readonly string[]).includes(code))
        if (!catalogued) note(tally.uncataloguedCodes, 'uncatalogued error')
        // Routing answers (`not_found` for a segment no route matches) are the router's, not the operation's.
        const listed = req.op.codes[String(status)]?.map((c) => c.replace(/:<value>$/, ''))
        if (catalogued && code !== 'not_found' && !listed?.includes(code))
          note(tally.codesOutsideOperationList, `code ${code} not listed for ${status}`)
      }
      return { status, json }
    }

    for (let batch = 0; batch < BATCHES; batch++) {
      let mark = performance.now()
      const world = await buildWorld(t, p)
      timing.set('#world', (timing.get('#world') ?? 0) + performance.now() - mark)
      mark = performance.now()
      const arb = requestArb(world)
      timing.set('#build', (timing.get('#build') ?? 0) + performance.now() - mark)
      // Deleting the world's endpoint goes last in its batch, or the delivery operations after it would
      // rarely get past their 404s (some seeds never did).
      const reqs = fc
        .sample(arb, { numRuns: BATCH, seed: SEED + batch })
        .sort(
          (a, b) =>
            Number(a.op.operationId === 'deleteWebhook') - Number(b.op.operationId === 'deleteWebhook'),
        )
      timing.set('#sample', (timing.get('#sample') ?? 0) + performance.now() - mark)
      mark = performance.now()
      for (const req of reqs) {
        const { status, json } = await send(req)
        if (req.op.operationId === 'createWebhook' && status === 201) {
          rememberSecrets(json.data.secret)
          // Every extra endpoint multiplies the deliveries each later event fans out to.
          const op = ops.find((o) => o.operationId === 'deleteWebhook')!
          await send({
            op,
            kind: 'cleanup',
            url: op.path.replace('{webhookId}', json.data.id),
            headers: { authorization: `Bearer ${p.key}` },
          })
        }
      }
      // The world's endpoint goes with its batch, so later events do not fan out to every past world.
      const hooks = (await p.get('/webhooks')).body.data as { id: string }[]
      for (const hook of hooks) await p.delete(`/webhooks/${hook.id}`)
      timing.set('#send', (timing.get('#send') ?? 0) + performance.now() - mark)
    }

    const figures = [
      ['requests sent', tally.requests, `>= ${TARGET_REQUESTS}`, tally.requests >= TARGET_REQUESTS],
      ['responses 5xx', tally.serverErrors.length, '0', tally.serverErrors.length === 0],
      [
        'undocumented statuses',
        tally.undocumentedStatuses.length,
        '0',
        tally.undocumentedStatuses.length === 0,
      ],
      ['schema mismatches', tally.schemaMismatches.length, '0', tally.schemaMismatches.length === 0],
      ['uncatalogued error codes', tally.uncataloguedCodes.length, '0', tally.uncataloguedCodes.length === 0],
      [
        'error codes outside the operation’s documented list',
        tally.codesOutsideOperationList.length,
        '0',
        tally.codesOutsideOperationList.length === 0,
      ],
      [
        'requests with a lone-surrogate or over-length string',
        tally.invalidTextSent,
        '> 0',
        tally.invalidTextSent > 0,
      ],
      [
        'lone-surrogate or over-length strings accepted',
        tally.acceptedInvalidText.length,
        '0',
        tally.acceptedInvalidText.length === 0,
      ],
    ] as const
    for (const [metric, value, target, met] of figures)
      recordFigure({ section: 'fuzz', metric, value, target, met })
    // Where a pass spends its time (ms), and how often each operation got past its errors.
    console.log(Object.fromEntries(timing), Object.fromEntries(successes))
    console.log(
      `fuzz seed ${SEED}: ${tally.requests} requests;`,
      Object.fromEntries([...byOperation].map(([id, statuses]) => [id, [...statuses].sort()])),
    )

    expect(tally.requests).toBeGreaterThanOrEqual(TARGET_REQUESTS)
    expect(tally.serverErrors.slice(0, 5)).toEqual([])
    expect(tally.undocumentedStatuses.slice(0, 5)).toEqual([])
    expect(tally.schemaMismatches.slice(0, 5)).toEqual([])
    expect(tally.uncataloguedCodes.slice(0, 5)).toEqual([])
    expect(tally.codesOutsideOperationList.slice(0, 5)).toEqual([])
    expect(tally.invalidTextSent).toBeGreaterThan(0)
    expect(tally.acceptedInvalidText.slice(0, 5)).toEqual([])
    // Every operation was reached, and beyond its 401/400 front door.
    for (const op of ops) {
      const statuses = byOperation.get(op.operationId) ?? new Set()
      expect(statuses.has(Number(op.statuses.find((s) => s.startsWith('2')))), op.operationId).toBe(true)
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(protoBefore)
  })
})

// Fixed cases the fuzzer found, kept deterministic so they fail on every run, whatever the seed.
describe('hostile inputs the fuzzer found', () => {
  let t: TestApp
  let p: Partner
  let world: World
  beforeAll(async () => {
    t = await buildReliabilityApp('fuzz-found')
    p = await t.partner()
    world = await buildWorld(t, p)
  })
  afterAll(async () => {
    await t?.close()
  })

  it('answers a deeply nested startsAt with invalid_startsAt, not a 500', async () => {
    for (const depth of [5_000, 50_000]) {
      for (const value of [nested(depth, 'array'), nested(depth, 'object')]) {
        const patch = await t.app.inject({
          method: 'PATCH',
          url: `/api/v1/games/${world.gameIds[5]}`,
          headers: { authorization: `Bearer ${p.key}`, 'content-type': 'application/json' },
          payload: `{"startsAt":${value}}`,
        })
        expect([patch.statusCode, patch.json().error.split(':')[0]]).toEqual([400, 'invalid_startsAt'])
        const batch = await t.app.inject({
          method: 'POST',
          url: `/api/v1/leagues/${world.leagueIds[0]}/games`,
          headers: { authorization: `Bearer ${p.key}`, 'content-type': 'application/json' },
          payload: `{"games":[{"startsAt":${value}}]}`,
        })
        expect([batch.statusCode, batch.json().error.split(':')[0]]).toEqual([400, 'invalid_startsAt'])
      }
    }
  })

  it('ignores a stray body of any content type on an operation that takes none', async () => {
    const doc = (await t.app.inject({ url: '/api/v1/openapi.json' })).json()
    const bodyless = operations(doc).filter((op) => !op.body && op.method !== 'GET')
    expect(bodyless.map((op) => op.operationId).sort()).toEqual([
      'cancelGame',
      'deleteWebhook',
      'enableWebhook',
      'removeOfficial',
      'removePosition',
      'retryWebhookDelivery',
      'unassignPosition',
    ])
    for (const op of bodyless) {
      // Never-existing ids: the answer must not depend on the body, and nothing changes.
      const url =
        op.path.replace(/\{\w+\}/g, 'tz4a98xxat96iws9zmbrgj3a') + '?positionId=tz4a98xxat96iws9zmbrgj3a'
      const send = (headers: Record<string, string>, payload?: string) =>
        t.app.inject({
          method: op.method,
          url,
          headers: { authorization: `Bearer ${p.key}`, ...headers },
          ...(payload !== undefined && { payload }),
        })
      const plain = await send({})
      for (const [contentType, payload] of [
        ['text/plain', 'hello'],
        ['application/x-www-form-urlencoded', 'a=1'],
        ['application/octet-stream', '\u0000\u0001'],
        ['application/json', '{"a":'],
        ['application/json', '[]'],
        // Over the 1 MiB cap on bodies that are taken: a stray one is still ignored.
        ['application/json', JSON.stringify({ a: 'x'.repeat(1_200_000) })],
        ['text/plain', 'x'.repeat(1_200_000)],
      ] as const) {
        const res = await send({ 'content-type': contentType }, payload)
        expect([op.operationId, contentType, res.statusCode, res.body]).toEqual([
          op.operationId,
          contentType,
          plain.statusCode,
          plain.body,
        ])
      }
    }
  })
})
