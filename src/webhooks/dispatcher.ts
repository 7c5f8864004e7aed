// The dispatcher: leases due deliveries in batches, sends them with bounded concurrency (overall and per
// endpoint, so a slow endpoint cannot starve the rest), records every attempt and schedules the next one.
// Wakes on new deliveries in this process, on PostgreSQL NOTIFY from any process, on its own retry
// timers, and otherwise polls. Any number of dispatchers can share one database: a row is worked under a
// lease, and a lease left by a killed dispatcher expires so another one retries it with the same
// `webhook-id`.
//
// Throughput comes from touching the database rarely: one lease statement brings a batch sized to what
// each endpoint can take before the lease runs out (learned from its recent attempt times), the batch is
// sent from memory, and finished attempts share group commits.
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
  debug?(obj: object, msg: string): void
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

/** An endpoint's queue holds at most this many times its concurrency of leased, unsent deliveries. */
const MAX_BATCH_FACTOR = 128

/** How long a finished attempt may wait for others to share its commit, and how many may share one. */
const RECORD_WINDOW_MS = 25
const RECORD_BATCH = 256

/**
 * Attempts sent but not yet recorded, at most. A database slower than the endpoints holds sending back
 * here rather than letting recording fall so far behind that leases expire and other dispatchers send
 * the same deliveries again.
 */
const MAX_UNRECORDED = 2 * RECORD_BATCH

/** Endpoints whose pace is remembered between their queues; older ones start afresh. */
const PACE_ENTRIES = 10_000

/** What this dispatcher holds for one endpoint: leased jobs waiting and attempts in flight. */
interface EndpointQueue {
  waiting: deliveries.DeliveryJob[]
  active: number
  /** The last lease found fewer due rows than this queue had room for. */
  drained: boolean
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
  // An attempt must finish inside its lease, or another dispatcher could send the same delivery meanwhile.
  const leaseMargin = Math.min(settings.timeoutMs + 1000, leaseMs / 2)
  const queues = new Map<string, EndpointQueue>()
  /** Every unfinished job (sending or waiting to be recorded), by delivery id. */
  const inFlight = new Map<string, Promise<void>>()
  // Aborts every attempt still in flight when the stop's grace period ends.
  const abort = new AbortController()
  /** Recent attempt time (ms, moving average) per endpoint, least recently updated first. */
  const pace = new Map<string, number>()
  let waitingCount = 0
  let sending = 0
  let stopping = false
  let pumping: Promise<void> | undefined
  let again = false
  let timer: NodeJS.Timeout | undefined
  let timerAt = Infinity

