// The MCP server: one tool per REST operation. Arguments go to REST as the agent sent them (REST
// validates and answers with its own error codes); a REST error is an `isError` result whose text is the
// REST body, unchanged. A server holds no state, so each HTTP request that needs one gets its own; a
// plain tools/call, the request agents send most, is answered without one (`answerToolCall`).
import { readFileSync } from 'node:fs'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv'
import {
  CallToolRequestSchema,
  ErrorCode,
  JSONRPCRequestSchema,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type JSONRPCResponse,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'
import { ApiError } from '../domain/core/errors.js'
import { NextCursor } from '../schemas/common.js'
import { mcpToolCalls } from '../metrics.js'
import type { Operation } from '../operations/operation.js'
import type { Forward, RestCall } from './forward.js'
import { errorsLine } from './error-hints.js'
import { Confirm, RestFailure, TOOL_PREFIX, segment, type Args, type ToolSpec } from './tool.js'
import { assignmentTools } from './tools/assignments.js'
import { gameTools } from './tools/games.js'
import { leagueTools } from './tools/leagues.js'
import { officialTools } from './tools/officials.js'
import { paymentTools } from './tools/payments.js'
import { planTools } from './tools/plans.js'
import { webhookTools } from './tools/webhooks.js'

export const TOOLS: readonly ToolSpec[] = [
  ...leagueTools,
  ...gameTools,
  ...officialTools,
  ...assignmentTools,
  ...paymentTools,
  ...webhookTools,
  ...planTools,
]

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string
}

const guarded = TOOLS.filter((spec) => spec.preview).map((spec) => spec.name)

export const INSTRUCTIONS = `RefDesk schedules sports officials. Each of the ${TOOLS.length} tools runs one Partner API v1 operation (the assignor’s four, which suggest officials, plan a window, read a plan again and publish it, one RefDesk extension each) with your API key’s scope: you see and change only your source’s leagues (and leagues granted to you); any other id answers exactly like a nonexistent one. Start with refdesk_list_leagues. Errors come back as {"error":"<code>"}; each tool’s description lists its codes and what to do about them. Destructive tools (${guarded.join(', ')}) change nothing unless called with confirm: true; without it they return a preview to show the user first.`

// Path ids say which tool hands them out, so an agent knows where to look.
const ID_HINTS: Record<string, string> = {
  leagueId: 'League id, from refdesk_list_leagues or refdesk_upsert_league.',
  gameId: 'Game id, from refdesk_list_games, refdesk_get_league or refdesk_upsert_games.',
  userId: 'The official’s userId, from refdesk_list_officials.',
  positionId: 'Position id, from refdesk_get_game or refdesk_list_assignments.',
  planId: 'Plan id, from refdesk_plan_assignments.',
  webhookId: 'Webhook endpoint id, from refdesk_list_webhooks or refdesk_create_webhook.',
}

function inputSchema(spec: ToolSpec): z.ZodObject {
  const { params, query, body } = spec.operation
  const ids = { ...params?.shape, ...query?.shape }
  const hinted = Object.fromEntries(
    Object.entries(ids).map(([key, schema]) => [
      key,
      ID_HINTS[key] ? schema.meta({ description: ID_HINTS[key] }) : schema,
    ]),
  )
  return z.object({
    ...hinted,
    ...body?.shape,
    ...(spec.preview && { confirm: Confirm }),
  })
}

function outputSchema(spec: ToolSpec): z.ZodObject {
  return spec.preview
    ? z.object({
        data: spec.operation.data
          .optional()
          .meta({ description: 'The REST result, when called with confirm: true.' }),
        preview: spec.preview.schema
          .optional()
          .meta({ description: 'What would change, when not confirmed.' }),
      })
    : z.object({ data: spec.operation.data, ...(spec.operation.paged && { nextCursor: NextCursor }) })
}

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output') =>
  z.toJSONSchema(schema, { target: 'draft-7', io }) as Tool['inputSchema']

/** The tools as MCP lists them; built once, shared by every server. */
export const TOOL_LIST: Tool[] = TOOLS.map((spec) => ({
  name: `${TOOL_PREFIX}${spec.name}`,
  title: spec.title,
  description: [spec.description, errorsLine(spec.operation.errors)].filter(Boolean).join('\n'),
  inputSchema: jsonSchema(inputSchema(spec), 'input'),
  outputSchema: jsonSchema(outputSchema(spec), 'output'),
  annotations: { title: spec.title, ...spec.annotations },
}))

