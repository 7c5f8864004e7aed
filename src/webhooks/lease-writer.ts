// The dispatcher's one writer of leases: renewals and attempts' outcomes share group commits, and each
// recorded outcome counts in the metrics.
import type { Kysely } from 'kysely'
import { webhookAttempts, webhookDeliveries, webhookDeliveryLag, webhookLeasesLost } from '../metrics.js'
import * as leases from '../store/leases.js'
import type { Db } from '../store/tables.js'
import type { HealthCheck } from '../store/webhook-endpoints.js'
import { groupCommit, type GroupCommit } from './group-commit.js'

/** One write for the dispatcher's writer: a lease to renew, or an attempt's outcome to record. */
export type LeaseWrite = { renewal: leases.LeaseRenewal } | { outcome: leases.AttemptOutcome }

/** How long a finished attempt may wait for others to share its commit, and how many may share one. */
const RECORD_WINDOW_MS = 25
const RECORD_BATCH = 256

/**
 * Attempts sent but not yet recorded, at most. A database slower than the endpoints holds sending back
 * here rather than letting recording fall so far behind that leases expire and other dispatchers send
 * the same deliveries again.
 */
export const MAX_UNRECORDED = 2 * RECORD_BATCH

/** The writer: a batch of writes commits together, `health` read as each batch is written. */
export function leaseWriter(db: Kysely<Db>, health: () => HealthCheck): GroupCommit<LeaseWrite, boolean> {
  return groupCommit((writes) => write(db, writes, health()), {
    windowMs: RECORD_WINDOW_MS,
    maxBatch: RECORD_BATCH,
  })
}

/**
 * Writes a batch of renewals and outcomes in one transaction, then moves each renewed lease on. Only
 * this writer changes `lease.until`, so no write of this batch read a lease this batch renews.
 */
async function write(db: Kysely<Db>, writes: readonly LeaseWrite[], health: HealthCheck): Promise<boolean[]> {
  const renewals: leases.LeaseRenewal[] = []
  const outcomes: leases.AttemptOutcome[] = []
  for (const w of writes) if ('renewal' in w) renewals.push(w.renewal)
  for (const w of writes) if ('outcome' in w) outcomes.push(w.outcome)
  const { renewed, recorded } = await leases.recordAttempts(db, { renewals, outcomes }, health)
  renewals.forEach((r, i) => {
    if (renewed[i]) r.lease.until = r.until
  })
  let renewal = 0
  let outcome = 0
  return writes.map((w) => ('renewal' in w ? renewed[renewal++]! : recorded[outcome++]!))
}

/** An attempt's outcome in the metrics, once recorded (a lost lease's outcome counts only as lost). */
export function countOutcome(recorded: boolean, outcome: leases.AttemptOutcome, committedAt: number): void {
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
