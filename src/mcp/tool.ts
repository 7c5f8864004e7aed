// A tool is a REST operation: the operation's zod schemas of its path, query and body (merged into one
// input object) and of its `data`. Destructive tools add a preview built from REST reads.
import { z } from 'zod'
import { ApiError, type ErrorCode } from '../domain/core/errors.js'
import type { Operation } from '../operations/operation.js'
import type { Forward, RestCall } from './forward.js'

export const TOOL_PREFIX = 'refdesk_'

export interface Annotations {
  readOnlyHint: boolean
  destructiveHint: boolean
  idempotentHint: boolean
  openWorldHint: false
}

export const READ: Annotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
}
export const WRITE: Annotations = { ...READ, readOnlyHint: false, idempotentHint: false }
export const UPSERT: Annotations = { ...WRITE, idempotentHint: true }
export const DESTRUCTIVE: Annotations = { ...WRITE, destructiveHint: true }

export type Args = Record<string, unknown>

interface Preview {
  /** The preview's shape; `structuredContent.preview` when `confirm` is not `true`. */
  schema: z.ZodType
  build(args: Args, forward: Forward): Promise<unknown>
}

export interface ToolSpec {
  /** Without the prefix. */
  name: string
  title: string
  description: string
  annotations: Annotations
  /** The REST operation the tool runs; its path, query and body schemas are the tool's input. */
  operation: Operation
  preview?: Preview
}

/** A REST error met while building a preview: it becomes the tool's error result, body unchanged. */
export class RestFailure extends Error {
  constructor(readonly body: unknown) {
    super('rest_failure')
  }
}

/** Ends a preview with the error REST itself would answer for the same arguments. */
export function refuse(code: ErrorCode): never {
  throw new RestFailure(new ApiError(code).body)
}

/** A read through the forwarder; a REST error aborts the preview with that error. */
export async function read<T>(forward: Forward, call: RestCall): Promise<T> {
  const res = await forward(call)
  if (res.status >= 400) throw new RestFailure(res.body)
  return (res.body as { data: T }).data
}

/** An argument as a URL segment carries it: a string as is, anything else as nothing. */
export const segment = (value: unknown): string => (typeof value === 'string' ? value : '')

export const NEXT_STEP =
  'Nothing was changed. Show this preview to the user; to apply it, call the tool again with the same arguments plus "confirm": true.'

export const Confirm = z.boolean().optional().meta({
  description:
    'Must be true to apply the change. Omitted or false: nothing changes and the result is a preview of what would change.',
})
