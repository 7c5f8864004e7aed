// Request validation with the zod schemas: the first failing field's code, and a body that is not a JSON
// object is `invalid_json`. The Fastify validator and in-process invocations both check with this.
import type { ZodType } from 'zod'
import { ApiError } from '../domain/core/errors.js'
import { issueToError } from '../domain/core/parse.js'
import { isOptionalBody } from '../schemas/common.js'

/** The parts of a request, named as Fastify names them. */
export type RequestPart = 'params' | 'body' | 'querystring' | 'headers'

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** One part of a request checked against its schema. */
export function check(
  schema: ZodType,
  part: string | undefined,
  data: unknown,
): { value: unknown; error?: undefined } | { error: ApiError } {
  // Fastify hands a validator `null` for a request without a body.
  if (part === 'body' && (data === undefined || data === null) && isOptionalBody(schema)) data = {}
  if (part === 'body' && !isPlainObject(data)) return { error: new ApiError('invalid_json') }
  const result = schema.safeParse(data)
  return result.success ? { value: result.data } : { error: issueToError(result.error.issues[0]) }
}

/** The same check outside a request: the parsed value, or the ApiError REST would answer. */
export function validate(schema: ZodType, part: RequestPart, data: unknown): unknown {
  const result = check(schema, part, data)
  if (result.error) throw result.error
  return result.value
}
