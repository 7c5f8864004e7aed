// The dispatcher's lease loop: expands recorded events into deliveries (`fanOut`), leases due deliveries
// in batches, sends them with bounded concurrency
// (overall and per endpoint, so a slow endpoint cannot starve the rest), records every attempt and
// schedules the next one. Wakes on announced deliveries (this process, or any process over PostgreSQL
// LISTEN), on its own retry timers, and otherwise polls. Any number of dispatchers can share one
// database: a row is worked under a lease, and a lease left by a killed dispatcher expires so another one
// retries it with the same `webhook-id`. A lease is renewed while its attempt is out (sent, or waiting to
// be recorded), so a slow answer or a lagging commit never lets another dispatcher send it again.
//
// Fairness comes from a share per source: attempts start round-robin over the sources (the owners of the
// endpoints), each with at most `sourceConcurrency` in flight, and a lease takes no more of one source
// than it can start; so one tenant's hanging endpoints cost the others nothing but their own slots.
//
// Throughput comes from touching the database rarely: one lease statement brings a batch sized to what
// each endpoint can take before the lease runs out (`Pacing`), the batch is sent from memory
// (`EndpointQueues`), and finished attempts share group commits (`groupCommit`).
import type { Agent } from 'undici'
import { systemClock, type Clock } from '../clock.js'
import { silentLog, startDuty, type Duty, type DutyLog, type DutyRun } from '../duty.js'
import {
  webhookAttempts,
  webhookDeliveries,
  webhookDeliveryLag,
  webhookInFlight,
  webhookLeased,
  webhookLeasesLost,
} from '../metrics.js'
import type { Database } from '../store/database.js'
import type { HealthCheck } from '../store/webhook-endpoints.js'
import * as leases from '../store/leases.js'
import type { Listener } from '../store/outbox.js'
import { attempt, createAgent } from './deliver.js'
import { EndpointQueues } from './endpoint-queues.js'
import { FAN_OUT_BATCH, fanOut } from './fan-out.js'
import { groupCommit, type GroupCommit } from './group-commit.js'
import { outcomeOf } from './outcome.js'
import { MAX_BATCH_FACTOR, Pacing } from './pacing.js'
import { DEFAULT_DISABLE_AFTER_MS, DEFAULT_SOURCE_CONCURRENCY, type WebhookSettings } from './settings.js'
import { iso } from '../time.js'

export interface DispatcherOptions {
  /** The database handle: its queries, and its wake-ups when deliveries are announced. */
  database: Pick<Database, 'db' | 'listenForWork'>
  settings: WebhookSettings
  /** Trust these CAs instead of the default store (tests). */
  ca?: string | Buffer
  log?: DutyLog
  /** How long a lease holds; default twice the timeout plus a second. */
  leaseMs?: number
  /**
   * The one time the dispatcher reads: leases and their renewals, when attempts are due, and endpoint
   * health (disable after failing `settings.disableAfterMs`). Tests move it to expire a lease or a retry.
   */
  clock?: Clock
}

/** One write for the dispatcher's writer: a lease to renew, or an attempt's outcome to record. */
type LeaseWrite = { renewal: leases.LeaseRenewal } | { outcome: leases.AttemptOutcome }

interface InFlight {
  done: Promise<void>
  lease: leases.Lease
  /** A renewal is waiting for the writer. */
  renewing: boolean
  /** A renewal was refused: the lease is gone, and so is any point in renewing it. */
  lost?: boolean
}

export interface Dispatcher {
  readonly owner: string
  /** Look for due deliveries now. */
  wake(): void
  /** Stops leasing; in-flight attempts get `graceMs` to finish, then are aborted and their leases released. */
  stop(graceMs?: number): Promise<void>
}

/** A lease is renewed once a quarter of it has passed, checked every quarter: it always has half left. */
const RENEW_FRACTION = 4

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
  // A class with a detail after a colon counts as the class alone.
  webhookAttempts.inc({ result: error === null || error === undefined ? 'succeeded' : error.split(':')[0] })
  if (outcome.status === 'pending') return
  webhookDeliveries.inc({ outcome: outcome.status })
  if (outcome.deliveredAt !== null) {
    webhookDeliveryLag.observe((Date.parse(outcome.deliveredAt) - committedAt) / 1000)
  }
}

