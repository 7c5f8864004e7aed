// The one place environment variables and CLI flags become settings. SETTINGS lists every variable with
// its help; `serve --help` and `worker --help` print from it, and loading reads only what it names.
import { resolve } from 'node:path'
import { parseAllowPrivate, withLoopback } from './webhooks/address-guard.js'
import { DEFAULT_RETRY_SCHEDULE, parseRetrySchedule } from './webhooks/retry-schedule.js'
import type { AppSettings } from './web/settings.js'
import { DEFAULT_DISABLE_AFTER_MS, type WebhookSettings } from './webhooks/settings.js'
import { DEFAULT_LIMITS, type Limits } from './domain/deps.js'
import { DEFAULT_HTTP_SETTINGS, type HttpSettings } from './http/settings.js'
import { isPostgresUrl, sqlitePath, unsupportedDatabaseUrl } from './store/database-url.js'

export interface Config {
  readonly port: number
  readonly host: string
  readonly databaseUrl: string
  readonly logLevel: string
  readonly webhooks: WebhookSettings
  readonly limits: Limits
  /** Browser origins allowed to call /api/v1/mcp (DNS-rebinding guard); none by default. */
  readonly mcpAllowedOrigins: readonly string[]
  /** JSON-RPC messages in one MCP batch, for protocol versions that still have batches. */
  readonly mcpMaxBatch: number
  readonly http: HttpSettings
  readonly app: AppSettings
  /** Where partners reach this server: the OpenAPI document's `servers`, what /docs sends requests to. */
  readonly publicUrl: string
  readonly metrics: MetricsSettings
}

export interface MetricsSettings {
  /** A bearer token /metrics asks for; open without one. */
  readonly token?: string
  /** Serve /metrics on this port alone (and not on the service port). */
  readonly port?: number
}

export interface ConfigFlags {
  port?: string
  host?: string
  database?: string
}

export const DEFAULT_DATABASE_URL = 'file:./data/refdesk.sqlite'

export const DEFAULT_MCP_MAX_BATCH = 10

type Command = 'serve' | 'worker' | 'mcp'

interface Setting {
  readonly name: string
  readonly help: string
  readonly commands: readonly Command[]
}

const DELIVERY: readonly Command[] = ['serve', 'worker']

