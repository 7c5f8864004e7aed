// Reading submitted forms and query strings defensively: anything unexpected reads as absent.
import type { FastifyRequest } from 'fastify'

/** A form field as a string, or '' when missing or repeated. */
export function field(request: FastifyRequest, name: string): string {
  const value = (request.body as Record<string, unknown> | undefined)?.[name]
  return typeof value === 'string' ? value : ''
}

const ID = /^[a-z0-9]{1,64}$/

/** An id field: anything that is not id-shaped names nothing (and never reaches the database). */
export function idField(request: FastifyRequest, name: string): string {
  const value = field(request, name)
  return ID.test(value) ? value : 'unknown'
}

/** A repeated form field (checkboxes) as its id-shaped values; anything else is dropped. */
export function idList(request: FastifyRequest, name: string): string[] {
  const value = (request.body as Record<string, unknown> | undefined)?.[name]
  const values = Array.isArray(value) ? value : [value]
  return values.filter((v): v is string => typeof v === 'string' && ID.test(v))
}

export function isId(value: string): boolean {
  return ID.test(value)
}

/** `?page=N` (1 to 10,000), default 1. */
export function pageNumber(request: FastifyRequest): number {
  const value = Number((request.query as Record<string, unknown>).page)
  return Number.isInteger(value) && value >= 1 && value <= 10_000 ? value : 1
}

export function queryString(request: FastifyRequest, name: string): string | undefined {
  const value = (request.query as Record<string, unknown>)[name]
  return typeof value === 'string' ? value : undefined
}
