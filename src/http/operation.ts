// A REST operation, defined once: its route, its zod schemas and its handler. Fastify serves it under
// /api/v1; the MCP server invokes it in process for a caller already authenticated. Both run the same
// validation (params, then body, then query, as Fastify orders them), the same service and the same
// response schema, and answer the same status and body.
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { z, ZodObject, ZodType } from 'zod'
import type { PartnerCaller } from '../domain/caller.js'
import type { Deps } from '../domain/deps.js'
import type { ErrorCode } from '../domain/errors.js'
import { DataEnvelope } from '../schemas/common.js'
import { answerError, type Answer } from './errors.js'
import { errorResponses } from './openapi.js'
import { checkingBodyWith, validate } from './validation.js'

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE'

type Output<T> = T extends ZodType ? z.output<T> : undefined

export interface OperationInput<P, Q, B> {
  caller: PartnerCaller
  params: Output<P>
  query: Output<Q>
  body: Output<B>
}

export interface Operation<
  P extends ZodObject | undefined = ZodObject | undefined,
  Q extends ZodObject | undefined = ZodObject | undefined,
  B extends ZodObject | undefined = ZodObject | undefined,
  D extends ZodType = ZodType,
> {
  method: Method
  /** Under the API base, with `{param}` placeholders, as the OpenAPI document writes it. */
  path: string
  operationId: string
  tags: string[]
  summary: string
  description?: string
  params?: P
  query?: Q
  body?: B
  /** Checks the body instead of `body`, which the document still shows (the games batch: see its route). */
  bodyCheck?: ZodType
  /** The success status; 200 unless given. */
  status?: 200 | 201
  /** The response's `data`. */
  data: D
  /** Error codes besides 401 `unauthorized`, for the document. */
  errors: readonly ErrorCode[]
  handle(deps: Deps, input: OperationInput<P, Q, B>): Promise<z.input<D>>
}

/** Defines an operation, typing its handler's input and result from its schemas. */
export function defineOperation<
  P extends ZodObject | undefined = undefined,
  Q extends ZodObject | undefined = undefined,
  B extends ZodObject | undefined = undefined,
  D extends ZodType = ZodType,
>(operation: Operation<P, Q, B, D>): Operation {
  return operation as unknown as Operation
}

const envelopes = new WeakMap<Operation, ZodType>()

/** The whole success body's schema, `{data}`, built once per operation. */
function envelopeOf(operation: Operation): ZodType {
  let envelope = envelopes.get(operation)
  if (!envelope) envelopes.set(operation, (envelope = DataEnvelope(operation.data)))
  return envelope
}

/** Registers the operations as routes of `app` (the /api/v1 plugin). */
export function registerOperations(app: FastifyInstance, deps: Deps, operations: readonly Operation[]): void {
  for (const operation of operations) {
    const status = operation.status ?? 200
    const bodyCheck = operation.bodyCheck
    app.route({
      method: operation.method,
      url: operation.path.replace(/\{(\w+)\}/g, ':$1'),
      schema: {
        operationId: operation.operationId,
        tags: operation.tags,
        summary: operation.summary,
        ...(operation.description !== undefined && { description: operation.description }),
        ...(operation.params && { params: operation.params }),
        ...(operation.query && { querystring: operation.query }),
        ...(operation.body && { body: operation.body }),
        response: { [status]: envelopeOf(operation), ...errorResponses(...operation.errors) },
      },
      ...(bodyCheck && { validatorCompiler: checkingBodyWith(bodyCheck) }),
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const input = {
          caller: request.caller,
          params: request.params,
          query: request.query,
          body: request.body,
        } as OperationInput<ZodObject, ZodObject, ZodObject>
        return reply.code(status).send({ data: await operation.handle(deps, input) })
      },
    })
  }
}

export interface Invocation {
  /** Path parameters and query values as strings, as they would arrive in a URL. */
  params: Readonly<Record<string, string>>
  query: Readonly<Record<string, string>>
  body: unknown
}

/** Runs the operation as its route would for this caller, without an HTTP request. */
export async function invokeOperation(
  operation: Operation,
  deps: Deps,
  caller: PartnerCaller,
  input: Invocation,
  log: FastifyBaseLogger,
): Promise<Answer> {
  try {
    const params = operation.params ? validate(operation.params, 'params', input.params) : {}
    const body = operation.body
      ? validate(operation.bodyCheck ?? operation.body, 'body', input.body)
      : undefined
    const query = operation.query ? validate(operation.query, 'querystring', input.query) : {}
    const data = await operation.handle(deps, { caller, params, query, body } as OperationInput<
      ZodObject,
      ZodObject,
      ZodObject
    >)
    return { status: operation.status ?? 200, body: envelopeOf(operation).parse({ data }) }
  } catch (error) {
    return answerError(error, log)
  }
}