export const SETTINGS: readonly Setting[] = [
  {
    name: 'DATABASE_URL',
    help: 'database when --database is not given: file:PATH (SQLite) or postgres://…',
    commands: DELIVERY,
  },
  { name: 'PORT', help: 'listen port when --port is not given (default 3000)', commands: ['serve'] },
  { name: 'HOST', help: 'listen address when --host is not given (default 0.0.0.0)', commands: ['serve'] },
  {
    name: 'LOG_LEVEL',
    help: 'fatal, error, warn, info (default), debug, trace (debug and trace also print stack traces when a command fails)',
    commands: DELIVERY,
  },
  {
    name: 'REFDESK_MCP_ALLOWED_ORIGINS',
    help: 'comma list of browser origins allowed to call /api/v1/mcp (default none: keys never belong in a browser)',
    commands: ['serve'],
  },
  {
    name: 'REFDESK_MCP_MAX_BATCH',
    help: `JSON-RPC messages one MCP request may batch, protocol versions before 2025-06-18 only (later ones refuse batches; default ${DEFAULT_MCP_MAX_BATCH})`,
    commands: ['serve'],
  },
  {
    name: 'REFDESK_REQUEST_TIMEOUT_MS',
    help: `a request, headers and body, must arrive within this many ms, else its socket is closed (default ${DEFAULT_HTTP_SETTINGS.requestTimeoutMs})`,
    commands: ['serve'],
  },
  {
    name: 'REFDESK_HEADERS_TIMEOUT_MS',
    help: `a request's headers must arrive within this many ms; at most the request time-out (default ${DEFAULT_HTTP_SETTINGS.headersTimeoutMs})`,
    commands: ['serve'],
  },
  {
    name: 'REFDESK_IDLE_TIMEOUT_MS',
    help: `a socket on which nothing moves for this many ms is closed (default ${DEFAULT_HTTP_SETTINGS.idleTimeoutMs})`,
    commands: ['serve'],
  },
  {
    name: 'REFDESK_KEEP_ALIVE_TIMEOUT_MS',
    help: `a kept-alive socket waits this many ms for its next request (default ${DEFAULT_HTTP_SETTINGS.keepAliveTimeoutMs})`,
    commands: ['serve'],
  },
  {
    name: 'REFDESK_MAX_CONNECTIONS',
    help: `open sockets per process; further ones are closed at once (default ${DEFAULT_HTTP_SETTINGS.maxConnections})`,
    commands: ['serve'],
  },
  {
    name: 'REFDESK_RATE_LIMIT',
    help: `requests per second per API key and process, REST and MCP alike; over it: 429 rate_limited with Retry-After; 0 turns it off (default ${DEFAULT_HTTP_SETTINGS.rateLimitPerSecond})`,
    commands: ['serve'],
  },
  {
    name: 'REFDESK_RATE_BURST',
    help: `requests a key may make at once before REFDESK_RATE_LIMIT paces it (default ${DEFAULT_HTTP_SETTINGS.rateLimitBurst})`,
    commands: ['serve'],
  },
  {
    name: 'REFDESK_METRICS_TOKEN',
    help: 'bearer token that GET /metrics requires (default none: /metrics answers anyone who reaches it)',
    commands: DELIVERY,
  },
  {
    name: 'REFDESK_METRICS_PORT',
    help: 'serve /metrics on this port instead of the service port (a worker serves metrics only when set)',
    commands: DELIVERY,
  },
  {
    name: 'REFDESK_WEBHOOK_RETRY_SCHEDULE',
    help: `delay before each attempt; its length is the number of attempts (default ${DEFAULT_RETRY_SCHEDULE})`,
    commands: DELIVERY,
  },
  {
    name: 'REFDESK_WEBHOOK_TIMEOUT_MS',
    help: 'a 2xx must arrive within this many ms (default 15000)',
    commands: DELIVERY,
  },
  {
    name: 'REFDESK_WEBHOOK_ALLOW_PRIVATE',
    help: 'true, or a comma list of CIDRs: let webhook endpoints register and deliveries reach loopback/private addresses (development and tests only; default off)',
    commands: DELIVERY,
  },
  {
    name: 'REFDESK_WEBHOOK_DEV_LOCALHOST',
    help: 'true: endpoints may be http:// on loopback (localhost, 127.0.0.0/8, [::1]) and deliveries reach loopback (development only; default off)',
    commands: DELIVERY,
  },
  {
    name: 'REFDESK_WEBHOOK_DISABLE_AFTER',
    help: 'disable an endpoint whose every attempt has failed this long: hours, or e.g. 5d, 120h (default 5d)',
    commands: DELIVERY,
  },
  {
    name: 'REFDESK_WEBHOOK_CONCURRENCY',
    help: 'attempts in flight per dispatcher (default 32)',
    commands: DELIVERY,
  },
  {
    name: 'REFDESK_WEBHOOK_ENDPOINT_CONCURRENCY',
    help: 'attempts in flight per endpoint and dispatcher (default 4)',
    commands: DELIVERY,
  },
  {
    name: 'REFDESK_WEBHOOK_MAX_ENDPOINTS',
    help: `webhook endpoints a source may register (default ${DEFAULT_LIMITS.endpointsPerSource})`,
    commands: ['serve'],
  },
  {
    name: 'REFDESK_WEBHOOK_POLL_MS',
    help: 'how often an idle dispatcher looks for due deliveries without a wake-up (default 1000)',
    commands: DELIVERY,
  },
  {
    name: 'NODE_EXTRA_CA_CERTS',
    help: 'a PEM file of extra CAs trusted for endpoint TLS, besides the system store (read by Node.js)',
    commands: DELIVERY,
  },
  {
    name: 'REFDESK_PUBLIC_URL',
    help: 'where partners and people reach the service: the OpenAPI servers, /docs, sign-in links and cookies follow it (default http://localhost:<port>; https makes the app’s cookies Secure and __Host-)',
    commands: ['serve'],
  },
  {
    name: 'REFDESK_SMTP_URL',
    help: 'smtp://user:pass@host:587 or smtps://…; unset: no mail is sent and operators hand out links with `refdesk app sign-in-link`',
    commands: ['serve'],
  },
  {
    name: 'REFDESK_MAIL_FROM',
    help: 'sender of sign-in emails (default RefDesk <refdesk@<public host>>)',
    commands: ['serve'],
  },
  { name: 'REFDESK_SESSION_DAYS', help: 'app session lifetime in days (default 30)', commands: ['serve'] },
  {
    name: 'REFDESK_SIGN_IN_LIMIT_PER_ADDRESS',
    help: 'sign-in links asked per address per 15 minutes (default 5)',
    commands: ['serve'],
  },
  {
    name: 'REFDESK_SIGN_IN_LIMIT_PER_CLIENT',
    help: 'sign-in links asked per client IP per 15 minutes (default 30)',
    commands: ['serve'],
  },
  {
    name: 'REFDESK_API_KEY',
    help: 'the partner key (key_…) every tool call is made with (required)',
    commands: ['mcp'],
  },
]

