// What an operation answers, whichever transport runs it: a status and the JSON body. A refusal is its
// ApiError's status and code; anything else is a fault, logged and answered with a plain 500.
import { ApiError } from '../domain/core/errors.js'

const INTERNAL_ERROR = { error: 'internal_error' } as const

export interface Answer {
  status: number
  body: unknown
}

/** Where a fault is logged: pino's logger, Fastify's request logger, or a test's. */
export interface FaultLog {
  error(obj: object, msg: string): void
}

export function answerError(error: unknown, log: FaultLog): Answer {
  if (error instanceof ApiError) return { status: error.status, body: error.body }
  log.error({ err: error }, 'unhandled error')
  return { status: 500, body: INTERNAL_ERROR }
}
