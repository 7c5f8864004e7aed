// Every setting once: its environment variable, its flag, its default (as an operator would write it), its
// parser and its help. `--help` prints from this table, loadConfig (config.ts) reads only what it names, and
// test/config/docs.test.ts holds the settings tables of docs/ to it.
import { DEFAULT_LIMITS } from '../domain/core/deps.js'
import { DEFAULT_HTTP_SETTINGS } from '../http/settings.js'
import { parseAllowPrivate } from '../net/address-guard.js'
import { DEFAULT_RETRY_SCHEDULE, parseRetrySchedule } from '../webhooks/retry-schedule.js'
import { DEFAULT_DISABLE_AFTER_MS, DEFAULT_SOURCE_CONCURRENCY } from '../webhooks/settings.js'
import { DEFAULT_NOTIFY_CONCURRENCY, DEFAULT_NOTIFY_RETRY_SCHEDULE } from '../notifications/settings.js'
import * as parse from './parse.js'
import { DAY_MS } from '../time.js'

export type Command = 'serve' | 'worker' | 'mcp'

export interface Setting<T = unknown> {
  /** The environment variable. */
  readonly name: string
  /** The CLI flag that beats the variable, if any. */
  readonly flag?: `--${string}`
  readonly commands: readonly Command[]
  /** The value when unset, written as the variable would be; none: the setting is off or derived. */
  readonly default?: string
  /** How help and docs show the default when there is none to write (`http://localhost:<port>`, `off`). */
  readonly shownDefault?: string
  readonly parse: parse.Parser<T>
  readonly help: string
  /** Node.js reads the variable itself; RefDesk only documents it. */
  readonly readByNode?: true
  /** An empty value is taken as given (`PORT=` is port 0), not as unset. */
  readonly emptyIsValue?: true
}

const DELIVERY: readonly Command[] = ['serve', 'worker']
const SERVE: readonly Command[] = ['serve']
const http = DEFAULT_HTTP_SETTINGS

const DEFAULT_DATABASE_URL = 'file:./data/refdesk.sqlite'

export const DEFAULT_MCP_MAX_BATCH = 10

