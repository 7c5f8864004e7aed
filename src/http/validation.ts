// The Fastify side of request validation: the operations' zod checks as schema compilers.
import type { FastifySchemaCompiler } from 'fastify'
import type { ZodType } from 'zod'
import { check } from '../operations/validation.js'

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
