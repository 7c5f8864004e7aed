// fast-check arbitraries built from the OpenAPI document's JSON schemas: values that satisfy a schema,
// values on and just past its bounds, and values of the wrong type, so the fuzzer follows the document
// instead of a hand-kept list of fields.
import fc from 'fast-check'

export interface JsonSchema {
  type?: string | string[]
  properties?: Record<string, JsonSchema>
  required?: string[]
  items?: JsonSchema
  anyOf?: JsonSchema[]
  enum?: unknown[]
  minLength?: number
  maxLength?: number
  minimum?: number
  maximum?: number
  minItems?: number
  maxItems?: number
  format?: string
  pattern?: string
  default?: unknown
}

/** Arbitraries for named fields (real ids, the key's own source, known external ids), else undefined. */
export type FieldHints = (name: string, schema: JsonSchema) => fc.Arbitrary<unknown> | undefined

const UNICODE = [
  '🏟️⚽',
  'Zoë Ångström',
  '\u202eevil\u202c',
  'a\u0301\u0302\u0303',
  '\ud800',
  '\udfff\ud800',
  '\u0000',
  'x\u0000y',
  '\uFEFF',
  '中文字段',
  'ﷺ',
  '\u2028\u2029',
  "'; DROP TABLE games; --",
  '${jndi:ldap://x}',
  '<script>alert(1)</script>',
  '%00%2e%2e',
]

/** Strings that are not well-formed UTF-16: every string field must refuse them (issue 13, item 6). */
export const LONE_SURROGATES = [
  '\ud800',
  '\udfff',
  '\udbff',
  '\udc00',
  'x\ud800y',
  '\udfff\ud800',
  // A surrogate pair cut in half, as a byte-counting truncation would leave it.
  '🏟'.slice(0, 1),
  'ok🏟'.slice(0, 3),
]

/** Text every string field stores as sent: no U+0000, no lone surrogate. */
export const isStorableText = (s: string): boolean => !s.includes('\u0000') && s.isWellFormed()

// Building some arbitraries (strings, URLs, e-mail addresses) is costly: each is built once, here.
const UNICODE_STRING = fc.oneof(
  fc.constantFrom(...UNICODE, ...LONE_SURROGATES),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
)
export const unicodeString = (): fc.Arbitrary<string> => UNICODE_STRING
/** Hostile but storable text: what a valid request may carry. */
const STORABLE_STRING = UNICODE_STRING.filter(isStorableText)
/** A lone surrogate somewhere in otherwise ordinary text. */
export const ILL_FORMED_STRING: fc.Arbitrary<string> = fc
  .tuple(fc.string({ maxLength: 8 }), fc.constantFrom(...LONE_SURROGATES), fc.string({ maxLength: 8 }))
  .map(([before, lone, after]) => before + lone + after)
export const HTTPS_URL = fc.webUrl({ validSchemes: ['https'] })
export const EMAIL = fc.emailAddress()
export const CUID_SHAPED = fc.stringMatching(/^[a-z][a-z0-9]{23}$/)

const DATE_TIME: fc.Arbitrary<string> = fc.oneof(
  fc
    .date({
      min: new Date('1970-01-01T00:00:00Z'),
      max: new Date('2099-12-31T23:59:59Z'),
      noInvalidDate: true,
    })
    .map((d) => d.toISOString()),
  fc.constantFrom(
    '2026-05-01T18:00:00Z',
    '2026-05-01T18:00:00+02:00',
    '2026-05-01T18:00:00.123456Z',
    '2026-05-01',
    '2026-05-01 18:00',
    '0000-01-01T00:00:00Z',
    '9999-12-31T23:59:59.999Z',
  ),
)

const dateTime = (): fc.Arbitrary<string> => DATE_TIME

const types = (schema: JsonSchema): string[] =>
  schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type]