/** The table, by the name loadConfig reads each value under. */
export const SETTING = {
  databaseUrl: {
    name: 'DATABASE_URL',
    flag: '--database',
    commands: DELIVERY,
    default: DEFAULT_DATABASE_URL,
    parse: parse.databaseUrl,
    help: 'database: file:PATH (SQLite; serve and migrate create it if missing) or postgres://user:pass@host/db',
    emptyIsValue: true,
  },
  port: {
    name: 'PORT',
    flag: '--port',
    commands: SERVE,
    default: '3000',
    parse: parse.port,
    help: 'listen port; 0 picks a free one',
    emptyIsValue: true,
  },
  host: {
    name: 'HOST',
    flag: '--host',
    commands: SERVE,
    default: '0.0.0.0',
    parse: parse.text,
    help: 'interface to bind',
    emptyIsValue: true,
  },
  logLevel: {
    name: 'LOG_LEVEL',
    commands: DELIVERY,
    default: 'info',
    parse: parse.text,
    help: 'fatal, error, warn, info, debug, trace (debug and trace also print stack traces when a command fails)',
    emptyIsValue: true,
  },
  mcpAllowedOrigins: {
    name: 'REFDESK_MCP_ALLOWED_ORIGINS',
    commands: SERVE,
    shownDefault: 'none',
    parse: parse.commaList,
    help: 'comma list of browser origins allowed to call /api/v1/mcp (keys never belong in a browser)',
  },
  mcpMaxBatch: {
    name: 'REFDESK_MCP_MAX_BATCH',
    commands: SERVE,
    default: String(DEFAULT_MCP_MAX_BATCH),
    parse: parse.positiveInt,
    help: 'JSON-RPC messages one MCP request may batch, protocol versions before 2025-06-18 only (later ones refuse batches)',
  },
  requestTimeoutMs: {
    name: 'REFDESK_REQUEST_TIMEOUT_MS',
    commands: SERVE,
    default: String(http.requestTimeoutMs),
    parse: parse.positiveInt,
    help: 'a request, headers and body, must arrive within this many ms, else its socket is closed',
  },
  headersTimeoutMs: {
    name: 'REFDESK_HEADERS_TIMEOUT_MS',
    commands: SERVE,
    default: String(http.headersTimeoutMs),
    parse: parse.positiveInt,
    help: "a request's headers must arrive within this many ms; at most the request time-out",
  },
  idleTimeoutMs: {
    name: 'REFDESK_IDLE_TIMEOUT_MS',
    commands: SERVE,
    default: String(http.idleTimeoutMs),
    parse: parse.positiveInt,
    help: 'a socket on which nothing moves for this many ms is closed',
  },
  keepAliveTimeoutMs: {
    name: 'REFDESK_KEEP_ALIVE_TIMEOUT_MS',
    commands: SERVE,
    default: String(http.keepAliveTimeoutMs),
    parse: parse.positiveInt,
    help: 'a kept-alive socket waits this many ms for its next request',
  },
  maxConnections: {
    name: 'REFDESK_MAX_CONNECTIONS',
    commands: SERVE,
    default: String(http.maxConnections),
    parse: parse.positiveInt,
    help: 'open sockets per process; further ones are closed at once',
  },
  rateLimitPerSecond: {
    name: 'REFDESK_RATE_LIMIT',
    commands: SERVE,
    default: String(http.rateLimitPerSecond),
    parse: parse.nonNegativeInt,
    help: 'requests per second per API key and process, REST and MCP alike; over it: 429 rate_limited with Retry-After; 0 turns it off',
  },
  rateLimitBurst: {
    name: 'REFDESK_RATE_BURST',
    commands: SERVE,
    default: String(http.rateLimitBurst),
    parse: parse.positiveInt,
    help: 'requests a key may make at once before REFDESK_RATE_LIMIT paces it',
  },
  metricsToken: {
    name: 'REFDESK_METRICS_TOKEN',
    commands: DELIVERY,
    shownDefault: 'none',
    parse: parse.text,
    help: 'bearer token that GET /metrics requires; without one (or REFDESK_METRICS_PORT) /metrics is closed',
  },
  metricsPort: {
    name: 'REFDESK_METRICS_PORT',
    commands: DELIVERY,
    shownDefault: 'none',
    parse: parse.port,
    help: 'serve /metrics on this port instead of the service port (a worker serves metrics only when set)',
  },
  retrySchedule: {
    name: 'REFDESK_WEBHOOK_RETRY_SCHEDULE',
    commands: DELIVERY,
    default: DEFAULT_RETRY_SCHEDULE,
    parse: parse.wrapped(parseRetrySchedule),
    help: 'delay before each attempt; its length is the number of attempts',
  },
  webhookTimeoutMs: {
    name: 'REFDESK_WEBHOOK_TIMEOUT_MS',
    commands: DELIVERY,
    default: '15000',
    parse: parse.positiveInt,
    help: 'a 2xx must arrive within this many ms',
  },
  allowPrivate: {
    name: 'REFDESK_WEBHOOK_ALLOW_PRIVATE',
    commands: DELIVERY,
    default: 'false',
    shownDefault: 'off',
    parse: parse.wrapped(parseAllowPrivate),
    help: 'true, or a comma list of CIDRs: let webhook endpoints register and deliveries reach loopback/private addresses (development and tests only)',
  },
  devLocalhost: {
    name: 'REFDESK_WEBHOOK_DEV_LOCALHOST',
    commands: DELIVERY,
    default: 'false',
    shownDefault: 'off',
    parse: parse.flag,
    help: 'true: endpoints may be http:// on loopback (localhost, 127.0.0.0/8, [::1]) and deliveries reach loopback (development only)',
  },
  disableAfterMs: {
    name: 'REFDESK_WEBHOOK_DISABLE_AFTER',
    commands: DELIVERY,
    default: `${DEFAULT_DISABLE_AFTER_MS / DAY_MS}d`,
    parse: parse.duration,
    help: 'disable an endpoint whose every attempt has failed this long: hours, or e.g. 5d, 120h',
  },
  webhookConcurrency: {
    name: 'REFDESK_WEBHOOK_CONCURRENCY',
    commands: DELIVERY,
    default: '32',
    parse: parse.positiveInt,
    help: 'attempts in flight per dispatcher',
  },
  endpointConcurrency: {
    name: 'REFDESK_WEBHOOK_ENDPOINT_CONCURRENCY',
    commands: DELIVERY,
    default: '4',
    parse: parse.positiveInt,
    help: 'attempts in flight per endpoint and dispatcher',
  },
  sourceConcurrency: {
    name: 'REFDESK_WEBHOOK_SOURCE_CONCURRENCY',
    commands: DELIVERY,
    default: String(DEFAULT_SOURCE_CONCURRENCY),
    parse: parse.positiveInt,
    help: 'attempts in flight per source (the owner of the endpoints) and dispatcher: its fair share',
  },
  maxEndpoints: {
    name: 'REFDESK_WEBHOOK_MAX_ENDPOINTS',
    commands: SERVE,
    default: String(DEFAULT_LIMITS.endpointsPerSource),
    parse: parse.positiveInt,
    help: 'webhook endpoints a source may register',
  },
  pollIntervalMs: {
    name: 'REFDESK_WEBHOOK_POLL_MS',
    commands: DELIVERY,
    default: '1000',
    parse: parse.positiveInt,
    help: 'how often an idle dispatcher looks for due deliveries without a wake-up',
  },
  extraCaCerts: {
    name: 'NODE_EXTRA_CA_CERTS',
    commands: DELIVERY,
    shownDefault: 'none',
    parse: parse.text,
    help: 'a PEM file of extra CAs trusted for endpoint TLS, besides the system store',
    readByNode: true,
  },
  publicUrl: {
    name: 'REFDESK_PUBLIC_URL',
    commands: DELIVERY,
    shownDefault: 'http://localhost:<port>',
    parse: parse.publicUrl,
    help: 'where partners and people reach the service: the OpenAPI servers, /docs, sign-in links and cookies follow it; https makes the app’s cookies Secure and __Host-',
  },
  smtpUrl: {
    name: 'REFDESK_SMTP_URL',
    commands: DELIVERY,
    shownDefault: 'none',
    parse: parse.smtpUrl,
    help: 'smtp://user:pass@host:587 or smtps://…; unset: no mail is sent (notifications are kept, marked unsent) and operators hand out links with `refdesk app sign-in-link`',
  },
  mailFrom: {
    name: 'REFDESK_MAIL_FROM',
    commands: DELIVERY,
    shownDefault: 'RefDesk <refdesk@<public host>>',
    parse: parse.text,
    help: 'sender of sign-in emails and notifications',
  },
  reminderHours: {
    name: 'REFDESK_REMINDER_HOURS',
    commands: SERVE,
    default: String(DEFAULT_LIMITS.reminderHours),
    parse: parse.positiveInt,
    help: 'hours before a game its officials get their reminder',
  },
  notifyRetrySchedule: {
    name: 'REFDESK_NOTIFY_RETRY_SCHEDULE',
    commands: DELIVERY,
    default: DEFAULT_NOTIFY_RETRY_SCHEDULE,
    parse: parse.wrapped(parseRetrySchedule),
    help: 'delay before each attempt to mail a notification (ms, s, m, h, d); its length is the number of attempts',
  },
  notifyConcurrency: {
    name: 'REFDESK_NOTIFY_CONCURRENCY',
    commands: DELIVERY,
    default: String(DEFAULT_NOTIFY_CONCURRENCY),
    parse: parse.positiveInt,
    help: 'notification mails in flight per process (its SMTP connections)',
  },
  sessionDays: {
    name: 'REFDESK_SESSION_DAYS',
    commands: SERVE,
    default: '30',
    parse: parse.positiveInt,
    help: 'app session lifetime in days',
  },
  trustProxy: {
    name: 'REFDESK_TRUST_PROXY',
    commands: SERVE,
    shownDefault: 'off',
    parse: parse.trustProxy,
    help:
      'behind a reverse proxy: the proxy addresses or CIDRs (comma list), or true, whose ' +
      'X-Forwarded-For names the client (the sign-in limit per client counts by it)',
  },
  sessionIdleHours: {
    name: 'REFDESK_SESSION_IDLE_HOURS',
    commands: SERVE,
    default: '72',
    parse: parse.positiveInt,
    help: 'an app session unused for this many hours ends (besides its lifetime)',
  },
  signInPerAddress: {
    name: 'REFDESK_SIGN_IN_LIMIT_PER_ADDRESS',
    commands: SERVE,
    default: '5',
    parse: parse.positiveInt,
    help: 'sign-in links asked per address per 15 minutes',
  },
  signInPerClient: {
    name: 'REFDESK_SIGN_IN_LIMIT_PER_CLIENT',
    commands: SERVE,
    default: '30',
    parse: parse.positiveInt,
    help: 'sign-in links asked per client IP per 15 minutes',
  },
  apiKey: {
    name: 'REFDESK_API_KEY',
    commands: ['mcp'],
    parse: parse.text,
    help: 'the partner key (key_…) every tool call is made with (required)',
  },
} as const satisfies Record<string, Setting>

