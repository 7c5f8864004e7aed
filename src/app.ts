// Composition root: database → migrations → services → transports. The HTTP server gets the partner API
// and, inside its authenticated /api/v1 scope, the MCP endpoint, and the app at /app; close() releases
// everything in order. The transports are imported when mounted, so a command that mounts none (`keys`,
// `app`, `migrate`) starts without loading Fastify, the MCP SDK or the app's templates.
import type { FastifyInstance, FastifyServerOptions } from 'fastify'
import type { Registry } from 'prom-client'
import { systemClock, type Clock } from './clock.js'
import { appSettings, DEFAULT_MCP_MAX_BATCH } from './config.js'
import { DEFAULT_LIMITS, type Deps, type Limits } from './domain/core/deps.js'
import { simulatedProcessor, type PaymentProcessor } from './domain/core/payment-processor.js'
import type { App } from './http/server.js'
import type { HttpSettings } from './http/settings.js'
import { runtimeRegistry } from './metrics.js'
import { openDatabase, type Database } from './store/database.js'
import { APP_PREFIX } from './web/paths.js'
import type { WebOptions } from './web/plugin.js'
import { backlog } from './store/leases.js'
import { countUnexpanded } from './store/outbox.js'
import { hostRefusal, STRICT_POLICY, type AddressPolicy } from './net/address-guard.js'
import { guardedGetter } from './net/guarded-get.js'
import { CALENDAR_REFRESH_MS, refreshDueCalendars } from './domain/availability/availability.js'
import { paths } from './web/paths.js'
import { startDuty, type DutyLog } from './duty.js'
import type { MailTransport } from './net/smtp.js'
import { startNotifier, type Notifier } from './notifications/sender.js'
import type { NotifierSettings } from './notifications/settings.js'
import { startDispatcher } from './webhooks/dispatcher.js'
import type { WebhookSettings } from './webhooks/settings.js'
import { MINUTE_MS } from './time.js'

export type { App }

export interface Runtime {
  readonly database: Database
  readonly deps: Deps
  /** Migrations this runtime applied when it opened, in order. */
  readonly migrated: readonly string[]
  /** Its gauges for /metrics: the delivery backlog and the database pool, read when scraped. */
  readonly metrics: Registry
  close(): Promise<void>
}

export async function openRuntime(
  databaseUrl: string,
  options: {
    paymentProcessor?: PaymentProcessor
    migrate?: boolean
    limits?: Limits
    /** Which literal webhook addresses registration accepts (REFDESK_WEBHOOK_ALLOW_PRIVATE); strict by default. */
    webhookPolicy?: AddressPolicy
    /** Whether a missing SQLite file may be created (default yes; `refdesk keys`, `app` and `worker` say no). */
    create?: boolean
    /** The clock every service reads; tests move theirs. Default: the system's. */
    clock?: Clock
    /** Busy-calendar reads: time-out (default 15 s, as webhooks) and, for in-process tests, the CAs to trust. */
    outbound?: { timeoutMs?: number; ca?: string | Buffer }
    /** Games per page of a big list read from a snapshot (store/league-pages.ts); tests lower it. */
    snapshotPageSize?: number
    /** SQLite's checkpoints in a thread of their own: long-running processes (`serve`, `worker`). */
    checkpoints?: 'inline' | 'background'
  } = {},
): Promise<Runtime> {
  const database = openDatabase(databaseUrl, {
    create: options.create ?? true,
    ...(options.snapshotPageSize !== undefined && { snapshotPageSize: options.snapshotPageSize }),
    ...(options.checkpoints && { checkpoints: options.checkpoints }),
  })
  let migrated: string[] = []
  try {
    if (options.migrate !== false) migrated = await database.migrate()
  } catch (err) {
    await database.close()
    throw err
  }
  const deps: Deps = {
    db: database.db,
    dialect: database.dialect,
    paymentProcessor: options.paymentProcessor ?? simulatedProcessor(),
    limits: options.limits ?? DEFAULT_LIMITS,
    clock: options.clock ?? systemClock,
    webhookHostRefusal: (hostname) => hostRefusal(hostname, options.webhookPolicy ?? STRICT_POLICY),
    readCalendar: guardedGetter({
      policy: options.webhookPolicy ?? STRICT_POLICY,
      timeoutMs: options.outbound?.timeoutMs ?? 15_000,
      maxBytes: CALENDAR_MAX_BYTES,
      ...(options.outbound?.ca !== undefined && { ca: options.outbound.ca }),
    }),
  }
  const metrics = runtimeRegistry({
    backlog: () => backlog(database.db),
    unexpanded: () => countUnexpanded(database.db),
    pool: () => database.poolStats(),
  })
  return { database, deps, migrated, metrics, close: () => database.close() }
}

/** A busy calendar's feed larger than this is refused: years of a busy assigning site fit, and its parse stays
 * far inside the thread's heap cap (ics.ts). */
const CALENDAR_MAX_BYTES = 1024 * 1024

/** How often the busy calendars due are looked for: each is read every 15 minutes, within a minute. */
const CALENDAR_PASS_MS = Math.min(MINUTE_MS, CALENDAR_REFRESH_MS)

/** The background duties of a process: started together, stopped in turn. */
export interface Duties {
  /** The webhook dispatcher's lease owner (the worker's start-up line names it). */
  readonly owner: string
  stop(): Promise<void>
}

