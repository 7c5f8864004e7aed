// The dispatcher's lease loop: expands recorded events into deliveries (`fanOut`), leases due deliveries
// in batches, sends them with bounded concurrency
// (overall and per endpoint, so a slow endpoint cannot starve the rest), records every attempt and
// schedules the next one. Wakes on announced deliveries (this process, or any process over PostgreSQL
// LISTEN), on its own retry timers, and otherwise polls. Any number of dispatchers can share one
// database: a row is worked under a lease, and a lease left by a killed dispatcher expires so another one
// retries it with the same `webhook-id`.
//
// Throughput comes from touching the database rarely: one lease statement brings a batch sized to what
// each endpoint can take before the lease runs out (`Pacing`), the batch is sent from memory
// (`EndpointQueues`), and finished attempts share group commits (`groupCommit`).
import { randomBytes } from 'node:crypto'
import { hostname } from 'node:os'
import type { Agent } from 'undici'
import { systemClock, type Clock } from '../clock.js'
import {
  webhookAttempts,
  webhookDeliveries,
  webhookDeliveryLag,
  webhookInFlight,
  webhookLeased,
  webhookLeasesLost,
} from '../metrics.js'
import type { Database } from '../store/database.js'
import * as leases from '../store/leases.js'
import type { Listener } from '../store/outbox.js'
import { Alarm } from './alarm.js'
import { attempt, createAgent } from './deliver.js'
import { EndpointQueues } from './endpoint-queues.js'
import { FAN_OUT_BATCH, fanOut } from './fan-out.js'
import { groupCommit, type GroupCommit } from './group-commit.js'
import { outcomeOf } from './outcome.js'
import { MAX_BATCH_FACTOR, Pacing } from './pacing.js'
import { DEFAULT_DISABLE_AFTER_MS, type WebhookSettings } from './settings.js'

export interface DispatcherLog {
  debug?(obj: object, msg: string): void
  info(obj: object, msg: string): void
  warn(obj: object, msg: string): void
  error(obj: object, msg: string): void
}

