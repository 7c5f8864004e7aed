// A PostgreSQL server that cannot be reached at all, named with the server it tried, so `migrate` and
// `/readyz` say which address failed instead of an empty AggregateError.
// Failures to connect at all, as opposed to a server that answers with a refusal (password, database).
const NETWORK_ERRORS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
])

/** host:port as the pool connects to it (the URL's, or a `?host=` socket directory; 5432 by default). */
export function serverOf(url: string): string {
  const parsed = new URL(url)
  return `${parsed.hostname || parsed.searchParams.get('host') || 'localhost'}:${parsed.port || '5432'}`
}

/**
 * A connection failure named with the server it tried: `localhost` tries ::1 and 127.0.0.1 and fails
 * with an AggregateError whose own message is empty.
 */
export function unreachable(error: unknown, server: string): Error | undefined {
  const errors: unknown[] = error instanceof AggregateError ? error.errors : [error]
  const code = errors
    .map((e) => (e as NodeJS.ErrnoException | undefined)?.code)
    .find((c) => c !== undefined && NETWORK_ERRORS.has(c))
  return code === undefined
    ? undefined
    : new Error(`cannot reach PostgreSQL at ${server} (${code})`, { cause: error })
}