/** The "Environment:" help section of a command, from SETTINGS. */
export function settingsHelp(command: Command): string {
  const settings = SETTINGS.filter((s) => s.commands.includes(command))
  const width = Math.max(...settings.map((s) => s.name.length)) + 2
  return `\nEnvironment:\n${settings.map((s) => `  ${s.name.padEnd(width)}${s.help}`).join('\n')}`
}

export class ConfigError extends Error {}

function port(value: string): number {
  const n = Number(value)
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new ConfigError(`invalid port: ${value}`)
  return n
}

/** `--database` beats `DATABASE_URL`; a bare path or `file:PATH` is SQLite, `postgres://` is PostgreSQL, anything else an error. */
export function databaseUrlFrom(flags: ConfigFlags, env: NodeJS.ProcessEnv = process.env): string {
  const url = flags.database ?? env.DATABASE_URL ?? DEFAULT_DATABASE_URL
  const unsupported = unsupportedDatabaseUrl(url)
  if (unsupported !== null) throw new ConfigError(unsupported)
  if (isPostgresUrl(url)) return url
  const path = sqlitePath(url)
  if (path === '') throw new ConfigError('empty database path')
  return path === ':memory:' ? 'file::memory:' : `file:${resolve(path)}`
}

/** A database URL fit for a log or a terminal: a PostgreSQL password is masked. */
export function describeDatabase(url: string): string {
  if (!isPostgresUrl(url)) return url
  const parsed = new URL(url)
  if (parsed.password !== '') parsed.password = '***'
  return parsed.toString()
}

export const logLevelFrom = (env: NodeJS.ProcessEnv = process.env): string => env.LOG_LEVEL ?? 'info'

/** The partner key of `refdesk mcp --stdio`. */
export function mcpBridgeKey(env: NodeJS.ProcessEnv = process.env): string {
  const key = env.REFDESK_API_KEY
  if (!key) throw new ConfigError('REFDESK_API_KEY is not set: export the partner key (key_…) to use')
  return key
}

function positiveInt(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback
  const n = Number(value)
  if (!Number.isInteger(n) || n <= 0) throw new ConfigError(`invalid ${name}: ${value}`)
  return n
}

/** REFDESK_WEBHOOK_DEV_LOCALHOST: `true` or `1` turns development mode on; anything else but off is refused. */
function devLocalhost(env: NodeJS.ProcessEnv): boolean {
  const value = (env.REFDESK_WEBHOOK_DEV_LOCALHOST ?? '').trim().toLowerCase()
  if (value === '' || value === 'false' || value === '0') return false
  if (value === 'true' || value === '1') return true
  throw new ConfigError(`invalid REFDESK_WEBHOOK_DEV_LOCALHOST: ${value} (use true or false)`)
}

/** A duration: a number of hours, or a number with a unit (`5d`, `120h`, `90m`). */
function duration(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value.trim() === '') return fallback
  const text = /^\s*\d+(\.\d+)?\s*$/.test(value) ? `${value.trim()}h` : value
  let ms: number | undefined
  try {
    ms = parseRetrySchedule(text)[0]
  } catch {
    ms = undefined
  }
  if (ms === undefined || ms <= 0 || text.includes(','))
    throw new ConfigError(`invalid ${name}: ${value} (use hours, or e.g. 5d, 120h)`)
  return ms
}

