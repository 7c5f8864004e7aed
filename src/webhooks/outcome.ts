// What an attempt's result means for its delivery: succeeded, pending with the schedule's next delay, or
// failed for good once the schedule is used up.
import type { AttemptOutcome, DeliveryJob, Lease } from '../store/leases.js'
import type { AttemptResult } from './deliver.js'
import { nextAttemptDelay } from './retry-schedule.js'
import { iso } from '../time.js'

export interface Timing {
  started: number
  finished: number
}

/** The outcome to record, and the delay before the next attempt (null when none follows). */
export function outcomeOf(
  job: DeliveryJob,
  lease: Lease,
  result: AttemptResult,
  schedule: readonly number[],
  { started, finished }: Timing,
): { outcome: AttemptOutcome; delay: number | null } {
  const attempts = job.attempts + 1
  const delay = result.ok ? null : nextAttemptDelay(schedule, attempts)
  return {
    delay,
    outcome: {
      lease,
      attempt: {
        delivery_id: job.id,
        attempted_at: iso(started),
        status_code: result.statusCode,
        error: result.error,
        duration_ms: finished - started,
      },
      status: result.ok ? 'succeeded' : delay === null ? 'failed' : 'pending',
      attempts,
      nextAttemptAt: delay === null ? null : iso(finished + delay),
      deliveredAt: result.ok ? iso(finished) : null,
    },
  }
}
