// OpenAPI error responses generated from the error catalog: each operation lists its codes by status.
import { z } from 'zod'
import { ERROR_STATUS, type ErrorCode } from '../domain/errors.js'

export const COMMON_ERRORS = ['unauthorized'] as const satisfies readonly ErrorCode[]

/** `response` entries for an operation's error codes (401 `unauthorized` is always added). */
export function errorResponses(...codes: ErrorCode[]): Record<number, z.ZodType> {
  const byStatus = new Map<number, ErrorCode[]>()
  // Whatever takes a JSON body also caps it at 1 MiB.
  const all: ErrorCode[] = codes.includes('invalid_json') ? [...codes, 'body_too_large'] : codes
  for (const code of [...COMMON_ERRORS, ...all]) {
    const status = ERROR_STATUS[code]
    byStatus.set(status, [...(byStatus.get(status) ?? []), code])
  }
  return Object.fromEntries(
    [...byStatus].map(([status, list]) => [
      status,
      z
        .object({
          error: z.string().meta({
            description: `One of: ${list.map((c) => (c === 'invalid_startsAt' || c === 'unknown_event' ? `${c}:<value>` : c)).join(', ')}`,
            examples: list,
          }),
        })
        .meta({ description: list.join(' | ') }),
    ]),
  )
}