export function webhookSettings(env: NodeJS.ProcessEnv = process.env): WebhookSettings {
  try {
    const allowPrivate = parseAllowPrivate(env.REFDESK_WEBHOOK_ALLOW_PRIVATE)
    return Object.freeze({
      retrySchedule: parseRetrySchedule(env.REFDESK_WEBHOOK_RETRY_SCHEDULE || DEFAULT_RETRY_SCHEDULE),
      timeoutMs: positiveInt('REFDESK_WEBHOOK_TIMEOUT_MS', env.REFDESK_WEBHOOK_TIMEOUT_MS, 15_000),
      // Development mode must reach the loopback receivers it accepts.
      policy: devLocalhost(env) ? withLoopback(allowPrivate) : allowPrivate,
      disableAfterMs: duration(
        'REFDESK_WEBHOOK_DISABLE_AFTER',
        env.REFDESK_WEBHOOK_DISABLE_AFTER,
        DEFAULT_DISABLE_AFTER_MS,
      ),
      concurrency: positiveInt('REFDESK_WEBHOOK_CONCURRENCY', env.REFDESK_WEBHOOK_CONCURRENCY, 32),
      perEndpointConcurrency: positiveInt(
        'REFDESK_WEBHOOK_ENDPOINT_CONCURRENCY',
        env.REFDESK_WEBHOOK_ENDPOINT_CONCURRENCY,
        4,
      ),
      pollIntervalMs: positiveInt('REFDESK_WEBHOOK_POLL_MS', env.REFDESK_WEBHOOK_POLL_MS, 1000),
    })
  } catch (error) {
    throw error instanceof ConfigError ? error : new ConfigError((error as Error).message)
  }
}

function nonNegativeInt(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback
  const n = Number(value)
  if (!Number.isInteger(n) || n < 0) throw new ConfigError(`invalid ${name}: ${value}`)
  return n
}

export function httpSettings(env: NodeJS.ProcessEnv = process.env): HttpSettings {
  const d = DEFAULT_HTTP_SETTINGS
  const requestTimeoutMs = positiveInt(
    'REFDESK_REQUEST_TIMEOUT_MS',
    env.REFDESK_REQUEST_TIMEOUT_MS,
    d.requestTimeoutMs,
  )
  const headersTimeoutMs = positiveInt(
    'REFDESK_HEADERS_TIMEOUT_MS',
    env.REFDESK_HEADERS_TIMEOUT_MS,
    Math.min(d.headersTimeoutMs, requestTimeoutMs),
  )
  // Node refuses to start otherwise; say which settings disagree instead.
  if (headersTimeoutMs > requestTimeoutMs)
    throw new ConfigError('REFDESK_HEADERS_TIMEOUT_MS must not exceed REFDESK_REQUEST_TIMEOUT_MS')
  const rateLimitPerSecond = nonNegativeInt(
    'REFDESK_RATE_LIMIT',
    env.REFDESK_RATE_LIMIT,
    d.rateLimitPerSecond,
  )
  return Object.freeze({
    requestTimeoutMs,
    headersTimeoutMs,
    idleTimeoutMs: positiveInt('REFDESK_IDLE_TIMEOUT_MS', env.REFDESK_IDLE_TIMEOUT_MS, d.idleTimeoutMs),
    keepAliveTimeoutMs: positiveInt(
      'REFDESK_KEEP_ALIVE_TIMEOUT_MS',
      env.REFDESK_KEEP_ALIVE_TIMEOUT_MS,
      d.keepAliveTimeoutMs,
    ),
    maxConnections: positiveInt('REFDESK_MAX_CONNECTIONS', env.REFDESK_MAX_CONNECTIONS, d.maxConnections),
    rateLimitPerSecond,
    rateLimitBurst: positiveInt('REFDESK_RATE_BURST', env.REFDESK_RATE_BURST, d.rateLimitBurst),
  })
}

const commaList = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '')

const DAY_MS = 24 * 3_600_000

