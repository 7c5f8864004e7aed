// loadConfig({ env, flags }): the one place environment variables and CLI flags become settings.
import { resolve } from 'node:path'
import { isPostgresUrl, sqlitePath } from './database-url.js'
import { parseAllowPrivate, type AddressPolicy } from './webhooks/address-guard.js'
import { DEFAULT_RETRY_SCHEDULE, parseRetrySchedule } from './webhooks/retry-schedule.js'

export interface Config {
  readonly port: number
  readonly host: string
  readonly databaseUrl: string
  readonly logLevel: string
  readonly webhooks: WebhookSettings
}

export interface WebhookSettings {
  /** Delay before each attempt, in ms; its length is the number of attempts. */
  readonly retrySchedule: readonly number[]
  readonly timeoutMs: number
  readonly policy: AddressPolicy
  /** Attempts in flight per dispatcher, overall and per endpoint. */
  readonly concurrency: number
  readonly perEndpointConcurrency: number
  /** Fallback scan when no wake-up arrives (another process on SQLite, a lost LISTEN connection). */
  readonly pollIntervalMs: number
}

export interface ConfigFlags {
  port?: string
  host?: string
  database?: string
}

export const DEFAULT_DATABASE_URL = 'file:./data/refdesk.sqlite'

export class ConfigError extends Error {}

function port(value: string): number {
  const n = Number(value)
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new ConfigError(`invalid port: ${value}`)
  return n
}

/** `--database` beats `DATABASE_URL`; a bare path or `file:PATH` is SQLite, `postgres://` is PostgreSQL. */
export function databaseUrlFrom(env: NodeJS.ProcessEnv, flags: ConfigFlags): string {
  const url = flags.database ?? env.DATABASE_URL ?? DEFAULT_DATABASE_URL
  if (isPostgresUrl(url)) return url
  const path = sqlitePath(url)
  if (path === '') throw new ConfigError('empty database path')
  return path === ':memory:' ? 'file::memory:' : `file:${resolve(path)}`
}

function positiveInt(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback
  const n = Number(value)
  if (!Number.isInteger(n) || n <= 0) throw new ConfigError(`invalid ${name}: ${value}`)
  return n
}

export function webhookSettings(env: NodeJS.ProcessEnv = process.env): WebhookSettings {
  try {
    return Object.freeze({
      retrySchedule: parseRetrySchedule(env.REFDESK_WEBHOOK_RETRY_SCHEDULE || DEFAULT_RETRY_SCHEDULE),
      timeoutMs: positiveInt('REFDESK_WEBHOOK_TIMEOUT_MS', env.REFDESK_WEBHOOK_TIMEOUT_MS, 15_000),
      policy: parseAllowPrivate(env.REFDESK_WEBHOOK_ALLOW_PRIVATE),
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

export function loadConfig({
  env = process.env,
  flags = {},
}: { env?: NodeJS.ProcessEnv; flags?: ConfigFlags } = {}): Config {
  return Object.freeze({
    port: port(flags.port ?? env.PORT ?? '3000'),
    host: flags.host ?? env.HOST ?? '0.0.0.0',
    databaseUrl: databaseUrlFrom(env, flags),
    logLevel: env.LOG_LEVEL ?? 'info',
    webhooks: webhookSettings(env),
  })
}
