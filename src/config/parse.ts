// How a setting's text becomes its value. Each parser names the setting in its error, so an operator reads
// which variable (or flag) is wrong and why.
import { isIP } from 'node:net'
import { resolve } from 'node:path'
import { parseRetrySchedule } from '../webhooks/retry-schedule.js'
import { isPostgresUrl, sqlitePath, unsupportedDatabaseUrl } from '../store/database-url.js'

export class ConfigError extends Error {}

export type Parser<T> = (text: string, name: string) => T

export const text: Parser<string> = (value) => value

export const port: Parser<number> = (value) => {
  const n = Number(value)
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new ConfigError(`invalid port: ${value}`)
  return n
}

export const positiveInt: Parser<number> = (value, name) => {
  const n = Number(value)
  if (!Number.isInteger(n) || n <= 0) throw new ConfigError(`invalid ${name}: ${value}`)
  return n
}

export const nonNegativeInt: Parser<number> = (value, name) => {
  const n = Number(value)
  if (!Number.isInteger(n) || n < 0) throw new ConfigError(`invalid ${name}: ${value}`)
  return n
}

/** `true` or `1` turns it on, `false` or `0` off; anything else is refused. */
export const flag: Parser<boolean> = (value, name) => {
  const word = value.trim().toLowerCase()
  if (word === '' || word === 'false' || word === '0') return false
  if (word === 'true' || word === '1') return true
  throw new ConfigError(`invalid ${name}: ${word} (use true or false)`)
}

export const commaList: Parser<string[]> = (value) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '')

/**
 * Which proxies may say who the client is (Fastify's `trustProxy`): off, `true` (any: only when the service
 * is reachable through the proxy alone), or a comma list of proxy addresses or CIDRs.
 */
export const trustProxy: Parser<boolean | string> = (value, name) => {
  const word = value.trim().toLowerCase()
  if (word === '' || word === 'false' || word === 'off') return false
  if (word === 'true') return true
  const items = commaList(word, name)
  const bad = items.find((item) => {
    const [address = '', bits, ...rest] = item.split('/')
    return isIP(address) === 0 || rest.length > 0 || (bits !== undefined && !/^\d{1,3}$/.test(bits))
  })
  if (bad !== undefined || items.length === 0)
    throw new ConfigError(`invalid ${name}: ${value} (use true, or proxy addresses or CIDRs)`)
  return items.join(',')
}

/** A duration: a number of hours, or a number with a unit (`5d`, `120h`, `90m`). */
export const duration: Parser<number> = (value, name) => {
  const hours = /^\s*\d+(\.\d+)?\s*$/.test(value) ? `${value.trim()}h` : value
  let ms: number | undefined
  try {
    ms = parseRetrySchedule(hours)[0]
  } catch {
    ms = undefined
  }
  if (ms === undefined || ms <= 0 || hours.includes(','))
    throw new ConfigError(`invalid ${name}: ${value} (use hours, or e.g. 5d, 120h)`)
  return ms
}

/** Another module's parser, its error reworded as a ConfigError. */
export function wrapped<T>(parse: (value: string) => T): Parser<T> {
  return (value) => {
    try {
      return parse(value)
    } catch (error) {
      throw error instanceof ConfigError ? error : new ConfigError((error as Error).message)
    }
  }
}

/** A bare path or `file:PATH` is SQLite (made absolute), `postgres://` is PostgreSQL, anything else an error. */
export const databaseUrl: Parser<string> = (url) => {
  const unsupported = unsupportedDatabaseUrl(url)
  if (unsupported !== null) throw new ConfigError(unsupported)
  if (isPostgresUrl(url)) return url
  const path = sqlitePath(url)
  if (path === '') throw new ConfigError('empty database path')
  return path === ':memory:' ? 'file::memory:' : `file:${resolve(path)}`
}

/** An http(s) URL without query or fragment, kept without a trailing slash. */
export const publicUrl: Parser<string> = (value, name) => {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new ConfigError(`invalid ${name}: ${value}`)
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new ConfigError(`${name} must be http(s): ${value}`)
  if (url.search !== '' || url.hash !== '')
    throw new ConfigError(`${name} takes no query or fragment: ${value}`)
  return url.toString().replace(/\/+$/, '')
}

export const smtpUrl: Parser<string> = (value, name) => {
  if (!/^smtps?:\/\//.test(value)) throw new ConfigError(`invalid ${name}: expected smtp://… or smtps://…`)
  return value
}