/** REFDESK_PUBLIC_URL: an http(s) URL without query or fragment, kept without a trailing slash. */
function parsePublicUrl(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new ConfigError(`invalid REFDESK_PUBLIC_URL: ${value}`)
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new ConfigError(`REFDESK_PUBLIC_URL must be http(s): ${value}`)
  if (url.search !== '' || url.hash !== '')
    throw new ConfigError(`REFDESK_PUBLIC_URL takes no query or fragment: ${value}`)
  return url.toString().replace(/\/+$/, '')
}

/** Where partners and people reach this server: REFDESK_PUBLIC_URL, else http://localhost:<port>. */
export function publicUrlFrom(env: NodeJS.ProcessEnv, servicePort: number): string {
  return parsePublicUrl(env.REFDESK_PUBLIC_URL) ?? `http://localhost:${servicePort}`
}

export function appSettings(env: NodeJS.ProcessEnv = process.env): AppSettings {
  const publicUrl = parsePublicUrl(env.REFDESK_PUBLIC_URL)
  const smtpUrl = env.REFDESK_SMTP_URL || undefined
  if (smtpUrl !== undefined && !/^smtps?:\/\//.test(smtpUrl)) {
    throw new ConfigError('invalid REFDESK_SMTP_URL: expected smtp://… or smtps://…')
  }
  return Object.freeze({
    publicUrl,
    smtpUrl,
    mailFrom:
      env.REFDESK_MAIL_FROM || `RefDesk <refdesk@${publicUrl ? new URL(publicUrl).hostname : 'localhost'}>`,
    sessionTtlMs: positiveInt('REFDESK_SESSION_DAYS', env.REFDESK_SESSION_DAYS, 30) * DAY_MS,
    signInLimits: Object.freeze({
      perAddress: positiveInt('REFDESK_SIGN_IN_LIMIT_PER_ADDRESS', env.REFDESK_SIGN_IN_LIMIT_PER_ADDRESS, 5),
      perClient: positiveInt('REFDESK_SIGN_IN_LIMIT_PER_CLIENT', env.REFDESK_SIGN_IN_LIMIT_PER_CLIENT, 30),
      windowMs: 15 * 60_000,
    }),
  })
}

export function metricsSettings(env: NodeJS.ProcessEnv = process.env, servicePort?: number): MetricsSettings {
  const token = env.REFDESK_METRICS_TOKEN
  const metricsPort = env.REFDESK_METRICS_PORT ? port(env.REFDESK_METRICS_PORT) : undefined
  if (metricsPort !== undefined && metricsPort !== 0 && metricsPort === servicePort)
    throw new ConfigError(`REFDESK_METRICS_PORT must differ from the service port (${servicePort})`)
  return Object.freeze({
    ...(token !== undefined && token !== '' && { token }),
    ...(metricsPort !== undefined && { port: metricsPort }),
  })
}

export function loadConfig({
  env = process.env,
  flags = {},
}: { env?: NodeJS.ProcessEnv; flags?: ConfigFlags } = {}): Config {
  const servicePort = port(flags.port ?? env.PORT ?? '3000')
  return Object.freeze({
    port: servicePort,
    host: flags.host ?? env.HOST ?? '0.0.0.0',
    databaseUrl: databaseUrlFrom(flags, env),
    logLevel: logLevelFrom(env),
    webhooks: webhookSettings(env),
    limits: {
      endpointsPerSource: positiveInt(
        'REFDESK_WEBHOOK_MAX_ENDPOINTS',
        env.REFDESK_WEBHOOK_MAX_ENDPOINTS,
        DEFAULT_LIMITS.endpointsPerSource,
      ),
      webhookDevLocalhost: devLocalhost(env),
    },
    mcpAllowedOrigins: commaList(env.REFDESK_MCP_ALLOWED_ORIGINS),
    mcpMaxBatch: positiveInt('REFDESK_MCP_MAX_BATCH', env.REFDESK_MCP_MAX_BATCH, DEFAULT_MCP_MAX_BATCH),
    http: httpSettings(env),
    app: appSettings(env),
    publicUrl: publicUrlFrom(env, servicePort),
    metrics: metricsSettings(env, servicePort),
  })
}
