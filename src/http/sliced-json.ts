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
const SLICE_MS = 2
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

/** A list given a page at a time (domain/core/streamed.ts), written as its pages come. */
const isPages = (value: unknown): value is AsyncIterable<readonly unknown[]> =>
  typeof value === 'object' && value !== null && Symbol.asyncIterator in value

/** Whether the walk below reaches a long array or pages in `value`: else the value is parsed and written whole. */
function sliceable(schema: ZodType, value: unknown): boolean {
  if (elementsAlone(schema) && isPages(value)) return true
  if (elementsAlone(schema) && Array.isArray(value)) return value.length >= LONG_ARRAY
  if (!plainObject(schema) || !isPlainObject(value)) return false
  const shape = schema.shape as Record<string, ZodType>
  return Object.entries(shape).some(([key, field]) => sliceable(field, value[key]))
}

/** Text gathered into buffers of about CHUNK_BYTES, encoded a buffer at a time (never megabytes at once). */
const CHUNK_CHARS = 64 * 1024

class Chunks {
  readonly buffers: Buffer[] = []
  private pending: string[] = []
  private pendingChars = 0

  write(text: string): void {
    this.pending.push(text)
    this.pendingChars += text.length
    if (this.pendingChars >= CHUNK_CHARS) this.flush()
  }

  flush(): Buffer[] {
    if (this.pendingChars > 0) this.buffers.push(Buffer.from(this.pending.join('')))
    this.pending = []
    this.pendingChars = 0
    return this.buffers
  }
}

/**
 * Writes the JSON of `schema.parse(value)`, slicing where the value holds a long array somewhere the walk
 * reaches (an array field of an object field of …).
 */
async function writeSliced(schema: ZodType, value: unknown, out: Chunks, clock: Clock): Promise<void> {
  if (!sliceable(schema, value)) {
    out.write(JSON.stringify(schema.parse(value)))
    await yieldIfDue(clock)
    return
  }
  if (elementsAlone(schema) && (isPages(value) || Array.isArray(value))) {
    const element = schema.element as ZodType
    // A long array is a list of one page.
    const pages: AsyncIterable<readonly unknown[]> | (readonly unknown[])[] = isPages(value) ? value : [value]
    out.write('[')
    let first = true
    for await (const page of pages)
      for (const item of page) {
        if (!first) out.write(',')
        first = false
        out.write(JSON.stringify(element.parse(item)))
        await yieldIfDue(clock)
      }
    out.write(']')
    return
  }
  // Sliceable and not an array: a plain object schema over a plain object (see sliceable).
  const object = schema as ZodObject
  const fields = value as Record<string, unknown>
  const shape = object.shape as Record<string, ZodType>
  // Built as zod builds an object's output (its shape's keys in order, each field parsed, unknown keys
  // dropped), with a random token in each sliced field's place; the text is written up to each token,
  // then that field in slices, then on.
  const built: Record<string, unknown> = {}
  const sliced: { token: string; field: ZodType; value: unknown }[] = []
  for (const [key, field] of Object.entries(shape)) {
    if (sliceable(field, fields[key])) {
      const token = `\u0000sliced-${randomBytes(12).toString('hex')}`
      built[key] = token
      sliced.push({ token: JSON.stringify(token), field, value: fields[key] })
    } else {
      const parsed: unknown = field.parse(fields[key])
      if (parsed !== undefined) built[key] = parsed
    }
  }
  let rest = JSON.stringify(built)
  for (const part of sliced) {
    const at = rest.indexOf(part.token)
    out.write(rest.slice(0, at))
    await writeSliced(part.field, part.value, out, clock)
    rest = rest.slice(at + part.token.length)
  }
  out.write(rest)
}

/**
 * `JSON.stringify(schema.parse(value))` as UTF-8 buffers, written in slices that let other requests run
 * between them; the buffers' concatenation is byte for byte that text's.
 */
export async function slicedJsonChunks(schema: ZodType, value: unknown): Promise<Buffer[]> {
  const out = new Chunks()
  await writeSliced(schema, value, out, { last: performance.now() })
  return out.flush()
}

/** `JSON.stringify(schema.parse(value))`, written in slices that let other requests run between them. */
export async function slicedJson(schema: ZodType, value: unknown): Promise<string> {
  return Buffer.concat(await slicedJsonChunks(schema, value)).toString()
}
