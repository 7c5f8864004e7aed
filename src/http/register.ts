// The operations as Fastify routes of the /api/v1 plugin: schemas for validation, serialization and the
// OpenAPI document, and a handler that runs the operation for the authenticated caller. Operations marked
// `idempotencyKey` also honour an `Idempotency-Key` header (domain/partners/idempotency.ts).
import { Readable } from 'node:stream'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import type { Deps } from '../domain/core/deps.js'
import { ApiError, type ErrorCode } from '../domain/core/errors.js'
import { runOnce, type KeptAnswer } from '../domain/partners/idempotency.js'
import { envelopeOf, splitResult, type Operation, type ParsedInput } from '../operations/operation.js'
import { errorResponses } from './openapi.js'
import { slicedJsonChunks } from './sliced-json.js'
import { checkingBodyWith } from './validation.js'

const IDEMPOTENCY_KEY_LENGTH = 255

const IDEMPOTENCY_ERRORS: ErrorCode[] = [
  'invalid_idempotency_key',
  'idempotency_key_reused',
  'idempotency_key_in_use',
]

// Loose: every other header passes through untouched.
const IdempotencyHeaders = z.looseObject({
  'idempotency-key': z
    .string({ error: 'invalid_idempotency_key' })
    .regex(/^[\x21-\x7e]+$/, { error: 'invalid_idempotency_key' })
    .max(IDEMPOTENCY_KEY_LENGTH, { error: 'invalid_idempotency_key' })
    .optional()
    .meta({
      description: `Up to ${IDEMPOTENCY_KEY_LENGTH} printable ASCII characters, unique per request you mean (a UUID): a retry with the same key and the same request within 24 h replays the first answer, status and body, with \`Idempotent-Replayed: true\`, and acts no second time. The same key with a different request answers idempotency_key_reused; while the first request still runs, idempotency_key_in_use. Keys belong to your API key.`,
      example: '4f1c2f5e-7d1a-4a8e-9b7e-2f0c1d9e8a61',
      'x-refdesk-extension': true,
    }),
})

export function registerOperations(app: FastifyInstance, deps: Deps, operations: readonly Operation[]): void {
  for (const operation of operations) {
    const { operationId } = operation
    const status = operation.status ?? 200
    const bodyCheck = operation.bodyCheck
    const errors: ErrorCode[] = [
      ...operation.errors,
      // An id that cannot be decoded matches no route at all.
      ...(operation.params ? (['not_found'] as const) : []),
      ...(operation.idempotencyKey ? [...IDEMPOTENCY_ERRORS, ...(operation.replayErrors ?? [])] : []),
    ]
    app.route({
      method: operation.method,
      url: operation.path.replace(/\{(\w+)\}/g, ':$1'),
      schema: {
        operationId,
        tags: operation.tags,
        summary: operation.summary,
        ...(operation.description !== undefined && { description: operation.description }),
        ...(operation.params && { params: operation.params }),
        ...(operation.query && { querystring: operation.query }),
        ...(operation.body && { body: operation.body }),
        ...(operation.idempotencyKey && { headers: IdempotencyHeaders }),
        response: { [status]: envelopeOf(operation), ...errorResponses(...errors) },
      },
      ...(bodyCheck && { validatorCompiler: checkingBodyWith(bodyCheck) }),
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const input = {
          caller: request.caller,
          params: request.params,
          query: request.query,
          body: request.body,
        } as ParsedInput
        const guardOf = operation.idempotencyKey
        const key = guardOf ? request.headers['idempotency-key'] : undefined
        if (typeof key !== 'string' || !guardOf) {
          if (operation.stream) {
            // Its long lists are read page by page from one snapshot as they are written, in slices (see
            // domain/core/streamed.ts and sliced-json.ts); the snapshot ends however the writing ends.
            const streamed = await operation.stream(deps, input)
            let chunks: Buffer[]
            try {
              chunks = await slicedJsonChunks(
                envelopeOf(operation),
                splitResult(operation, streamed.result).body,
              )
            } finally {
              await streamed.done()
            }
            return sendChunks(reply.code(status), chunks)
          }
          const { body, next } = splitResult(operation, await operation.handle(deps, input))
          if (next !== null) reply.header('link', nextLink(request.url, next))
          if (!operation.unbounded) return reply.code(status).send(body)
          // The very text the serializer would write, in slices (see sliced-json.ts), already UTF-8: a
          // megabytes-long string would be encoded in one go on the way out.
          return sendChunks(reply.code(status), await slicedJsonChunks(envelopeOf(operation), body))
        }
        const { params, query, body } = input
        const answer = await runOnce(
          deps,
          request.caller,
          key,
          { operationId, params, query, body },
          guardOf(input),
          () => answerOf(operation, deps, input),
        )
        if (answer.replayed) reply.header('idempotent-replayed', 'true')
        // Already JSON: sent as is, so a replay is byte for byte the first answer.
        return reply.code(answer.status).type('application/json; charset=utf-8').send(answer.body)
      },
    })
  }
}

/**
 * A JSON answer already written as UTF-8 buffers, sent as they are: joined, megabytes would be copied in
 * one go. Its length is known, so it goes out with Content-Length as the serializer's answer did.
 */
function sendChunks(reply: FastifyReply, chunks: readonly Buffer[]): FastifyReply {
  const length = chunks.reduce((sum, chunk) => sum + chunk.length, 0)
  return reply
    .type('application/json; charset=utf-8')
    .header('content-length', length)
    .send(Readable.from(chunks, { objectMode: false }))
}

/** The operation's answer as JSON text; a refusal is an answer too, a fault is thrown. */
async function answerOf(operation: Operation, deps: Deps, input: ParsedInput): Promise<KeptAnswer> {
  try {
    const { body: result } = splitResult(operation, await operation.handle(deps, input))
    const body = envelopeOf(operation).parse(result)
    return { status: operation.status ?? 200, body: JSON.stringify(body) }
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, body: JSON.stringify(error.body) }
    throw error
  }
}

/**
 * The next page's address as RFC 8288 writes it: this request's path and query with `cursor` replaced, a
 * reference relative to the request's own URL, so it holds behind any proxy that keeps the path.
 */
function nextLink(requestUrl: string, cursor: string): string {
  const url = new URL(requestUrl, 'http://x')
  url.searchParams.set('cursor', cursor)
  return `<${url.pathname}${url.search}>; rel="next"`
}