/** A value the schema accepts (field hints take precedence for named fields). */
export function validArb(schema: JsonSchema, hints: FieldHints, name = ''): fc.Arbitrary<unknown> {
  const hinted = name ? hints(name, schema) : undefined
  if (hinted) return hinted
  if (schema.enum) return fc.constantFrom(...schema.enum)
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map((s) => validArb(s, hints, name)))
  const [first, ...rest] = types(schema)
  if (rest.length > 0)
    return fc.oneof(...[first!, ...rest].map((type) => validArb({ ...schema, type }, hints, name)))
  switch (first) {
    case 'string':
      if (schema.format === 'date-time') return dateTime()
      if (schema.format === 'uri') return HTTPS_URL
      if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern))
      return fc.oneof(
        fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 30, 30) }),
        STORABLE_STRING.filter(
          (s) => s.length >= (schema.minLength ?? 0) && s.length <= (schema.maxLength ?? Infinity),
        ),
      )
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000 })
    case 'number':
      return fc.double({
        min: schema.minimum ?? -1e6,
        max: schema.maximum ?? 1e6,
        noNaN: true,
        noDefaultInfinity: true,
      })
    case 'boolean':
      return fc.boolean()
    case 'null':
      return fc.constant(null)
    case 'array':
      return fc.array(validArb(schema.items ?? {}, hints, `${name}[]`), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 3, 3),
      })
    case 'object': {
      const properties = schema.properties ?? {}
      return fc.record(
        Object.fromEntries(Object.entries(properties).map(([key, s]) => [key, validArb(s, hints, key)])),
        { requiredKeys: schema.required ?? [] },
      )
    }
    default:
      // An untyped field (PATCH /games' refused `status`) accepts anything.
      return fc.jsonValue({ maxDepth: 2 })
  }
}

/**
 * Values on and just past the schema's bounds: lengths, sizes, numeric limits, negative and fractional
 * money. Arbitraries are built once here, never inside a chain, which would rebuild them for every value.
 */
export function boundaryArb(schema: JsonSchema, hints: FieldHints, name = ''): fc.Arbitrary<unknown> {
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map((s) => boundaryArb(s, hints, name)))
  const [type] = types(schema)
  const defined = (list: (number | undefined)[]) => list.filter((n): n is number => n !== undefined)
  switch (type) {
    case 'string': {
      const lengths = defined([
        0,
        1,
        schema.minLength,
        schema.maxLength,
        schema.maxLength && schema.maxLength + 1,
      ])
      return fc.constantFrom(
        ...lengths.flatMap((n) => [
          'a'.repeat(n),
          'é'.repeat(n),
          '🏟'.repeat(Math.ceil(n / 2)),
          // At odd lengths the last pair is cut: a lone high surrogate, exactly on the bound.
          '🏟'.repeat(n).slice(0, n),
          ...(n > 0 ? ['a'.repeat(n - 1) + '\udfff'] : []),
        ]),
      )
    }
    case 'integer':
    case 'number': {
      const edges = [0, -0, -1, -0.01, 0.005, 1.005, 0.1 + 0.2, 1e-9, -1e-9, 1e21, -1e308, 1e308]
      for (const bound of [schema.minimum, schema.maximum]) {
        if (bound !== undefined) edges.push(bound, bound - 1, bound + 1, bound + 0.001, bound - 0.001)
      }
      return fc.constantFrom(...edges)
    }
    case 'array': {
      const item = validArb(schema.items ?? {}, hints, `${name}[]`)
      const sizes = defined([
        0,
        1,
        2,
        schema.minItems,
        schema.maxItems,
        schema.maxItems && schema.maxItems + 1,
      ])
      return fc.oneof(
        ...sizes.map((n) =>
          // Large arrays repeat one generated item: the size is what is on trial, not the variety.
          n > 10
            ? item.map((value) => Array.from({ length: n }, () => value))
            : fc.array(item, { minLength: n, maxLength: n }),
        ),
      )
    }
    case 'object': {
      const properties = Object.entries(schema.properties ?? {})
      if (properties.length === 0) return validArb(schema, hints, name)
      // One field at its boundary, the others valid.
      const base = validArb(schema, hints, name)
      return fc.oneof(
        ...properties.map(([key, s]) =>
          fc
            .tuple(base, boundaryArb(s, hints, key))
            .map(([valid, edge]) => ({ ...(valid as object), [key]: edge })),
        ),
      )
    }
    default:
      return validArb(schema, hints, name)
  }
}

/** A value of some JSON type the schema does not declare. */
export function wrongTypeArb(schema: JsonSchema): fc.Arbitrary<unknown> {
  const declared = new Set(schema.anyOf ? schema.anyOf.flatMap(types) : types(schema))
  const candidates: [string, fc.Arbitrary<unknown>][] = [
    ['string', fc.oneof(fc.string(), unicodeString())],
    [
      'number',
      fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(-1, 0.5, 1e300)),
    ],
    ['boolean', fc.boolean()],
    ['null', fc.constant(null)],
    ['array', fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 })],
    ['object', fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 })],
  ]
  const wrong = candidates.filter(
    ([type]) => !declared.has(type) && !(type === 'number' && declared.has('integer')),
  )
  return fc.oneof(...(wrong.length > 0 ? wrong : candidates).map(([, arb]) => arb))
}