export function startDispatcher(options: DispatcherOptions): Dispatcher {
  const loop = new LeaseLoop(options)
  return { owner: loop.owner, wake: () => loop.wake(), stop: (graceMs) => loop.stop(graceMs) }
}

class LeaseLoop {
  readonly owner: string
  private readonly db: DispatcherOptions['database']['db']
  private readonly settings: WebhookSettings
  private readonly log: DutyLog
  private readonly leaseMs: number
  private readonly perSource: number
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
  private readonly clock: Clock
  /**
   * The one writer of attempts and lease renewals, one batch at a time: a renewal and a recording of the
   * same lease never race, and each reads the lease as the last written batch left it.
   */
  private readonly writer: GroupCommit<LeaseWrite, boolean>
  /** One pump at a time, woken by announced deliveries, finished attempts and its alarm (retries, polls). */
  private readonly duty: Duty
  private readonly renewTimer: NodeJS.Timeout
  private readonly listener: Listener
  /** Every unfinished job (sending or waiting to be recorded), by delivery id, with its current lease. */
  private readonly inFlight = new Map<string, InFlight>()
  /** Aborts every attempt still in flight when the stop's grace period ends. */
  private readonly abort = new AbortController()
  private stopping = false
  /** This round found more than it took (a full batch, a job handed back): the pump goes round again. */
  private more = false
  /** Every wake-up but a finished attempt may mean deliveries for endpoints this loop holds nothing of. */
  private anyEndpoint = true
  /** Every wake-up but a finished attempt may mean recorded events still to expand. */
  private unexpanded = true

  constructor(options: DispatcherOptions) {
    this.db = options.database.db
    this.settings = options.settings
    this.log = options.log ?? silentLog
    this.leaseMs = options.leaseMs ?? this.settings.timeoutMs * 2 + 1000
    this.perSource = this.settings.sourceConcurrency ?? DEFAULT_SOURCE_CONCURRENCY
    this.leaseMargin = Math.min(this.settings.timeoutMs + 1000, this.leaseMs / 2)
    this.agent = createAgent({
      policy: this.settings.policy,
      timeoutMs: this.settings.timeoutMs,
      // The pool is per origin, and endpoints of several tenants may share one (a relay host): bounded by
      // the endpoint's concurrency, one tenant's hanging attempts held every connection to the host and
      // the others' waited out the time-out (issue 36, L3). Pacing bounds each endpoint; the pool only
      // the dispatcher.
      connectionsPerOrigin: this.settings.concurrency,
      ...(options.ca !== undefined && { ca: options.ca }),
    })
    this.pacing = new Pacing(this.settings.perEndpointConcurrency, this.leaseMs)
    const clock = (this.clock = options.clock ?? systemClock)
    const disableAfterMs = this.settings.disableAfterMs ?? DEFAULT_DISABLE_AFTER_MS
    const health = () => {
      const now = clock.now()
      return { now: iso(now), disableFailingSince: iso(now - disableAfterMs) }
    }
    this.writer = groupCommit((writes) => this.write(writes, health()), {
      windowMs: RECORD_WINDOW_MS,
      maxBatch: RECORD_BATCH,
    })
    this.renewTimer = setInterval(() => this.renew(), this.leaseMs / RENEW_FRACTION).unref()
    this.duty = startDuty(
      {
        name: 'webhook dispatcher scan',
        run: (duty) => this.pump(duty),
        pollMs: this.settings.pollIntervalMs,
        onAlarm: () => (this.anyEndpoint = this.unexpanded = true),
      },
      { clock, log: this.log },
    )
    this.owner = this.duty.owner
    this.listener = options.database.listenForWork(
      () => this.wake(),
      (err) => this.log.warn({ err }, 'webhook LISTEN connection'),
    )
  }

  wake(): void {
    this.anyEndpoint = this.unexpanded = true
    this.duty.wake()
  }