/**
 * Every background duty of `serve` and `refdesk worker`, on the runtime's clock: webhook delivery,
 * notification mail and busy-calendar reads, each shared with any other process over the same database
 * (its rows are leased). A duty more is one entry here.
 */
export function startDuties(
  runtime: Runtime,
  settings: { readonly webhooks: WebhookSettings; readonly notifications: NotifierSettings },
  log: DutyLog,
): Duties {
  const { deps } = runtime
  const dispatcher = startDispatcher({
    database: runtime.database,
    settings: settings.webhooks,
    clock: deps.clock,
    log,
  })
  const duties = [
    dispatcher,
    startNotifications(runtime, settings.notifications, { log }),
    startDuty(
      {
        name: 'busy-calendar refresh',
        pollMs: CALENDAR_PASS_MS,
        // A pass a minute from the start of the last, however long its reads took.
        run: async () => {
          const next = deps.clock.now() + CALENDAR_PASS_MS
          await refreshDueCalendars(deps)
          return next
        },
      },
      { clock: deps.clock, log },
    ),
  ]
  return {
    owner: dispatcher.owner,
    async stop() {
      for (const duty of duties) await duty.stop()
    },
  }
}

export interface HttpOptions {
  /** Browser origins allowed on /api/v1/mcp; none by default. */
  mcpAllowedOrigins?: readonly string[]
  /** JSON-RPC messages per MCP batch (older protocol versions only); default DEFAULT_MCP_MAX_BATCH. */
  mcpMaxBatch?: number
  /** Time-outs, connection cap and rate limit; default DEFAULT_HTTP_SETTINGS. */
  http?: HttpSettings
  /** The app under /app: its settings (default: those of an empty environment) and mailer. */
  web?: Partial<Omit<WebOptions, 'deps'>>
  /** Where partners reach this server; default http://localhost:3000. */
  publicUrl?: string
  /**
   * /metrics: on the service port only behind its token (closed without one), or on a port of its own
   * instead (see serveMetrics).
   */
  metrics?: { token?: string; port?: number }
  /** Which proxies' X-Forwarded-For names the client (REFDESK_TRUST_PROXY); none by default. */
  trustProxy?: boolean | string
}

/** The partner API with MCP inside /api/v1, health checks, and the app under /app. */
export async function buildHttp(
  runtime: Runtime,
  logger?: FastifyServerOptions['logger'],
  options: HttpOptions = {},
): Promise<App> {
  const [{ buildServer }, { mcpRoutes }, { webApp }] = await Promise.all([
    import('./http/server.js'),
    import('./mcp/route.js'),
    import('./web/plugin.js'),
  ])
  const app = await buildServer({
    deps: runtime.deps,
    ping: () => runtime.database.ping(),
    logger,
    publicUrl: options.publicUrl ?? 'http://localhost:3000',
    ...(options.metrics?.port === undefined &&
      options.metrics?.token !== undefined && {
        metrics: { token: options.metrics.token, runtime: runtime.metrics },
      }),
    ...(options.http && { http: options.http }),
    ...(options.trustProxy !== undefined && { trustProxy: options.trustProxy }),
    apiPlugins: [
      mcpRoutes({
        deps: runtime.deps,
        allowedOrigins: options.mcpAllowedOrigins ?? [],
        maxBatch: options.mcpMaxBatch ?? DEFAULT_MCP_MAX_BATCH,
      }),
    ],
  })
  await app.register(webApp, {
    settings: appSettings({}),
    ...options.web,
    deps: runtime.deps,
    prefix: APP_PREFIX,
  })
  return app
}

/** /metrics alone, listening on its own port (REFDESK_METRICS_PORT); the caller closes it. */
export async function serveMetrics(
  runtime: Runtime,
  settings: { token?: string; port: number; host: string },
): Promise<FastifyInstance> {
  const { buildMetricsServer } = await import('./http/metrics-route.js')
  const server = await buildMetricsServer({ token: settings.token, runtime: runtime.metrics })
  await server.listen({ port: settings.port, host: settings.host })
  return server
}

/** The links of notification mails, from the app's own paths. */
const NOTIFICATION_PATHS = {
  schedule: () => paths.home.href(),
  earnings: () => paths.earnings.href(),
  league: (leagueId: string) => paths.league.href({ leagueId }),
  profile: () => paths.profile.href(),
  leagues: () => paths.leagues.href(),
  unsubscribe: (token: string) => paths.unsubscribe.href({ token }),
}

/** The notification sender of `serve` and `refdesk worker` (tests start their own); the caller stops it. */
export function startNotifications(
  runtime: Runtime,
  settings: NotifierSettings,
  options: { log?: DutyLog; transport?: MailTransport; clock?: Clock } = {},
): Notifier {
  return startNotifier({
    database: runtime.database,
    settings,
    paths: NOTIFICATION_PATHS,
    reminderHours: runtime.deps.limits.reminderHours,
    clock: options.clock ?? runtime.deps.clock,
    ...(options.log && { log: options.log }),
    ...(options.transport && { transport: options.transport }),
  })
}

/** `refdesk mcp --stdio`: the MCP tools for a local client, each call sent to a RefDesk server over HTTP. */
export async function serveMcpOverStdio(baseUrl: string, key: string): Promise<void> {
  const { serveStdio } = await import('./mcp/stdio.js')
  return serveStdio(baseUrl, key)
}
