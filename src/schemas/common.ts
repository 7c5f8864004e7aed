// Shared building blocks. Input fields carry their error code as the zod message, so the validator turns
// the first issue straight into the spec's `{"error":"<code>"}`.
import { z } from 'zod'

export const MAX_SOURCE_LENGTH = 40
const MAX_PAY_DOLLARS = 1_000_000
/** Keys that live in unique indexes stay far below PostgreSQL's btree row limit (~2.7 kB). */
const MAX_KEY_LENGTH = 255

/**
 * The longest value each string input takes, in code points (as zod's `max` and JSON Schema's `maxLength`
 * count; an emoji is one, not JavaScript's two `length` units): generous for any real league, game or
 * address, and small enough that no one partner can make a list answer megabytes.
 */
export const MAX_LENGTH = {
  name: 200,
  sport: 100,
  location: 500,
  venue: 120,
  label: 100,
  externalId: MAX_KEY_LENGTH,
  email: MAX_KEY_LENGTH,
  /** The de facto bound of browsers, CDNs and the sitemap protocol. */
  url: 2048,
  /** Ids (cuid2, 24 characters) in bodies, queries and paths: a longer one cannot exist. */
  id: MAX_KEY_LENGTH,
  startsAt: 100,
} as const

/**
 * Whether a string can be stored and compared as the partner sent it. PostgreSQL text cannot hold U+0000,
 * and a lone UTF-16 surrogate is not Unicode text: encoded as UTF-8 it becomes U+FFFD, so `\ud800` and
 * `\udfff` would be the same externalId. Either is refused as the field's own error.
 */
/**
 * One address, as mail is sent to it: one `@`, no whitespace, and no `,` or `;`, which make a list
 * (`a@x.com, b@y.com`) that would mail everyone on it (issue 36, L2).
 */
export const isEmailAddress = (value: string): boolean => /^[^\s@,;]+@[^\s@,;]+$/.test(value)

export const isStorableText = (value: string): boolean => !value.includes('\u0000') && value.isWellFormed()

/** A path id: one that cannot exist answers the resource's not-found code, like any unknown id. */
export const PathId = (notFound: string) =>
  z.string().max(MAX_LENGTH.id, { error: notFound }).refine(isStorableText, { error: notFound })

const optionalBodies = new WeakSet<z.ZodType>()

/** A request body a caller may leave out: no body at all reads as `{}` (a publish of every proposal). */
export function optionalBody<T extends z.ZodType>(schema: T): T {
  optionalBodies.add(schema)
  return schema
}

export const isOptionalBody = (schema: z.ZodType): boolean => optionalBodies.has(schema)

/**
 * A field beyond the Partner API v1 spec's model (a concept RefDesk added): `x-refdesk-extension: true` on
 * its schema in the OpenAPI document, so a partner's generator can tell it from the spec's own fields.
 */
export const extension = <T extends z.ZodType>(schema: T, description: string): T =>
  schema.meta({ description, 'x-refdesk-extension': true })

export const Id = z.string().meta({ description: 'cuid2 identifier', example: 'tz4a98xxat96iws9zmbrgj3a' })
export const DateTime = z.string().meta({ format: 'date-time', example: '2026-05-01T18:00:00.000Z' })

/** A string field of at most `max` characters; a wrong type, a longer value or unstorable text answers `invalid_<name>`. */
export const text = (name: string, max: number) =>
  z
    .string({ error: `invalid_${name}` })
    .max(max, { error: `invalid_${name}` })
    .refine(isStorableText, { error: `invalid_${name}` })

export const SourceInput = text('source', MAX_SOURCE_LENGTH).meta({
  description: 'Omit, or echo your key’s own source. `app` → source_reserved; any other → source_mismatch.',
})

export const ExternalIdInput = text('externalId', MAX_LENGTH.externalId)
  .min(1, { error: 'invalid_externalId' })
  .meta({ description: 'Your stable id; makes the write an upsert on (source, externalId).' })

/** Rounded to the nearest cent, negatives clamp to 0. */
export const PayDollarsInput = z
  .number({ error: 'invalid_payDollars' })
  .max(MAX_PAY_DOLLARS, { error: 'invalid_payDollars' })
  .transform(toCents)
  .meta({ description: `Dollars; rounded to the cent, negatives clamp to 0, at most ${MAX_PAY_DOLLARS}.` })

export const Currency = z
  .string({ error: 'invalid_currency' })
  .length(3, { error: 'invalid_currency' })
  .regex(/^[A-Za-z]{3}$/, { error: 'invalid_currency' })
  .transform((c) => c.toLowerCase())
  .meta({ description: 'ISO 4217 code, stored lowercase', example: 'usd' })

/** `paymentMode`: anything other than `platform` silently becomes `offline`, never an error. */
export const PaymentModeInput = z
  .unknown()
  .transform((mode): 'offline' | 'platform' => (mode === 'platform' ? 'platform' : 'offline'))
  .meta({
    type: 'string',
    enum: ['offline', 'platform'],
    description: 'Anything other than `platform` becomes `offline`.',
  })

export const PaymentMode = z.enum(['offline', 'platform'])
export const Status = z.enum(['open', 'claimed', 'completed', 'cancelled'])

export const dollars = (cents: number): number => cents / 100

/**
 * Dollars to cents, half up on the decimal the partner wrote: `1.005 * 100` is 100.49999… in binary
 * floating point, so the decimal point is shifted in the number's shortest string form instead.
 */
export function toCents(dollars: number): number {
  if (!(dollars > 0)) return 0
  const [mantissa, exponent = '0'] = String(dollars).split('e')
  return Math.round(Number(`${mantissa}e${Number(exponent) + 2}`))
}

export const DataEnvelope = <T extends z.ZodType>(data: T) => z.object({ data })

/** A paged listing's cursor where REST cannot send headers (the MCP tool's result). */
export const NextCursor = z.string().nullable().meta({
  description: 'Pass it as `cursor` for the next (older) page; null on the last page.',
  example: 'WyIyMDI2LTA0LTIxVDEyOjAwOjAwLjAwMFoiLDQyXQ',
})
