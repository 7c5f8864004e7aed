// Request validation with the zod schemas, answering the spec's codes: every input field's schema
// carries its code as the zod message, and a body that is not a JSON object is `invalid_json`.
import type { FastifySchemaCompiler } from 'fastify'
import type { ZodType } from 'zod'
import { ApiError, isErrorCode, SUFFIXED_CODES, type ErrorCode } from '../domain/errors.js'

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The first zod issue as an ApiError; a message that is not a catalogued code falls back to `invalid_<field>`. */
export function issueToError(issue: { message: string; path: readonly PropertyKey[] }): ApiError {
  const suffixed = SUFFIXED_CODES.find((code) => issue.message.startsWith(`${code}:`))
  if (suffixed) return new ApiError(suffixed, issue.message.slice(suffixed.length + 1))
  if (isErrorCode(issue.message)) return new ApiError(issue.message)
  const field = `invalid_${String(issue.path[0] ?? 'json')}`
  return new ApiError(isErrorCode(field) ? (field as ErrorCode) : 'invalid_json')
}

export function parseWith<T extends ZodType>(schema: T, data: unknown): ReturnType<T['parse']> {
  const result = schema.safeParse(data)
  if (!result.success) throw issueToError(result.error.issues[0] ?? { message: 'invalid_json', path: [] })
  return result.data as ReturnType<T['parse']>
}

export const validatorCompiler: FastifySchemaCompiler<ZodType> =
  ({ schema, httpPart }) =>
  (data) => {
    if (httpPart === 'body' && !isPlainObject(data)) return { error: new ApiError('invalid_json') }
    const result = schema.safeParse(data)
    if (result.success) return { value: result.data }
    return { error: issueToError(result.error.issues[0] ?? { message: 'invalid_json', path: [] }) }
  }
