// Big answers in slices (issue 21 item 3). The spec's lists are unpaged, so a 10,000-game league's detail
// is megabytes of JSON; checked against its response schema and stringified in one go it held the event
// loop for hundreds of milliseconds, and every other tenant's request waited. Here each long array is
// checked and stringified element by element, yielding to the event loop whenever a slice has run for
// SLICE_MS, and the text is exactly what `JSON.stringify(schema.parse(value))` writes: an array's JSON is
// its elements' JSON joined by commas, and an object keeps its schema's key order.
import { randomBytes } from 'node:crypto'
import { setImmediate as yieldToLoop } from 'node:timers/promises'
import { ZodArray, ZodObject, type ZodType } from 'zod'

/** How long a slice may hold the event loop. */
const SLICE_MS = 4
/** Arrays shorter than this are checked and written in one go, as before. */
const LONG_ARRAY = 256

interface Clock {
  last: number
}

async function yieldIfDue(clock: Clock): Promise<void> {
  if (performance.now() - clock.last < SLICE_MS) return
  await yieldToLoop()
  clock.last = performance.now()
}

/** An object schema whose output is its fields' outputs alone: no object-wide check, unknown keys dropped. */
const plainObject = (schema: ZodType): schema is ZodObject =>
  schema instanceof ZodObject &&
  schema._zod.def.catchall === undefined &&
  (schema._zod.def.checks ?? []).length === 0

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** An array schema that checks nothing of the array as a whole (no length bounds), so elements stand alone. */
const elementsAlone = (schema: ZodType): schema is ZodArray =>
  schema instanceof ZodArray && (schema._zod.def.checks ?? []).length === 0

/**
 * The JSON of `schema.parse(value)` when `value` holds a long array somewhere the walk reaches (an array
 * field of an object field of …), else undefined: the caller parses and stringifies it whole.
 */
async function slicedPart(schema: ZodType, value: unknown, clock: Clock): Promise<string | undefined> {
  if (elementsAlone(schema) && Array.isArray(value) && value.length >= LONG_ARRAY) {
    const element = schema.element as ZodType
    const parts: string[] = []
    for (const item of value) {
      parts.push(JSON.stringify(element.parse(item)))
      await yieldIfDue(clock)
    }
    return `[${parts.join(',')}]`
  }
  if (!plainObject(schema) || !isPlainObject(value)) return undefined
  const shape = schema.shape as Record<string, ZodType>
  const sliced = new Map<string, string>()
  for (const [key, field] of Object.entries(shape)) {
    const part = await slicedPart(field, value[key], clock)
    if (part !== undefined) sliced.set(key, part)
  }
  if (sliced.size === 0) return undefined
  // Built as zod builds an object's output (its shape's keys in order, each field parsed, unknown keys
  // dropped), with a random token in each sliced field's place; the token is then replaced by its JSON.
  const built: Record<string, unknown> = {}
  const tokens = new Map<string, string>()
  for (const [key, field] of Object.entries(shape)) {
    const part = sliced.get(key)
    if (part !== undefined) {
      const token = `\u0000sliced-${randomBytes(12).toString('hex')}`
      built[key] = token
      tokens.set(JSON.stringify(token), part)
    } else {
      const parsed: unknown = field.parse(value[key])
      if (parsed !== undefined) built[key] = parsed
    }
  }
  let text = JSON.stringify(built)
  for (const [token, part] of tokens) text = text.replace(token, () => part)
  return text
}

/** `JSON.stringify(schema.parse(value))`, written in slices that let other requests run between them. */
export async function slicedJson(schema: ZodType, value: unknown): Promise<string> {
  const clock = { last: performance.now() }
  return (await slicedPart(schema, value, clock)) ?? JSON.stringify(schema.parse(value))
}
