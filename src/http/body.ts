// The JSON body reader of /api/v1. An empty body parses to `undefined` (a body endpoint then answers
// invalid_json), and an operation that takes no body ignores one of any size and content type, so a
// stray body never adds a status the operation does not document. Bodies are read here rather than by
// Fastify (`parseAs`), whose 1 MiB cap would otherwise answer body_too_large to a stray body too; a stray
// body is drained, never buffered. `__proto__` and `constructor.prototype` keys are dropped rather than
// rejected.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { ApiError } from '../domain/core/errors.js'

export const BODY_LIMIT = 1024 * 1024

export function installJsonParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('remove', 'remove')
  const takesBody = (request: FastifyRequest) =>
    Boolean(request.routeOptions.schema?.body || request.routeOptions.config.jsonBody)
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', (request, payload, done) => {
    if (!takesBody(request)) return drain(payload, done)
    const limit = request.routeOptions.bodyLimit ?? BODY_LIMIT
    readText(payload, limit, Number(request.headers['content-length']), (error, text) => {
      if (error) return done(error, undefined)
      if (text === '') return done(null, undefined)
      // Fastify types a body parser as one that calls `done` or one that returns a promise: the default
      // JSON parser calls `done`, and a promise is settled into the same `done`.
      parse(request, text!, done)?.then(
        (body: unknown) => done(null, body),
        (error: Error) => done(error, undefined),
      )
    })
  })
  // Any other content type (Fastify's text/plain parser included) is no JSON body (invalid_json) where
  // one is taken, and ignored where none is.
  app.removeContentTypeParser('text/plain')
  app.addContentTypeParser('*', (request, payload, done) => {
    if (takesBody(request)) return done(new ApiError('invalid_json'), undefined)
    drain(payload, done)
  })
}

type ParserDone = (error: Error | null, body?: unknown) => void

function drain(payload: NodeJS.ReadableStream, done: ParserDone): void {
  payload.on('error', (error: Error) => done(error, undefined))
  payload.on('end', () => done(null, undefined))
  payload.resume()
}

function readText(
  payload: NodeJS.ReadableStream,
  limit: number,
  declaredLength: number,
  done: (error: Error | null, text?: string) => void,
): void {
  if (declaredLength > limit) return done(new ApiError('body_too_large'))
  const chunks: Buffer[] = []
  let size = 0
  const finish = (error: Error | null, text?: string) => {
    payload.removeListener('data', onData)
    payload.removeListener('end', onEnd)
    payload.removeListener('error', finish)
    done(error, text)
  }
  const onData = (chunk: Buffer | string) => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
    size += bytes.length
    if (size > limit) return finish(new ApiError('body_too_large'))
    chunks.push(bytes)
  }
  // One decode at the end keeps multi-byte characters split across chunks intact.
  const onEnd = () => finish(null, Buffer.concat(chunks, size).toString('utf8'))
  payload.on('data', onData)
  payload.on('end', onEnd)
  payload.on('error', finish)
  payload.resume()
}