export const SETTINGS: readonly Setting[] = Object.values(SETTING)

/** The default as help and docs show it, if there is one. */
export const shownDefault = (setting: Setting): string | undefined => setting.shownDefault ?? setting.default

type Flags = Readonly<Record<string, string | undefined>>

/** The setting's value from its flag, else the environment, else its default; parsed either way. */
export function read<T>(
  setting: Setting<T> & { readonly default: string },
  env: NodeJS.ProcessEnv,
  flags?: Flags,
): T
export function read<T>(setting: Setting<T>, env: NodeJS.ProcessEnv, flags?: Flags): T | undefined
export function read<T>(setting: Setting<T>, env: NodeJS.ProcessEnv, flags: Flags = {}): T | undefined {
  const given = (setting.flag && flags[setting.flag.slice(2)]) ?? env[setting.name]
  const set = given !== undefined && (given !== '' || setting.emptyIsValue === true)
  const value = set ? given : setting.default
  return value === undefined ? undefined : setting.parse(value, setting.name)
}

/** The "Environment:" help section of a command. */
export function settingsHelp(command: Command): string {
  const settings = SETTINGS.filter((s) => s.commands.includes(command))
  const width = Math.max(...settings.map((s) => s.name.length)) + 2
  const line = (s: Setting) => {
    const shown = shownDefault(s)
    const flag = s.flag ? `; ${s.flag} beats it` : ''
    const node = s.readByNode ? ' (read by Node.js)' : ''
    return `  ${s.name.padEnd(width)}${s.help}${flag}${node}${shown === undefined ? '' : ` (default ${shown})`}`
  }
  return `\nEnvironment:\n${settings.map(line).join('\n')}`
}

/** A flag's help: what it sets, and what applies without it. */
export function flagHelp(setting: Setting): string {
  return `${setting.help} (default: $${setting.name}, else ${shownDefault(setting)})`
}
