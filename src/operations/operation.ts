// A REST operation, defined once: its route, its zod schemas and its handler. The HTTP adapter serves it
// under /api/v1, the OpenAPI document describes it, and the MCP adapter invokes it in process for a caller
// already authenticated. Both run the same validation (params, then body, then query, as Fastify orders
// them), the same service and the same response schema, and answer the same status and body.
import type { z, ZodObject, ZodType } from 'zod'
import type { PartnerCaller } from '../domain/core/caller.js'
import type { Deps } from '../domain/core/deps.js'
import type { ErrorCode } from '../domain/core/errors.js'
import type { ReplayGuard } from '../domain/partners/idempotency.js'
import type { Streamed } from '../domain/core/streamed.js'
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

/** What a handler returns: the data, or for a paged operation the page and the next page's cursor. */
type Result<D extends ZodType, G> = G extends true ? Page<z.input<D>> : z.input<D>

/** A page of a listing and the cursor of the next page (null on the last). */
interface Page<T = unknown> {
  data: T
  nextCursor: string | null
}

export interface Operation<
  P extends ZodObject | undefined = ZodObject | undefined,
  Q extends ZodObject | undefined = ZodObject | undefined,
  B extends ZodObject | undefined = ZodObject | undefined,
  D extends ZodType = ZodType,
  G extends true | undefined = true | undefined,
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
   * A listing in pages: the handler returns `{data, nextCursor}`. REST answers `{data}` alone (the spec's
   * envelope never changes within v1) and the next page's address in a `Link: <…>; rel="next"` header;
   * the MCP tool's result carries `nextCursor` beside `data`.
   */
  paged?: G
  /**
   * A RefDesk extension: an additive operation beyond the spec's. The document marks it
   * `x-refdesk-extension: true`; it has no MCP tool but the assignor's four (DESIGN).
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
  /**
   * For an unbounded list: the handler's result with its long lists as pages, read while the HTTP adapter
   * writes them (domain/core/streamed.ts); `handle` is this result made whole.
   */
  stream?(deps: Deps, input: OperationInput<P, Q, B>): Promise<Streamed<unknown>>
  /** Error codes besides 401 `unauthorized`, for the document and the MCP tool's description. */
  errors: readonly ErrorCode[]
  handle(deps: Deps, input: OperationInput<P, Q, B>): Promise<Result<D, G>>
}

/** The handler's result as the REST body `{data}` and, for a paged operation, the next page's cursor. */
export function splitResult(
  operation: Operation,
  result: unknown,
): { body: { data: unknown }; next: string | null } {
  if (!operation.paged) return { body: { data: result }, next: null }
  const page = result as Page
  return { body: { data: page.data }, next: page.nextCursor }
}

/** Defines an operation, typing its handler's input and result from its schemas. */
export function defineOperation<
  P extends ZodObject | undefined = undefined,
  Q extends ZodObject | undefined = undefined,
  B extends ZodObject | undefined = undefined,
  D extends ZodType = ZodType,
  G extends true | undefined = undefined,
>(operation: Operation<P, Q, B, D, G>): Operation {
  return operation as unknown as Operation
}

/** The handler's input as the transport parsed it; the operation's own schemas typed it. */
export type ParsedInput = OperationInput<ZodObject, ZodObject, ZodObject>

const envelopes = new WeakMap<Operation, ZodType>()

/** The REST success body's schema, `{data}`, built once per operation. */
export function envelopeOf(operation: Operation): ZodType {
  let envelope = envelopes.get(operation)
  if (!envelope) {
    const description = operation.responseDescription ?? 'The result, in `data`.'
    envelopes.set(operation, (envelope = DataEnvelope(operation.data).meta({ description })))
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
    const split = splitResult(operation, result)
    const answer = envelopeOf(operation).parse(split.body) as object
    // In process there are no headers: a page's cursor rides beside `data`, as the MCP tool shows it.
    return {
      status: operation.status ?? 200,
      body: operation.paged ? { ...answer, nextCursor: split.next } : answer,
    }
  } catch (error) {
    return answerError(error, log)
  }
}
