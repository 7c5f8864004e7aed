// The dispatcher: leases due deliveries, sends them with bounded concurrency (overall and per endpoint,
// so a slow endpoint cannot starve the rest), records every attempt and schedules the next one. Wakes on
// new deliveries in this process, on PostgreSQL NOTIFY from any process, on its own retry timers, and
// otherwise polls. Any number of dispatchers can share one database: a row is worked under a lease, and
// a lease left by a killed dispatcher expires so another one retries it with the same `webhook-id`.
import { randomBytes } from 'node:crypto'
import { hostname } from 'node:os'
import type { Kysely } from 'kysely'
import type { WebhookSettings } from '../config.js'
import { isPostgresUrl } from '../database-url.js'
import * as deliveries from '../store/deliveries.js'
import { listenForDeliveries, onDeliveries, type Listener } from '../store/outbox.js'
import type { Db } from '../store/tables.js'
import { attempt, createAgent } from './deliver.js'
import { nextAttemptDelay } from './retry-schedule.js'

export interface DispatcherLog {
  info(obj: object, msg: string): void
  warn(obj: object, msg: string): void
  error(obj: object, msg: string): void
}

export interface DispatcherOptions {
  db: Kysely<Db>
  settings: WebhookSettings
  /** A postgres:// URL turns on LISTEN/NOTIFY wake-ups. */
  databaseUrl?: string
  /** Trust these CAs instead of the default store (tests). */
  ca?: string | Buffer
  log?: DispatcherLog
  /** How long a lease holds; default twice the timeout plus a second. */
  leaseMs?: number
}

export interface Dispatcher {
  readonly owner: string
  /** Look for due deliveries now. */
  wake(): void
  /** Stops leasing; in-flight attempts get `graceMs` to finish, then are aborted and their leases released. */
  stop(graceMs?: number): Promise<void>
}

const silent: DispatcherLog = { info() {}, warn() {}, error() {} }
const iso = (ms: number) => new Date(ms).toISOString()

interface InFlight {
  endpointId: string
  controller: AbortController
  done: Promise<void>
}