export interface DispatcherOptions {
  /** The database handle: its queries, and its wake-ups when deliveries are announced. */
  database: Pick<Database, 'db' | 'listenForWork'>
  settings: WebhookSettings
  /** Trust these CAs instead of the default store (tests). */
  ca?: string | Buffer
  log?: DispatcherLog
  /** How long a lease holds; default twice the timeout plus a second. */
  leaseMs?: number
  /** Judges endpoint health (disable after failing `settings.disableAfterMs`); tests move it. */
  clock?: Clock
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

/** How long a finished attempt may wait for others to share its commit, and how many may share one. */
const RECORD_WINDOW_MS = 25
const RECORD_BATCH = 256

/**
 * Attempts sent but not yet recorded, at most. A database slower than the endpoints holds sending back
 * here rather than letting recording fall so far behind that leases expire and other dispatchers send
 * the same deliveries again.
 */
const MAX_UNRECORDED = 2 * RECORD_BATCH

/** An attempt's outcome in the metrics, once recorded (a lost lease's outcome counts only as lost). */
function countOutcome(recorded: boolean, outcome: leases.AttemptOutcome, committedAt: number): void {
  if (!recorded) return webhookLeasesLost.inc()
  const error = outcome.attempt.error
  // `address_refused:<reason>` keeps its class; the reasons are many and only the logs need them.
  webhookAttempts.inc({ result: error === null || error === undefined ? 'succeeded' : error.split(':')[0] })
  if (outcome.status === 'pending') return
  webhookDeliveries.inc({ outcome: outcome.status })
  if (outcome.deliveredAt !== null) {
    webhookDeliveryLag.observe((Date.parse(outcome.deliveredAt) - committedAt) / 1000)
  }
}

export function startDispatcher(options: DispatcherOptions): Dispatcher {
  const loop = new LeaseLoop(options)
  loop.wake()
  return { owner: loop.owner, wake: () => loop.wake(), stop: (graceMs) => loop.stop(graceMs) }
}

class LeaseLoop {
  readonly owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`
  private readonly db: DispatcherOptions['database']['db']
  private readonly settings: WebhookSettings
  private readonly log: DispatcherLog
  private readonly leaseMs: number
  /** An attempt must finish inside its lease, or another dispatcher could send it meanwhile. */
  private readonly leaseMargin: number
  /**
   * How long the last lease took to reach this loop (statement and job load). A lease is granted from the
   * time it was asked for, so a slow database eats into it; stretching the next lease by this much keeps a
   * loaded database from handing every job back as "near its lease's end", round after round.
   */
  private leaseLatency = 0
  private readonly agent: Agent
  private readonly pacing: Pacing
  private readonly queues = new EndpointQueues()
  private readonly recorder: GroupCommit<leases.AttemptOutcome, boolean>
  private readonly alarm = new Alarm(() => this.wake())
  private readonly listener: Listener
  /** Every unfinished job (sending or waiting to be recorded), by delivery id, with its lease's end. */
  private readonly inFlight = new Map<string, { done: Promise<void>; leaseUntil: string }>()
  /** Aborts every attempt still in flight when the stop's grace period ends. */
  private readonly abort = new AbortController()
  private stopping = false
  private pumping: Promise<void> | undefined
  private again = false
  /** Every wake-up but a finished attempt may mean deliveries for endpoints this loop holds nothing of. */
  private anyEndpoint = true
  /** Every wake-up but a finished attempt may mean recorded events still to expand. */
  private unexpanded = true

  constructor(options: DispatcherOptions) {
    this.db = options.database.db
    this.settings = options.settings
    this.log = options.log ?? silent
    this.leaseMs = options.leaseMs ?? this.settings.timeoutMs * 2 + 1000
    this.leaseMargin = Math.min(this.settings.timeoutMs + 1000, this.leaseMs / 2)
    this.agent = createAgent({
      policy: this.settings.policy,
      timeoutMs: this.settings.timeoutMs,
      connectionsPerOrigin: this.settings.perEndpointConcurrency,
      ...(options.ca !== undefined && { ca: options.ca }),
    })
    this.pacing = new Pacing(this.settings.perEndpointConcurrency, this.leaseMs)
    const clock = options.clock ?? systemClock
    const disableAfterMs = this.settings.disableAfterMs ?? DEFAULT_DISABLE_AFTER_MS
    const health = () => {
      const now = clock.now()
      return { now: iso(now), disableFailingSince: iso(now - disableAfterMs) }
    }
    this.recorder = groupCommit((outcomes) => leases.recordAttempts(this.db, outcomes, health()), {
      windowMs: RECORD_WINDOW_MS,
      maxBatch: RECORD_BATCH,
    })
    this.listener = options.database.listenForWork(
      () => this.wake(),
      (err) => this.log.warn({ err }, 'webhook LISTEN connection'),
    )
  }

  wake(): void {
    this.anyEndpoint = this.unexpanded = true
    this.refill()
  }

  /** One pump at a time; a request while it runs makes it go round again. */
  private refill(): void {
    if (this.stopping) return
    if (this.pumping) {
      this.again = true
      return
    }
    this.pumping = this.pump().finally(() => {
      this.pumping = undefined
      if (this.again) this.refill()
    })
  }

  private async pump(): Promise<void> {
    const poll = () => this.alarm.arm(Date.now() + this.settings.pollIntervalMs)
    try {
      let scanned = false
      do {
        this.again = false
        await this.expand()
        this.startWaiting()
        if (await this.lease()) scanned = true
        this.startWaiting()
      } while (this.again && !this.stopping)
      if (this.stopping) return
      if (!scanned) return poll()
      // A due row still pending here waits on a busy endpoint or a full dispatcher; the attempt that frees
      // the slot wakes us, so only future retries arm the timer early.
      const due = await leases.nextDueAt(this.db)
      const at = due === null ? Infinity : Date.parse(due)
      const now = Date.now()
      this.alarm.arm(
        at > now ? Math.min(at, now + this.settings.pollIntervalMs) : now + this.settings.pollIntervalMs,
      )
    } catch (err) {
      this.log.error({ err }, 'webhook dispatcher scan failed')
      poll()
    }
  }

  /**
   * Expands a batch of recorded events into deliveries. A full batch means more may wait: the pump goes
   * round again, so the deliveries of one batch are being sent while the next is expanded.
   */
  private async expand(): Promise<void> {
    if (!this.unexpanded) return
    this.unexpanded = false
    if ((await fanOut(this.db)) === FAN_OUT_BATCH) this.again = this.unexpanded = true
  }

  /** Leases more work if it is worth a statement; answers whether it looked. */
  private async lease(): Promise<boolean> {
    const capacity = (endpointId?: string) => this.pacing.capacity(endpointId)
    const { room, known, lowQueue } = this.queues.room(capacity)
    // Endpoints this loop holds nothing of get the default room each, up to its concurrency of them.
    const { concurrency } = this.settings
    const limit = Math.min(
      concurrency * MAX_BATCH_FACTOR - this.queues.waiting - this.queues.sending,
      known + capacity() * concurrency,
    )
    // After a finished attempt, lease only once a queue has drained to half: fewer, larger leases.
    if (this.stopping || limit <= 0 || !(this.anyEndpoint || lowQueue)) return false
    this.anyEndpoint = false
    const now = Date.now()
    const leased = await leases.leaseDue(this.db, {
      owner: this.owner,
      now: iso(now),
      until: iso(now + this.leaseMs + this.leaseLatency),
      limit,
      room,
      defaultRoom: capacity(),
      exclude: [...this.inFlight].filter(([, job]) => Date.parse(job.leaseUntil) <= now).map(([id]) => id),
    })
    webhookLeased.inc(leased.length)
    const jobs = await leases.loadJobs(
      this.db,
      leased.map((r) => r.id),
    )
    this.leaseLatency = Date.now() - now
    if (this.stopping) {
      await leases.releaseLeases(this.db, this.owner, jobs)
      return true
    }
    this.queues.add(jobs, room)
    if (leased.length === limit) this.again = this.anyEndpoint = true
    return true
  }

  /** Starts waiting jobs while the concurrency bounds allow; a job near its lease's end goes back. */
  private startWaiting(): void {
    const expired: leases.DeliveryJob[] = []
    const mayStart = () =>
      this.queues.sending < this.settings.concurrency && this.inFlight.size < MAX_UNRECORDED && !this.stopping
    for (const job of this.queues.startable(this.settings.perEndpointConcurrency, mayStart)) {
      if (Date.parse(job.leaseUntil) - Date.now() < this.leaseMargin) expired.push(job)
      else this.start(job)
    }
    if (expired.length > 0) {
      this.again = this.anyEndpoint = true
      leases
        .releaseLeases(this.db, this.owner, expired)
        .catch((err: unknown) => this.log.error({ err }, 'webhook lease release failed'))
    }
  }

  private start(job: leases.DeliveryJob): void {
    const end = this.queues.begin(job.endpointId)
    // The connection is free once the attempt is over; recording it joins the next group commit meanwhile.
    const free = () => {
      end()
      this.startWaiting()
      this.refill()
    }
    webhookInFlight.inc()
    const done = this.run(job, free)
      .catch((err: unknown) =>
        this.log.error({ err, deliveryId: job.id }, 'webhook delivery bookkeeping failed'),
      )
      .finally(() => {
        webhookInFlight.dec()
        this.inFlight.delete(job.id)
        // A full backlog of unrecorded attempts may have held sending back; this one no longer counts.
        free()
      })
    this.inFlight.set(job.id, { done, leaseUntil: job.leaseUntil })
  }

  private async run(job: leases.DeliveryJob, free: () => void): Promise<void> {
    // Every write about this attempt holds to the lease it was sent under: if the attempt outlives it, the
    // row may be leased again (by any dispatcher, this one included) and this run's outcome is stale.
    const lease = { owner: this.owner, until: job.leaseUntil }
    const firstDue = Date.parse(job.createdAt) + (this.settings.retrySchedule[0] ?? 0)
    if (job.attempts === 0 && firstDue > Date.now()) {
      await leases.postpone(this.db, lease, job.id, iso(firstDue))
      this.alarm.arm(firstDue)
      return
    }
    const started = Date.now()
    const ids = { deliveryId: job.id, endpointId: job.endpointId, eventId: job.eventId }
    this.log.debug?.(ids, 'webhook attempt')
    const envelope = {
      id: job.eventId,
      event: job.event,
      createdAt: job.createdAt,
      data: job.data,
      test: job.test === 1,
    }
    const result = await attempt(this.agent, this.settings, job, envelope, this.abort.signal)
    if (this.abort.signal.aborted) {
      await leases.releaseLeases(this.db, this.owner, [job])
      return
    }
    const finished = Date.now()
    this.pacing.observe(job.endpointId, finished - started)
    free()
    const { outcome, delay } = outcomeOf(job, lease, result, this.settings.retrySchedule, {
      started,
      finished,
    })
    const recorded = await this.recorder.add(outcome)
    countOutcome(recorded, outcome, Date.parse(job.createdAt))
    const fields = {
      ...ids,
      attempt: outcome.attempts,
      status: outcome.status,
      statusCode: result.statusCode,
      error: result.error,
    }
    if (!recorded) this.log.warn(fields, 'webhook lease lost before the attempt was recorded')
    else if (result.ok) this.log.info(fields, 'webhook delivered')
    else
      this.log.warn(
        fields,
        outcome.status === 'failed' ? 'webhook delivery failed for good' : 'webhook attempt failed',
      )
    if (delay !== null) this.alarm.arm(finished + delay)
  }

  async stop(graceMs = 5000): Promise<void> {
    this.stopping = true
    this.alarm.stop()
    await this.listener.close()
    await this.pumping
    await leases.releaseLeases(this.db, this.owner, this.queues.drain())
    const pending = () => Promise.allSettled([...this.inFlight.values()].map((job) => job.done))
    let graceTimer: NodeJS.Timeout | undefined
    await Promise.race([pending(), new Promise((r) => (graceTimer = setTimeout(r, graceMs)))])
    clearTimeout(graceTimer)
    this.abort.abort()
    await pending()
    await this.agent.close()
  }
}