const BY_NAME = new Map(TOOLS.map((spec) => [`${TOOL_PREFIX}${spec.name}`, spec]))

// Each Server would otherwise build its own Ajv instance, a fifth of a stateless request's CPU time.
const validator = new AjvJsonSchemaValidator()

export function createMcpServer(forward: Forward): Server {
  const server = new Server(
    { name: 'refdesk', title: 'RefDesk Partner API', version },
    {
      capabilities: { tools: { listChanged: false } },
      instructions: INSTRUCTIONS,
      jsonSchemaValidator: validator,
    },
  )
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOL_LIST }))
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const spec = BY_NAME.get(request.params.name)
    if (!spec) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`)
    return callTool(spec, request.params.arguments ?? {}, forward)
  })
  return server
}

/**
 * The answer to a single JSON-RPC tools/call of a known tool, exactly as a Server would send it (its
 * request and result checks, its response shape), without building one: the Server's own per-request work
 * cost more than the REST call the tool makes. Anything else (initialize, tools/list, notifications,
 * batches, unknown tools, malformed or task-augmented calls) is undefined, for a Server to answer.
 */
export function answerToolCall(message: unknown, forward: Forward): Promise<JSONRPCResponse> | undefined {
  const request = JSONRPCRequestSchema.safeParse(message)
  if (!request.success || request.data.method !== 'tools/call') return undefined
  const call = CallToolRequestSchema.safeParse(request.data)
  if (!call.success || call.data.params.task !== undefined) return undefined
  const spec = BY_NAME.get(call.data.params.name)
  if (!spec) return undefined
  const { id } = request.data
  return callTool(spec, call.data.params.arguments ?? {}, forward).then(
    (result) => ({ result, jsonrpc: '2.0' as const, id }),
    (error: Error) => ({
      jsonrpc: '2.0' as const,
      id,
      error: { code: ErrorCode.InternalError, message: error.message ?? 'Internal error' },
    }),
  )
}

async function callTool(spec: ToolSpec, args: Args, forward: Forward): Promise<CallToolResult> {
  const result = await runTool(spec, args, forward)
  const outcome = result.isError
    ? 'error'
    : result.structuredContent?.preview !== undefined
      ? 'preview'
      : 'ok'
  mcpToolCalls.inc({ tool: spec.name, outcome })
  return result
}

async function runTool(spec: ToolSpec, args: Args, forward: Forward): Promise<CallToolResult> {
  try {
    if (spec.preview && args.confirm !== true)
      return success({ preview: await spec.preview.build(args, forward) })
    const res = await forward(restCall(spec.operation, args))
    if (res.status >= 400) return failure(res.body)
    // A page's `nextCursor` (REST's Link header) reaches the agent beside `data`.
    const body = res.body as { data: unknown; nextCursor?: string | null }
    return success(
      spec.operation.paged ? { data: body.data, nextCursor: body.nextCursor ?? null } : { data: body.data },
    )
  } catch (error) {
    if (error instanceof RestFailure) return failure(error.body)
    if (error instanceof ApiError) return failure(error.body)
    throw error
  }
}

/** The arguments routed as a URL would carry them: path ids and query values as strings, the rest as body. */
function restCall(operation: Operation, args: Args): RestCall {
  const params = Object.keys(operation.params?.shape ?? {})
  const query = Object.keys(operation.query?.shape ?? {})
  const routed = new Set([...params, ...query, 'confirm'])
  return {
    operation,
    params: Object.fromEntries(params.map((key) => [key, segment(args[key])])),
    query: Object.fromEntries(
      query.flatMap((key) =>
        args[key] === undefined || args[key] === null ? [] : [[key, String(args[key])]],
      ),
    ),
    ...(operation.body && {
      body: Object.fromEntries(Object.entries(args).filter(([key]) => !routed.has(key))),
    }),
  }
}

function success(structured: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured }
}

// Keys in the order the SDK's result schema writes them, so both ways of answering send the same bytes.
function failure(body: unknown): CallToolResult {
  return {
    content: [{ type: 'text', text: typeof body === 'string' ? body : JSON.stringify(body) }],
    isError: true,
  }
}
