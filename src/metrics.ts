// Prometheus metrics (prom-client). The counters and histograms are process-wide, fed by the HTTP
// adapter, the MCP adapter and the dispatcher; what must be read from a runtime (the delivery backlog, the
// database pool) is collected at scrape time through `runtimeRegistry`. Labels are operation ids, tool
// names, statuses and outcome classes: never an id, a source or a key, so cardinality stays bounded and
// nothing a partner sent reaches the exposition.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client'

const shared = new Registry()
collectDefaultMetrics({ register: shared })

const httpRequests = new Counter({
  name: 'refdesk_http_requests_total',
  help: 'HTTP requests answered, by operation (operationId, or route), method and status.',
  labelNames: ['operation', 'method', 'status'] as const,
  registers: [shared],
})

const httpDuration = new Histogram({
  name: 'refdesk_http_request_duration_seconds',
  help: 'Time from request to response, by operation, method and status.',
  labelNames: ['operation', 'method', 'status'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [shared],
})

/** Each series' children, kept: resolving labels hashes them, a cost paid on every request otherwise. */
type HttpLabel = 'operation' | 'method' | 'status'
const httpSeries = new Map<string, { count: Counter.Internal; duration: Histogram.Internal<HttpLabel> }>()

/** Counts one answered request and its duration under its operation, method and status. */
export function observeHttpRequest(operation: string, method: string, status: number, seconds: number): void {
  const key = `${operation} ${method} ${status}`
  let series = httpSeries.get(key)
  if (series === undefined) {
    const labels = { operation, method, status }
    series = { count: httpRequests.labels(labels), duration: httpDuration.labels(labels) }
    httpSeries.set(key, series)
  }
  series.count.inc()
  series.duration.observe(seconds)
}

export const mcpToolCalls = new Counter({
  name: 'refdesk_mcp_tool_calls_total',
  help: 'MCP tool calls, by tool and outcome (ok, error, preview).',
  labelNames: ['tool', 'outcome'] as const,
  registers: [shared],
})

export const webhookAttempts = new Counter({
  name: 'refdesk_webhook_attempts_total',
  help: 'Delivery attempts recorded, by result: succeeded, or the failure class (http_status, timeout, …).',
  labelNames: ['result'] as const,
  registers: [shared],
})

export const webhookDeliveries = new Counter({
  name: 'refdesk_webhook_deliveries_total',
  help: 'Deliveries finished, by outcome: succeeded, or failed once the retry schedule ran out.',
  labelNames: ['outcome'] as const,
  registers: [shared],
})

export const webhookDeliveryLag = new Histogram({
  name: 'refdesk_webhook_delivery_lag_seconds',
  help: 'From the commit of an event to the 2xx of its delivery, retries included.',
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800, 3600, 4 * 3600, 12 * 3600, 28 * 3600],
  registers: [shared],
})

export const webhookLeased = new Counter({
  name: 'refdesk_webhook_leased_total',
  help: 'Deliveries leased by this process’s dispatcher.',
  registers: [shared],
})

export const webhookLeasesLost = new Counter({
  name: 'refdesk_webhook_leases_lost_total',
  help: 'Attempts whose lease ran out before their outcome was recorded (another dispatcher retries them).',
  registers: [shared],
})

export const webhookInFlight = new Gauge({
  name: 'refdesk_webhook_attempts_in_flight',
  help: 'Delivery attempts sent or waiting to be recorded by this process’s dispatcher.',
  registers: [shared],
})

/** What a runtime reports at scrape time. */
export interface RuntimeReadings {
  /** Pending deliveries and the creation time of the oldest. */
  backlog(): Promise<{ pending: number; oldestCreatedAt: string | null }>
  /** Committed events a dispatcher has not yet expanded into deliveries. */
  unexpanded(): Promise<number>
  /** The PostgreSQL pool; undefined on SQLite (one embedded connection, no pool: no pool gauges). */
  pool(): { total: number; idle: number; waiting: number } | undefined
}

/** A registry of the runtime's own gauges, read when scraped. */
export function runtimeRegistry(readings: RuntimeReadings): Registry {
  const registry = new Registry()
  const gauge = (name: string, help: string, collect: (g: Gauge) => Promise<void> | void) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        await collect(this)
      },
    })
  gauge(
    'refdesk_webhook_deliveries_pending',
    'Deliveries waiting to be sent or retried (the backlog).',
    async (g) => g.set((await readings.backlog()).pending),
  )
  gauge(
    'refdesk_outbox_events_unexpanded',
    'Committed events not yet expanded into deliveries (a dispatcher does it after the commit).',
    async (g) => g.set(await readings.unexpanded()),
  )
  gauge(
    'refdesk_webhook_oldest_pending_seconds',
    'Age of the oldest pending delivery; 0 when none.',
    async (g) => {
      const { oldestCreatedAt } = await readings.backlog()
      g.set(oldestCreatedAt === null ? 0 : Math.max(0, (Date.now() - Date.parse(oldestCreatedAt)) / 1000))
    },
  )
  if (readings.pool() !== undefined) {
    const pool = (pick: 'total' | 'idle' | 'waiting') => (g: Gauge) => g.set(readings.pool()?.[pick] ?? 0)
    gauge('refdesk_db_pool_connections', 'PostgreSQL pool connections open.', pool('total'))
    gauge('refdesk_db_pool_idle_connections', 'PostgreSQL pool connections open and idle.', pool('idle'))
    gauge(
      'refdesk_db_pool_waiting_requests',
      'Queries waiting for a PostgreSQL pool connection.',
      pool('waiting'),
    )
  }
  return registry
}

export const METRICS_CONTENT_TYPE = shared.contentType

/** The text exposition of the process-wide metrics and the given runtime's. */
export async function exposition(runtime?: Registry): Promise<string> {
  const parts = [await shared.metrics()]
  if (runtime) parts.push(await runtime.metrics())
  return parts.join('')
}
