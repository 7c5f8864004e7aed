// loadConfig({ env, flags }): the one place environment variables and CLI flags become settings.
import { resolve } from 'node:path'

export interface Config {
  readonly port: number
  readonly host: string
  readonly databaseUrl: string
  readonly logLevel: string
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
  if (/^postgres(ql)?:\/\//.test(url)) return url
  const path = url.startsWith('file:') ? url.slice('file:'.length) : url
  if (path === '') throw new ConfigError('empty database path')
  return path === ':memory:' ? 'file::memory:' : `file:${resolve(path)}`
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
  })
}
