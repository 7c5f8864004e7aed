// Request validation with the zod schemas; a body that is not a JSON object is `invalid_json`.
import type { FastifySchemaCompiler } from 'fastify'
import type { ZodType } from 'zod'
import { ApiError } from '../domain/errors.js'
import { issueToError } from '../schemas/parse.js'

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** One part of a request (`params`, `body`, `querystring`) checked against its schema. */
function check(schema: ZodType, httpPart: string | undefined, data: unknown) {
  if (httpPart === 'body' && !isPlainObject(data)) return { error: new ApiError('invalid_json') }
  const result = schema.safeParse(data)
  return result.success ? { value: result.data } : { error: issueToError(result.error.issues[0]) }
}

export const validatorCompiler: FastifySchemaCompiler<ZodType> =
  ({ schema, httpPart }) =>
  (data) =>
    check(schema, httpPart, data)

/** The app's compiler, except that the body is checked against `body` instead of the route's own schema. */
export function checkingBodyWith(body: ZodType) {
  return ({ schema, httpPart }: Parameters<FastifySchemaCompiler<unknown>>[0]) =>
    (data: unknown) =>
      check(httpPart === 'body' ? body : (schema as ZodType), httpPart, data)
}

/** The same check outside a request: the parsed value, or the ApiError REST would answer. */
export function validate(schema: ZodType, httpPart: string, data: unknown): unknown {
  const result = check(schema, httpPart, data)
  if (result.error) throw result.error
  return result.value
}