  /**
   * One run of the duty: rounds of expanding, leasing and starting while a wake-up or the round itself asks
   * for more; answers when the next retry is due (else the poll).
   */
  private async pump(duty: DutyRun): Promise<number | undefined> {
    let scanned = false
    let again: boolean
    do {
      this.more = false
      await this.expand()
      this.startWaiting()
      if (await this.lease()) scanned = true
      this.startWaiting()
      again = duty.again()
    } while ((again || this.more) && !this.stopping)
    if (this.stopping || !scanned) return undefined
    // A due row still pending here waits on a busy endpoint or a full dispatcher; the attempt that frees
    // the slot wakes us, so only future retries arm the timer early.
    const due = await leases.nextDueAt(this.db)
    const at = due === null ? Infinity : Date.parse(due)
    return at > this.clock.now() ? at : undefined
  }

  /**
   * Expands a batch of recorded events into deliveries. A full batch means more may wait: the pump goes
   * round again, so the deliveries of one batch are being sent while the next is expanded.
   */
  private async expand(): Promise<void> {
    if (!this.unexpanded) return
    this.unexpanded = false
    if ((await fanOut(this.db, this.clock)) === FAN_OUT_BATCH) this.more = this.unexpanded = true
  }

  /** Leases more work if it is worth a statement; answers whether it looked. */
  private async lease(): Promise<boolean> {
    const capacity = (endpointId?: string) => this.pacing.capacity(endpointId)
    const { room, sourceRoom, known, lowQueue } = this.queues.room(capacity, this.perSource)
    // Endpoints this loop holds nothing of get the default room each, up to its concurrency of them.
    const { concurrency } = this.settings
    const limit = Math.min(
      concurrency * MAX_BATCH_FACTOR - this.queues.waiting - this.queues.sending,
      known + capacity() * concurrency,
    )
    // After a finished attempt, lease only once a queue has drained to half: fewer, larger leases.
    if (this.stopping || limit <= 0 || !(this.anyEndpoint || lowQueue)) return false
    this.anyEndpoint = false
    const now = this.clock.now()
    const leased = await leases.leaseDue(this.db, {
      owner: this.owner,
      now: iso(now),
      until: iso(now + this.leaseMs + this.leaseLatency),
      limit,
      room,
      defaultRoom: capacity(),
      sourceRoom,
      defaultSourceRoom: this.perSource,
      exclude: [...this.inFlight].filter(([, job]) => Date.parse(job.lease.until) <= now).map(([id]) => id),
    })
    webhookLeased.inc(leased.length)
    const jobs = await leases.loadJobs(
      this.db,
      leased.map((r) => r.id),
    )
    this.leaseLatency = this.clock.now() - now
    if (this.stopping) {
      await leases.releaseLeases(this.db, this.owner, jobs)
      return true
    }
    this.queues.add(jobs, room)
    if (leased.length === limit) this.more = this.anyEndpoint = true
    return true
  }

  /** Starts waiting jobs while the concurrency bounds allow; a job near its lease's end goes back. */
  private startWaiting(): void {
    const expired: leases.DeliveryJob[] = []
    const mayStart = () =>
      this.queues.sending < this.settings.concurrency && this.inFlight.size < MAX_UNRECORDED && !this.stopping
    const { perEndpointConcurrency } = this.settings
    for (const job of this.queues.startable(perEndpointConcurrency, this.perSource, mayStart)) {
      if (Date.parse(job.leaseUntil) - this.clock.now() < this.leaseMargin) expired.push(job)
      else this.start(job)
    }
    if (expired.length > 0) {
      this.more = this.anyEndpoint = true
      leases
        .releaseLeases(this.db, this.owner, expired)
        .catch((err: unknown) => this.log.error({ err }, 'webhook lease release failed'))
    }
  }

