// The secrets check (issue 6, item 7): every process and app of the reliability run logs at debug level
// into RELIABILITY_LOG_DIR, and every key and webhook secret the run creates is remembered in
// RELIABILITY_SECRETS. scripts/test-reliability.mjs then scans all the logs for all the secrets.
import { appendFileSync, createWriteStream, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyServerOptions } from 'fastify'
import { loggerOptions } from '../../src/logger.js'

const logDir = (): string => {
  const dir = process.env.RELIABILITY_LOG_DIR ?? join(tmpdir(), 'refdesk-reliability-logs')
  mkdirSync(dir, { recursive: true })
  return dir
}

/** A fresh file in the run's log directory, for a spawned process's stdout and stderr. */
export function logFile(name: string): string {
  return join(logDir(), `${name}-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}.log`)
}

/** The environment a spawned `refdesk` process gets so that it logs at debug level. */
export const DEBUG_ENV = { LOG_LEVEL: 'debug' } as const

/** Fastify logger options for an in-process app: the production options at debug level, into a file. */
export function debugLogger(name: string): FastifyServerOptions['logger'] {
  return { ...loggerOptions('debug'), stream: createWriteStream(logFile(name)) }
}

/** Records API keys, webhook secrets and Authorization values that must never appear in any log. */
export function rememberSecrets(...values: string[]): void {
  const file = process.env.RELIABILITY_SECRETS
  if (!file) return
  appendFileSync(file, values.map((value) => value + '\n').join(''))
}