export function startDispatcher(options: DispatcherOptions): Dispatcher {
  const { db, settings } = options
  const log = options.log ?? silent
  const owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`
  const leaseMs = options.leaseMs ?? settings.timeoutMs * 2 + 1000
  const agent = createAgent({
    policy: settings.policy,
    timeoutMs: settings.timeoutMs,
    connectionsPerOrigin: settings.perEndpointConcurrency,
    ...(options.ca !== undefined && { ca: options.ca }),
  })
  const inFlight = new Map<string, InFlight>()
  const perEndpoint = new Map<string, number>()
  let stopping = false
  let pumping: Promise<void> | undefined
  let again = false
  let timer: NodeJS.Timeout | undefined
  let timerAt = Infinity

  const wake = () => {
    if (stopping) return
    if (pumping) {
      again = true
      return
    }
    pumping = pump().finally(() => {
      pumping = undefined
      if (again) wake()
    })
  }

  const unsubscribe = onDeliveries(wake)
  const listener: Listener | undefined =
    options.databaseUrl !== undefined && isPostgresUrl(options.databaseUrl)
      ? listenForDeliveries(options.databaseUrl, wake, (err) =>
          log.warn({ err }, 'webhook LISTEN connection'),
        )
      : undefined

  function arm(at: number) {
    if (stopping || at >= timerAt) return
    clearTimeout(timer)
    timerAt = at
    timer = setTimeout(
      () => {
        timerAt = Infinity
        wake()
      },
      Math.max(0, at - Date.now()),
    )
  }

  async function pump() {
    try {
      do {
        again = false
        await leaseAndStart()
      } while (again && !stopping)
      if (stopping) return
      // A due row still pending here waits on a busy endpoint or a full dispatcher; the attempt that frees
      // the slot wakes us, so only future retries arm the timer early.
      const due = await deliveries.nextDueAt(db)
      const now = Date.now()
      const at = due === null ? Infinity : Date.parse(due)
      arm(at > now ? Math.min(at, now + settings.pollIntervalMs) : now + settings.pollIntervalMs)
    } catch (err) {
      log.error({ err }, 'webhook dispatcher scan failed')
      arm(Date.now() + settings.pollIntervalMs)
    }
  }

  async function leaseAndStart() {
    const free = settings.concurrency - inFlight.size
    if (free <= 0 || stopping) return
    const now = Date.now()
    const leased = await deliveries.leaseDue(db, {
      owner,
      now: iso(now),
      until: iso(now + leaseMs),
      limit: free,
      perEndpoint: settings.perEndpointConcurrency,
      busy: perEndpoint,
    })
    if (leased.length === 0) return
    const jobs = await deliveries.loadJobs(
      db,
      leased.map((r) => r.id),
    )
    const giveBack: string[] = []
    for (const job of jobs) {
      if (stopping || (perEndpoint.get(job.endpointId) ?? 0) >= settings.perEndpointConcurrency) {
        giveBack.push(job.id)
      } else {
        start(job)
      }
    }
    await deliveries.releaseLeases(db, owner, giveBack)
    if (leased.length === free || giveBack.length > 0) again = true
  }

  function start(job: deliveries.DeliveryJob) {
    const controller = new AbortController()
    perEndpoint.set(job.endpointId, (perEndpoint.get(job.endpointId) ?? 0) + 1)
    const done = run(job, controller.signal)
      .catch((err: unknown) => log.error({ err, deliveryId: job.id }, 'webhook delivery bookkeeping failed'))
      .finally(() => {
        inFlight.delete(job.id)
        const n = (perEndpoint.get(job.endpointId) ?? 1) - 1
        if (n === 0) perEndpoint.delete(job.endpointId)
        else perEndpoint.set(job.endpointId, n)
        wake()
      })
    inFlight.set(job.id, { endpointId: job.endpointId, controller, done })
  }

  async function run(job: deliveries.DeliveryJob, signal: AbortSignal) {
    const firstDue = Date.parse(job.createdAt) + (settings.retrySchedule[0] ?? 0)
    if (job.attempts === 0 && firstDue > Date.now()) {
      await deliveries.postpone(db, owner, job.id, iso(firstDue))
      arm(firstDue)
      return
    }
    const started = Date.now()
    const result = await attempt(agent, settings, job, { ...job, id: job.eventId }, signal)
    if (signal.aborted) {
      await deliveries.releaseLeases(db, owner, [job.id])
      return
    }
    const finished = Date.now()
    const attempts = job.attempts + 1
    const delay = result.ok ? null : nextAttemptDelay(settings.retrySchedule, attempts)
    const status = result.ok ? 'succeeded' : delay === null ? 'failed' : 'pending'
    const recorded = await record({
      owner,
      attempt: {
        delivery_id: job.id,
        attempted_at: iso(started),
        status_code: result.statusCode,
        error: result.error,
        duration_ms: finished - started,
      },
      status,
      attempts,
      nextAttemptAt: delay === null ? null : iso(finished + delay),
      deliveredAt: result.ok ? iso(finished) : null,
    })
    const fields = {
      deliveryId: job.id,
      endpointId: job.endpointId,
      eventId: job.eventId,
      attempt: attempts,
      status,
      statusCode: result.statusCode,
      error: result.error,
    }
    if (!recorded) log.warn(fields, 'webhook lease lost before the attempt was recorded')
    else if (result.ok) log.info(fields, 'webhook delivered')
    else log.warn(fields, status === 'failed' ? 'webhook delivery failed for good' : 'webhook attempt failed')
    if (delay !== null) arm(finished + delay)
  }

  // Group commit: attempts finishing while a write is under way share the next transaction.
  let queue: {
    outcome: deliveries.AttemptOutcome
    settle: (ok: boolean) => void
    fail: (e: unknown) => void
  }[] = []
  let writing = false
  function record(outcome: deliveries.AttemptOutcome): Promise<boolean> {
    return new Promise((settle, fail) => {
      queue.push({ outcome, settle, fail })
      if (!writing) void flush()
    })
  }
  async function flush() {
    writing = true
    while (queue.length > 0) {
      const batch = queue
      queue = []
      try {
        const results = await deliveries.recordAttempts(
          db,
          batch.map((b) => b.outcome),
        )
        batch.forEach((b, i) => b.settle(results[i]!))
      } catch (error) {
        for (const b of batch) b.fail(error)
      }
    }
    writing = false
  }

  wake()

  return {
    owner,
    wake,
    async stop(graceMs = 5000) {
      stopping = true
      clearTimeout(timer)
      unsubscribe()
      await listener?.close()
      await pumping
      const pending = () => Promise.allSettled([...inFlight.values()].map((f) => f.done))
      let graceTimer: NodeJS.Timeout | undefined
      await Promise.race([pending(), new Promise((r) => (graceTimer = setTimeout(r, graceMs)))])
      clearTimeout(graceTimer)
      for (const flight of inFlight.values()) flight.controller.abort()
      await pending()
      await agent.close()
    },
  }
}
