// A REST operation, defined once: its route, its zod schemas and its handler. The HTTP adapter serves it
// under /api/v1, the OpenAPI document describes it, and the MCP adapter invokes it in process for a caller
// already authenticated. Both run the same validation (params, then body, then query, as Fastify orders
// them), the same service and the same response schema, and answer the same status and body.
import type { z, ZodObject, ZodRawShape, ZodType } from 'zod'
import type { PartnerCaller } from '../domain/caller.js'
import type { Deps } from '../domain/deps.js'
import type { ErrorCode } from '../domain/errors.js'
import type { ReplayGuard } from '../domain/idempotency.js'
import { DataEnvelope } from '../schemas/common.js'
import { answerError, type Answer, type FaultLog } from './answer.js'
import { validate } from './validation.js'

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE'

type Output<T> = T extends ZodType ? z.output<T> : undefined

interface OperationInput<P, Q, B> {
  caller: PartnerCaller
  params: Output<P>
  query: Output<Q>
  body: Output<B>
}

/** What a handler returns: the data, or with fields `beside` it, the whole body. */
type Result<D extends ZodType, E> = E extends ZodRawShape
  ? { data: z.input<D> } & z.input<ZodObject<E>>
  : z.input<D>

export interface Operation<
  P extends ZodObject | undefined = ZodObject | undefined,
  Q extends ZodObject | undefined = ZodObject | undefined,
  B extends ZodObject | undefined = ZodObject | undefined,
  D extends ZodType = ZodType,
  E extends ZodRawShape | undefined = ZodRawShape | undefined,
> {
  method: Method
  /** Under the API base, with `{param}` placeholders, as the OpenAPI document writes it. */
  path: string
  operationId: string
  tags: string[]
  summary: string
  /** Longer than the summary: rules, events emitted, what to retry. The document falls back to the summary. */
  description?: string
  params?: P
  query?: Q
  body?: B
  /** Checks the body instead of `body`, which the document still shows (the games batch: see its route). */
  bodyCheck?: ZodType
  /** The success status; 200 unless given. */
  status?: 200 | 201 | 202
  /** The response's `data`. */
  data: D
  /**
   * Fields answered beside `data` (a page's `nextCursor`); the handler then returns the whole body, `data`
   * included. Keeps `data` what the spec says it is while a response gains fields.
   */
  beside?: E
  /**
   * A RefDesk extension: an additive operation beyond the spec's. The document marks it
   * `x-refdesk-extension: true`, and it has no MCP tool (the MCP server keeps the spec's 20).
   */
  extension?: true
  /** What the success response holds, for the document (a generic line otherwise). */
  responseDescription?: string
  /** A request body the document shows; without it one is built from the body schema. */
  requestExample?: B extends ZodType ? z.input<B> : never
  /**
   * The route honours an `Idempotency-Key` header (a retry with the same key and body replays the first
   * answer). The spec calls these operations non-idempotent; the header is how a partner retries them safely.
   * The value is the request's replay guard: what a replay re-checks first (access to what the request
   * addressed) and which secrets the kept answer must not store.
   */
  idempotencyKey?: (input: OperationInput<P, Q, B>) => ReplayGuard
  /** Codes only a replay answers (its guard's), for the document; the MCP tools take no key. */
  replayErrors?: readonly ErrorCode[]
  /**
   * The answer is one of the spec's unpaged lists, megabytes for a big league: the HTTP adapter checks and
   * writes it in slices that let other requests run between them (http/sliced-json.ts).
   */
  unbounded?: true
  /** Error codes besides 401 `unauthorized`, for the document and the MCP tool's description. */
  errors: readonly ErrorCode[]
  handle(deps: Deps, input: OperationInput<P, Q, B>): Promise<Result<D, E>>
}

/** The success body: `{data}`, or the whole body a handler with fields `beside` its data returns. */
export function bodyOf(operation: Operation, result: unknown): unknown {
  return operation.beside ? result : { data: result }
}

/** Defines an operation, typing its handler's input and result from its schemas. */
export function defineOperation<
  P extends ZodObject | undefined = undefined,
  Q extends ZodObject | undefined = undefined,
  B extends ZodObject | undefined = undefined,
  D extends ZodType = ZodType,
  E extends ZodRawShape | undefined = undefined,
>(operation: Operation<P, Q, B, D, E>): Operation {
  return operation as unknown as Operation
}

/** The handler's input as the transport parsed it; the operation's own schemas typed it. */
export type ParsedInput = OperationInput<ZodObject, ZodObject, ZodObject>

const envelopes = new WeakMap<Operation, ZodType>()

/** The whole success body's schema, `{data}`, built once per operation. */
export function envelopeOf(operation: Operation): ZodType {
  let envelope = envelopes.get(operation)
  if (!envelope) {
    const description = operation.responseDescription ?? 'The result, in `data`.'
    const body = DataEnvelope(operation.data).extend(operation.beside ?? {})
    envelopes.set(operation, (envelope = body.meta({ description })))
  }
  return envelope
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
  log: FaultLog,
): Promise<Answer> {
  try {
    const params = operation.params ? validate(operation.params, 'params', input.params) : {}
    const body = operation.body
      ? validate(operation.bodyCheck ?? operation.body, 'body', input.body)
      : undefined
    const query = operation.query ? validate(operation.query, 'querystring', input.query) : {}
    const result = await operation.handle(deps, { caller, params, query, body } as ParsedInput)
    return { status: operation.status ?? 200, body: envelopeOf(operation).parse(bodyOf(operation, result)) }
  } catch (error) {
    return answerError(error, log)
  }
}
