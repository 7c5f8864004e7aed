// REFDESK_WEBHOOK_RETRY_SCHEDULE: the delay before each attempt (`0s,5s,5m,30m,2h,5h,10h,10h`), so its
// length is the number of attempts.
import { DAY_MS, HOUR_MS, MINUTE_MS, SECOND_MS } from '../time.js'
export const DEFAULT_RETRY_SCHEDULE = '0s,5s,5m,30m,2h,5h,10h,10h'

const UNIT_MS: Record<string, number> = { ms: 1, s: SECOND_MS, m: MINUTE_MS, h: HOUR_MS, d: DAY_MS }

export function parseRetrySchedule(text: string): number[] {
  const delays = text.split(',').map((part) => {
    const match = /^\s*(\d+(?:\.\d+)?)(ms|s|m|h|d)\s*$/.exec(part)
    if (!match) throw new Error(`invalid retry delay "${part.trim()}" (use e.g. 0s, 500ms, 5m, 2h)`)
    return Math.round(Number(match[1]) * UNIT_MS[match[2]!]!)
  })
  return delays
}

/** When the attempt after `attemptsMade` finished attempts is due, or null when none is left. */
export function nextAttemptDelay(schedule: readonly number[], attemptsMade: number): number | null {
  return attemptsMade < schedule.length ? schedule[attemptsMade]! : null
}