  private start(job: leases.DeliveryJob): void {
    const end = this.queues.begin(job)
    // Renewals move `until` on; every write about this attempt reads the lease as it is then.
    const entry: InFlight = {
      done: Promise.resolve(),
      lease: { owner: this.owner, until: job.leaseUntil },
      renewing: false,
    }
    // The connection is free once the attempt is over; recording it joins the next group commit meanwhile.
    const free = () => {
      end()
      this.startWaiting()
      this.duty.wake()
    }
    webhookInFlight.inc()
    entry.done = this.run(job, entry.lease, free)
      .catch((err: unknown) =>
        this.log.error({ err, deliveryId: job.id }, 'webhook delivery bookkeeping failed'),
      )
      .finally(() => {
        webhookInFlight.dec()
        this.inFlight.delete(job.id)
        // A full backlog of unrecorded attempts may have held sending back; this one no longer counts.
        free()
      })
    this.inFlight.set(job.id, entry)
  }

  /**
   * Writes a batch of renewals and outcomes in one transaction, then moves each renewed lease on. Only
   * this writer changes `lease.until`, so no write of this batch read a lease this batch renews.
   */
  private async write(writes: readonly LeaseWrite[], health: HealthCheck): Promise<boolean[]> {
    const renewals: leases.LeaseRenewal[] = []
    const outcomes: leases.AttemptOutcome[] = []
    for (const w of writes) if ('renewal' in w) renewals.push(w.renewal)
    for (const w of writes) if ('outcome' in w) outcomes.push(w.outcome)
    const { renewed, recorded } = await leases.recordAttempts(this.db, { renewals, outcomes }, health)
    renewals.forEach((r, i) => {
      if (renewed[i]) r.lease.until = r.until
    })
    let renewal = 0
    let outcome = 0
    return writes.map((w) => ('renewal' in w ? renewed[renewal++]! : recorded[outcome++]!))
  }

  /**
   * Extends the lease of every attempt still out once a quarter of its lease has passed, through the one
   * writer. A renewal refused means the lease was lost (the delivery was requeued): it is not asked again.
   */
  private renew(): void {
    const now = this.clock.now()
    const until = iso(now + this.leaseMs)
    for (const [id, entry] of this.inFlight) {
      const left = Date.parse(entry.lease.until) - now
      if (entry.renewing || entry.lost || left > this.leaseMs - this.leaseMs / RENEW_FRACTION) continue
      entry.renewing = true
      this.writer
        .add({ renewal: { id, lease: entry.lease, until } })
        .then((renewed) => {
          if (!renewed) entry.lost = true
        })
        .catch((err: unknown) => this.log.error({ err, deliveryId: id }, 'webhook lease renewal failed'))
        .finally(() => (entry.renewing = false))
    }
  }

  private async run(job: leases.DeliveryJob, lease: leases.Lease, free: () => void): Promise<void> {
    // Every write about this attempt holds to its lease: if the lease is lost (it expired before a renewal
    // got through, or the delivery was requeued), the row may be leased again (by any dispatcher, this one
    // included) and this run's outcome is stale.
    const firstDue = Date.parse(job.createdAt) + (this.settings.retrySchedule[0] ?? 0)
    if (job.attempts === 0 && firstDue > this.clock.now()) {
      await leases.postpone(this.db, lease, job.id, iso(firstDue))
      this.duty.dueBy(firstDue)
      return
    }
    const started = this.clock.now()
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
      await leases.releaseLeases(this.db, this.owner, [{ id: job.id, leaseUntil: lease.until }])
      return
    }
    const finished = this.clock.now()
    this.pacing.observe(job.endpointId, finished - started)
    free()
    const { outcome, delay } = outcomeOf(job, lease, result, this.settings.retrySchedule, {
      started,
      finished,
    })
    const recorded = await this.writer.add({ outcome })
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
    if (delay !== null) this.duty.dueBy(finished + delay)
  }

  async stop(graceMs = 5000): Promise<void> {
    this.stopping = true
    const stopped = this.duty.stop()
    await this.listener.close()
    await stopped
    await leases.releaseLeases(this.db, this.owner, this.queues.drain())
    const pending = () => Promise.allSettled([...this.inFlight.values()].map((job) => job.done))
    let graceTimer: NodeJS.Timeout | undefined
    await Promise.race([pending(), new Promise((r) => (graceTimer = setTimeout(r, graceMs)))])
    clearTimeout(graceTimer)
    this.abort.abort()
    await pending()
    clearInterval(this.renewTimer)
    await this.agent.close()
  }
}
