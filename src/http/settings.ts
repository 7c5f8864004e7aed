// The HTTP edge's bounds, as one value: config.ts reads them from the environment, tests build them.
// They keep one client (slow, many-socketed or just fast) from holding what every tenant shares.

export interface HttpSettings {
  /** The whole request, headers and body, must arrive within this (REFDESK_REQUEST_TIMEOUT_MS). */
  readonly requestTimeoutMs: number
  /** The headers must arrive within this (REFDESK_HEADERS_TIMEOUT_MS); at most requestTimeoutMs. */
  readonly headersTimeoutMs: number
  /** A socket on which nothing moves for this long is closed (REFDESK_IDLE_TIMEOUT_MS). */
  readonly idleTimeoutMs: number
  /** A keep-alive socket waits this long for its next request (REFDESK_KEEP_ALIVE_TIMEOUT_MS). */
  readonly keepAliveTimeoutMs: number
  /** Open sockets per process; the next is closed at once (REFDESK_MAX_CONNECTIONS). */
  readonly maxConnections: number
  /** Requests per second per API key, refilled continuously; 0 turns the limit off (REFDESK_RATE_LIMIT). */
  readonly rateLimitPerSecond: number
  /** Requests a key may make at once after a quiet spell (REFDESK_RATE_BURST). */
  readonly rateLimitBurst: number
}

export const DEFAULT_HTTP_SETTINGS: HttpSettings = Object.freeze({
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 10_000,
  idleTimeoutMs: 60_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 10_000,
  // A partner's sync job, even a busy one, with room for an import's bursts; one key no longer holds a
  // process (the bench's reads reach 13,000 req/s). Programs that measure the service turn it off (0).
  rateLimitPerSecond: 100,
  rateLimitBurst: 200,
})