  // Every wake-up but a finished attempt may mean deliveries for endpoints this dispatcher holds nothing of.
  let anyEndpoint = true
  const wake = () => {
    anyEndpoint = true
    refill()
  }
  const refill = () => {
    if (stopping) return
    if (pumping) {
      again = true
      return
    }
    pumping = pump().finally(() => {
      pumping = undefined
      if (again) refill()
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

  /**
   * How many deliveries an endpoint's queue may hold (waiting plus in flight): as many as its connections
   * can send within half a lease at its recent pace, so a slow endpoint gets no more than it can use.
   */
  function capacity(endpointId: string | undefined): number {
    const perEndpoint = settings.perEndpointConcurrency
    const averageMs = endpointId === undefined ? undefined : pace.get(endpointId)
    if (averageMs === undefined) return perEndpoint
    const rounds = Math.floor(leaseMs / 2 / Math.max(averageMs, 1))
    return perEndpoint * Math.min(Math.max(rounds, 1), MAX_BATCH_FACTOR)
  }

  async function pump() {
    try {
      let scanned = false
      do {
        again = false
        startWaiting()
        if (await lease()) scanned = true
        startWaiting()
      } while (again && !stopping)
      if (stopping) return
      if (!scanned) {
        arm(Date.now() + settings.pollIntervalMs)
        return
      }
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

  /** Leases more work if it is worth a statement; answers whether it looked. */
  async function lease(): Promise<boolean> {
    const room = new Map<string, number>()
    let lowQueue = false
    let knownRoom = 0
    for (const [endpointId, queue] of queues) {
      const free = capacity(endpointId) - queue.waiting.length - queue.active
      room.set(endpointId, free)
      knownRoom += Math.max(free, 0)
      if (!queue.drained && free * 2 >= capacity(endpointId)) lowQueue = true
    }
    // Endpoints this dispatcher holds nothing of get the default room each, up to its concurrency of them.
    const limit = Math.min(
      settings.concurrency * MAX_BATCH_FACTOR - waitingCount - sending,
      knownRoom + capacity(undefined) * settings.concurrency,
    )
    // After a finished attempt, lease only once a queue has drained to half: fewer, larger leases.
    if (stopping || limit <= 0 || !(anyEndpoint || lowQueue)) return false
    anyEndpoint = false
    const now = Date.now()
    const leased = await deliveries.leaseDue(db, {
      owner,
      now: iso(now),
      until: iso(now + leaseMs),
      limit,
      room,
      defaultRoom: capacity(undefined),
    })
    const jobs =
      leased.length === 0
        ? []
        : await deliveries.loadJobs(
            db,
            leased.map((r) => r.id),
          )
    if (stopping) {
      await deliveries.releaseLeases(db, owner, jobs)
      return true
    }
    const got = new Map<string, number>()
    for (const job of jobs) {
      const queue = queueOf(job.endpointId)
      queue.waiting.push(job)
      waitingCount++
      got.set(job.endpointId, (got.get(job.endpointId) ?? 0) + 1)
    }
    for (const [endpointId, free] of room) {
      const queue = queues.get(endpointId)
      if (queue && free > 0) queue.drained = (got.get(endpointId) ?? 0) < free
    }
    if (leased.length === limit) again = anyEndpoint = true
    return true
  }

  function queueOf(endpointId: string): EndpointQueue {
    let queue = queues.get(endpointId)
    if (!queue) {
      queue = { waiting: [], active: 0, drained: false }
      queues.set(endpointId, queue)
    }
    return queue
  }

  /** Starts waiting jobs, endpoint by endpoint, while both concurrency bounds allow. */
  function startWaiting() {
    const expired: deliveries.DeliveryJob[] = []
    for (const queue of queues.values()) {
      while (
        queue.waiting.length > 0 &&
        queue.active < settings.perEndpointConcurrency &&
        sending < settings.concurrency &&
        inFlight.size < MAX_UNRECORDED &&
        !stopping
      ) {
        const job = queue.waiting.shift()!
        waitingCount--
        // A job whose lease is too close to its end goes back to the table for a fresh lease.
        if (Date.parse(job.leaseUntil) - Date.now() < leaseMargin) expired.push(job)
        else start(queue, job)
      }
    }
    // An idle queue is forgotten once a lease found nothing more for it; until then it keeps its room in
    // the next lease, so an endpoint with a backlog is leased again as soon as its queue runs dry.
    for (const [endpointId, queue] of queues) {
      if (queue.waiting.length === 0 && queue.active === 0 && queue.drained) queues.delete(endpointId)
    }
    if (expired.length > 0) {
      again = anyEndpoint = true
      deliveries
        .releaseLeases(db, owner, expired)
        .catch((err: unknown) => log.error({ err }, 'webhook lease release failed'))
    }
  }

  function start(queue: EndpointQueue, job: deliveries.DeliveryJob) {
    queue.active++
    sending++
    let freed = false
    // The connection is free once the attempt is over; recording it joins the next group commit meanwhile.
    const free = () => {
      if (freed) return
      freed = true
      queue.active--
      sending--
      startWaiting()
      refill()
    }
    const done = run(job, abort.signal, free)
      .catch((err: unknown) => log.error({ err, deliveryId: job.id }, 'webhook delivery bookkeeping failed'))
      .finally(() => {
        inFlight.delete(job.id)
        free()
        // A full backlog of unrecorded attempts may have held sending back; this one no longer counts.
        startWaiting()
        refill()
      })
    inFlight.set(job.id, done)
  }

  async function run(job: deliveries.DeliveryJob, signal: AbortSignal, free: () => void) {
    // Every write about this attempt holds to the lease it was sent under: if the attempt outlives it, the
    // row may be leased again (by any dispatcher, this one included) and this run's outcome is stale.
    const lease = { owner, until: job.leaseUntil }
    const firstDue = Date.parse(job.createdAt) + (settings.retrySchedule[0] ?? 0)
    if (job.attempts === 0 && firstDue > Date.now()) {
      await deliveries.postpone(db, lease, job.id, iso(firstDue))
      arm(firstDue)
      return
    }
    const started = Date.now()
    log.debug?.({ deliveryId: job.id, endpointId: job.endpointId, eventId: job.eventId }, 'webhook attempt')
    const result = await attempt(agent, settings, job, { ...job, id: job.eventId }, signal)
    if (signal.aborted) {
      await deliveries.releaseLeases(db, owner, [job])
      return
    }
    const finished = Date.now()
    const took = finished - started
    const average = pace.get(job.endpointId)
    pace.delete(job.endpointId)
    pace.set(job.endpointId, average === undefined ? took : average * 0.8 + took * 0.2)
    if (pace.size > PACE_ENTRIES) pace.delete(pace.keys().next().value!)
    free()
    const attempts = job.attempts + 1
    const delay = result.ok ? null : nextAttemptDelay(settings.retrySchedule, attempts)
    const status = result.ok ? 'succeeded' : delay === null ? 'failed' : 'pending'
    const recorded = await record({
      lease,
      attempt: {
        delivery_id: job.id,
        attempted_at: iso(started),
        status_code: result.statusCode,
        error: result.error,
        duration_ms: took,
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

  // Group commit: outcomes wait up to RECORD_WINDOW_MS (or until RECORD_BATCH of them) and share one
  // transaction. A SQLite commit blocks the event loop for its fsync; one per attempt would cap a
  // dispatcher at a few hundred deliveries a second. Delivery itself never waits for this.
  let unrecorded: {
    outcome: deliveries.AttemptOutcome
    settle: (ok: boolean) => void
    fail: (e: unknown) => void
  }[] = []
  let writing = false
  let recordTimer: NodeJS.Timeout | undefined
  function record(outcome: deliveries.AttemptOutcome): Promise<boolean> {
    return new Promise((settle, fail) => {
      unrecorded.push({ outcome, settle, fail })
      scheduleFlush()
    })
  }
  function scheduleFlush() {
    if (writing || unrecorded.length === 0) return
    if (unrecorded.length >= RECORD_BATCH) {
      clearTimeout(recordTimer)
      recordTimer = undefined
      void flush()
    } else {
      recordTimer ??= setTimeout(() => {
        recordTimer = undefined
        void flush()
      }, RECORD_WINDOW_MS)
    }
  }
  async function flush() {
    if (writing) return
    writing = true
    const batch = unrecorded
    unrecorded = []
    try {
      const results = await deliveries.recordAttempts(
        db,
        batch.map((b) => b.outcome),
      )
      batch.forEach((b, i) => b.settle(results[i]!))
    } catch (error) {
      for (const b of batch) b.fail(error)
    } finally {
      writing = false
      scheduleFlush()
    }
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
      const unsent = [...queues.values()].flatMap((q) => q.waiting.splice(0))
      waitingCount = 0
      await deliveries.releaseLeases(db, owner, unsent)
      const pending = () => Promise.allSettled([...inFlight.values()])
      let graceTimer: NodeJS.Timeout | undefined
      await Promise.race([pending(), new Promise((r) => (graceTimer = setTimeout(r, graceMs)))])
      clearTimeout(graceTimer)
      abort.abort()
      await pending()
      await agent.close()
    },
  }
}
