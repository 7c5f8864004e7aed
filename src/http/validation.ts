// Request validation with the zod schemas; a body that is not a JSON object is `invalid_json`.
import type { FastifySchemaCompiler } from 'fastify'
import type { ZodType } from 'zod'
import { ApiError } from '../domain/errors.js'
import { issueToError } from '../schemas/parse.js'

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

export const validatorCompiler: FastifySchemaCompiler<ZodType> =
  ({ schema, httpPart }) =>
  (data) => {
    if (httpPart === 'body' && !isPlainObject(data)) return { error: new ApiError('invalid_json') }
    const result = schema.safeParse(data)
    return result.success ? { value: result.data } : { error: issueToError(result.error.issues[0]) }
  }
