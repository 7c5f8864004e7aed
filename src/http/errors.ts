// The one error handler. Tier 1: ApiError → its status and code. Tier 2: Fastify's own client errors
// mapped to spec codes, so Fastify's 413/415 and its error shape never reach a partner. Tier 3: a fault,
// logged with the request id and answered with a plain 500.
import type { FastifyBaseLogger, FastifyError, FastifyInstance } from 'fastify'
import { ApiError } from '../domain/errors.js'

export const INTERNAL_ERROR = { error: 'internal_error' } as const

/** What REST answers: a status and the JSON body. */
export interface Answer {
  status: number
  body: unknown
}

/** Tiers 1 and 3 outside a request: an ApiError's own status and code, anything else a logged plain 500. */
export function answerError(error: unknown, log: FastifyBaseLogger): Answer {
  if (error instanceof ApiError) return { status: error.status, body: error.body }
  log.error({ err: error }, 'unhandled error')
  return { status: 500, body: INTERNAL_ERROR }
}

function clientErrorFor(error: FastifyError): ApiError | undefined {
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return new ApiError('body_too_large')
  if (error.code?.startsWith('FST_ERR_CTP_') || error instanceof SyntaxError)
    return new ApiError('invalid_json')
  if (error.statusCode === 404 || error.code === 'FST_ERR_BAD_URL') return new ApiError('not_found')
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
    return new ApiError('invalid_json')
  }
  return undefined
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const apiError = error instanceof ApiError ? error : clientErrorFor(error)
    const { status, body } = answerError(apiError ?? error, request.log)
    return reply.status(status).send(body)
  })
  app.setNotFoundHandler((_request, reply) => reply.status(404).send(new ApiError('not_found').body))
}
