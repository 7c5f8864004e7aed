// The OpenAPI 3.1 document (@fastify/swagger from the routes' zod schemas), finished by `refineDocument`,
// and each operation's error responses generated from the error catalog, listed by status.
import fastifySwagger from '@fastify/swagger'
import type { FastifyInstance } from 'fastify'
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { ERROR_STATUS, SUFFIXED_CODES, type ErrorCode } from '../domain/core/errors.js'
import type { Operation } from '../operations/operation.js'
import { refineDocument, tagsOf, type Document } from './openapi-document.js'

// Every authenticated operation can answer these: a bad key, and a key over its rate limit.
const COMMON_ERRORS = ['unauthorized', 'rate_limited'] as const satisfies readonly ErrorCode[]

const INTRO = `The Partner REST API v1 of RefDesk, the sports-officiating scheduling service: leagues, batch-imported games, league officials, race-safe assignments and a read-only payout ledger, plus signed webhooks (see \`webhooks\`).

Every request carries \`Authorization: Bearer key_…\`. Success bodies are \`{"data": …}\`; errors are \`{"error":"<code>"}\` with status 400, 401, 404 or 409, and each operation lists its codes. A key over its rate limit gets 429 \`rate_limited\` with \`Retry-After\` (seconds): wait that long, then resend.`

export interface OpenApiOptions {
  /** Where partners reach this server; the document's `servers` entry. */
  publicUrl: string
  operations: readonly Operation[]
}

export async function registerOpenApi(app: FastifyInstance, options: OpenApiOptions): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'RefDesk Partner API',
        version: 'v1',
        description: INTRO,
        license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
      },
      servers: [{ url: options.publicUrl, description: 'This RefDesk server; the API base is /api/v1.' }],
      tags: tagsOf(options.operations),
      components: {
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'key_<48 hex>',
            description: 'A partner key, issued by the operator. Keys stay server-side.',
          },
        },
      },
      security: [{ bearer: [] }],
    },
    // Paths keep their /api/v1 prefix whatever the public URL's own path is.
    stripBasePath: false,
    transform: jsonSchemaTransform,
    transformObject: (input) =>
      refineDocument(jsonSchemaTransformObject(input) as Document, options.operations) as never,
  })
}

const isSuffixed = (code: ErrorCode) => (SUFFIXED_CODES as readonly ErrorCode[]).includes(code)

const STATUS_MEANING: Record<number, string> = {
  400: 'The request is invalid; fix it, then resend',
  401: 'Missing, malformed, unknown or revoked key; do not retry',
  404: 'Not found, or outside your key’s scope (the two are indistinguishable)',
  409: 'Conflicts with the current state; re-fetch it, then decide',
  429: 'Too many requests for this key; resend after the Retry-After header’s seconds',
}

/**
 * The `error` of one status: its codes as an `enum` (so generated clients type them), and the suffixed
 * ones (`invalid_startsAt:<value>`) as a pattern. The document shows the list; the serializer checks only
 * that `error` is a string, so a code missing from a list can never turn an answer into a 500.
 */
function errorCode(list: readonly ErrorCode[]): z.ZodType {
  const plain = list.filter((code) => !isSuffixed(code))
  const suffixed = list.filter(isSuffixed)
  const described = {
    description: `One of: ${list.map((c) => (isSuffixed(c) ? `${c}:<value>` : c)).join(', ')}`,
  }
  if (suffixed.length === 0) return z.string().meta({ ...described, enum: plain })
  const pattern = { type: 'string', pattern: `^(${suffixed.join('|')}):` }
  return z.string().meta({
    ...described,
    anyOf: plain.length > 0 ? [{ type: 'string', enum: plain }, pattern] : [pattern],
  })
}

/** `response` entries for an operation's error codes (COMMON_ERRORS are always added). */
export function errorResponses(...codes: ErrorCode[]): Record<number, z.ZodType> {
  const byStatus = new Map<number, ErrorCode[]>()
  // Whatever takes a JSON body also caps it at 1 MiB.
  const all: ErrorCode[] = codes.includes('invalid_json') ? [...codes, 'body_too_large'] : codes
  for (const code of new Set([...COMMON_ERRORS, ...all])) {
    const status = ERROR_STATUS[code]
    byStatus.set(status, [...(byStatus.get(status) ?? []), code])
  }
  return Object.fromEntries(
    [...byStatus].map(([status, list]) => [
      status,
      z
        .object({ error: errorCode(list) })
        .meta({ description: `${STATUS_MEANING[status] ?? 'Refused'}: ${list.join(', ')}.` }),
    ]),
  )
}
