// The one place environment variables and CLI flags become settings. Each setting is a row of the table in
// config/settings.ts (name, flag, default, parser, help); this module groups the values each part of the
// service takes and checks the settings that depend on each other.
import { DEFAULT_MCP_MAX_BATCH, read, SETTING as S } from './config/settings.js'
import { ConfigError } from './config/parse.js'
import { DEFAULT_LIMITS, type Limits } from './domain/core/deps.js'
import type { HttpSettings } from './http/settings.js'
import { isPostgresUrl } from './store/database-url.js'
import type { NotifierSettings } from './notifications/settings.js'
import type { AppSettings } from './web/settings.js'
import { withLoopback } from './net/address-guard.js'
import type { WebhookSettings } from './webhooks/settings.js'
import { DAY_MS, HOUR_MS, MINUTE_MS } from './time.js'

export { ConfigError, DEFAULT_MCP_MAX_BATCH }
export { SETTING, SETTINGS, flagHelp, settingsHelp } from './config/settings.js'

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
  readonly notifications: NotifierSettings
  /** Which proxies' X-Forwarded-For names the client (Fastify's trustProxy); false: none. */
  readonly trustProxy: boolean | string
}

interface MetricsSettings {
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

type Env = NodeJS.ProcessEnv

/** `--database` beats `DATABASE_URL`; a bare path or `file:PATH` is SQLite, `postgres://` is PostgreSQL, anything else an error. */
export function databaseUrlFrom(flags: ConfigFlags, env: Env = process.env): string {
  return read(S.databaseUrl, env, { ...flags })
}

/** A database URL fit for a log or a terminal: a PostgreSQL password is masked. */
export function describeDatabase(url: string): string {
  if (!isPostgresUrl(url)) return url
  const parsed = new URL(url)
  if (parsed.password !== '') parsed.password = '***'
  return parsed.toString()
}

export const logLevelFrom = (env: Env = process.env): string => read(S.logLevel, env)

/** The partner key of `refdesk mcp --stdio`. */
export function mcpBridgeKey(env: Env = process.env): string {
  const key = read(S.apiKey, env)
  if (!key) throw new ConfigError('REFDESK_API_KEY is not set: export the partner key (key_…) to use')
  return key
}

/** @public bench/scenarios/webhooks.mjs reads it from dist/. */
export function webhookSettings(env: Env = process.env): WebhookSettings {
  const allowPrivate = read(S.allowPrivate, env)
  return Object.freeze({
    retrySchedule: read(S.retrySchedule, env),
    timeoutMs: read(S.webhookTimeoutMs, env),
    // Development mode must reach the loopback receivers it accepts.
    policy: read(S.devLocalhost, env) ? withLoopback(allowPrivate) : allowPrivate,
    disableAfterMs: read(S.disableAfterMs, env),
    concurrency: read(S.webhookConcurrency, env),
    perEndpointConcurrency: read(S.endpointConcurrency, env),
    sourceConcurrency: read(S.sourceConcurrency, env),
    pollIntervalMs: read(S.pollIntervalMs, env),
  })
}

function httpSettings(env: Env = process.env): HttpSettings {
  const requestTimeoutMs = read(S.requestTimeoutMs, env)
  // Unset, the header time-out shrinks to a shorter request time-out; set past it, Node would refuse to start.
  const headersTimeoutMs = env[S.headersTimeoutMs.name]
    ? read(S.headersTimeoutMs, env)
    : Math.min(read(S.headersTimeoutMs, {}), requestTimeoutMs)
  if (headersTimeoutMs > requestTimeoutMs)
    throw new ConfigError('REFDESK_HEADERS_TIMEOUT_MS must not exceed REFDESK_REQUEST_TIMEOUT_MS')
  return Object.freeze({
    requestTimeoutMs,
    headersTimeoutMs,
    idleTimeoutMs: read(S.idleTimeoutMs, env),
    keepAliveTimeoutMs: read(S.keepAliveTimeoutMs, env),
    maxConnections: read(S.maxConnections, env),
    rateLimitPerSecond: read(S.rateLimitPerSecond, env),
    rateLimitBurst: read(S.rateLimitBurst, env),
  })
}

/** Where partners and people reach this server: REFDESK_PUBLIC_URL, else http://localhost:<port>. */
function publicUrlFrom(env: Env, servicePort: number): string {
  return read(S.publicUrl, env) ?? `http://localhost:${servicePort}`
}

export function appSettings(env: Env = process.env): AppSettings {
  const publicUrl = read(S.publicUrl, env)
  return Object.freeze({
    publicUrl,
    smtpUrl: read(S.smtpUrl, env),
    mailFrom:
      read(S.mailFrom, env) ?? `RefDesk <refdesk@${publicUrl ? new URL(publicUrl).hostname : 'localhost'}>`,
    sessionTtlMs: read(S.sessionDays, env) * DAY_MS,
    sessionIdleMs: read(S.sessionIdleHours, env) * HOUR_MS,
    signInLimits: Object.freeze({
      perAddress: read(S.signInPerAddress, env),
      perClient: read(S.signInPerClient, env),
      windowMs: 15 * MINUTE_MS,
    }),
  })
}

function metricsSettings(env: Env = process.env, servicePort?: number): MetricsSettings {
  const token = read(S.metricsToken, env)
  const metricsPort = read(S.metricsPort, env)
  if (metricsPort !== undefined && metricsPort !== 0 && metricsPort === servicePort)
    throw new ConfigError(`REFDESK_METRICS_PORT must differ from the service port (${servicePort})`)
  return Object.freeze({
    ...(token !== undefined && { token }),
    ...(metricsPort !== undefined && { port: metricsPort }),
  })
}

export function loadConfig({
  env = process.env,
  flags = {},
}: { env?: Env; flags?: ConfigFlags } = {}): Config {
  const servicePort = read(S.port, env, { ...flags })
  return Object.freeze({
    port: servicePort,
    host: read(S.host, env, { ...flags }),
    databaseUrl: databaseUrlFrom(flags, env),
    logLevel: logLevelFrom(env),
    webhooks: webhookSettings(env),
    limits: {
      endpointsPerSource: read(S.maxEndpoints, env),
      webhookDevLocalhost: read(S.devLocalhost, env),
      reminderHours: read(S.reminderHours, env),
      gamesPerLeague: DEFAULT_LIMITS.gamesPerLeague,
      planPairs: DEFAULT_LIMITS.planPairs,
      draftsKept: DEFAULT_LIMITS.draftsKept,
    },
    mcpAllowedOrigins: read(S.mcpAllowedOrigins, env) ?? [],
    mcpMaxBatch: read(S.mcpMaxBatch, env),
    http: httpSettings(env),
    app: appSettings(env),
    publicUrl: publicUrlFrom(env, servicePort),
    metrics: metricsSettings(env, servicePort),
    trustProxy: read(S.trustProxy, env) ?? false,
    notifications: notifierSettings(env, servicePort),
  })
}

/** The notification sender's settings; its mail goes out like the sign-in mail, from the same sender. */
function notifierSettings(env: Env = process.env, servicePort = 3000): NotifierSettings {
  const app = appSettings(env)
  return Object.freeze({
    smtpUrl: app.smtpUrl,
    from: app.mailFrom,
    publicUrl: publicUrlFrom(env, servicePort),
    retrySchedule: read(S.notifyRetrySchedule, env),
    concurrency: read(S.notifyConcurrency, env),
    pollIntervalMs: read(S.pollIntervalMs, env),
    timeoutMs: read(S.webhookTimeoutMs, env),
  })
}
