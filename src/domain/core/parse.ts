// zod issues → the spec's error codes. Every input field's schema carries its code as the zod message,
// so the first issue names the answer; used by the HTTP validator and by services that parse items one
// by one (the games batch).
import type { ZodType } from 'zod'
import { ApiError, isErrorCode, SUFFIXED_CODES } from './errors.js'

/** The first zod issue as an ApiError; a message that is not a catalogued code falls back to `invalid_<field>`. */
export function issueToError(issue: { message: string; path: readonly PropertyKey[] } | undefined): ApiError {
  if (!issue) return new ApiError('invalid_json')
  const suffixed = SUFFIXED_CODES.find((code) => issue.message.startsWith(`${code}:`))
  if (suffixed) return new ApiError(suffixed, issue.message.slice(suffixed.length + 1))
  if (isErrorCode(issue.message)) return new ApiError(issue.message)
  const field = `invalid_${String(issue.path[0] ?? 'json')}`
  return new ApiError(isErrorCode(field) ? field : 'invalid_json')
}

export function parseWith<T extends ZodType>(schema: T, data: unknown): ReturnType<T['parse']> {
  const result = schema.safeParse(data)
  if (!result.success) throw issueToError(result.error.issues[0])
  return result.data as ReturnType<T['parse']>
}
