// How the dispatcher delivers, as one value: config.ts reads it from the environment, tests build it.
import type { AddressPolicy } from '../net/address-guard.js'
import { DAY_MS } from '../time.js'

export interface WebhookSettings {
  /** Delay before each attempt, in ms; its length is the number of attempts. */
  readonly retrySchedule: readonly number[]
  readonly timeoutMs: number
  readonly policy: AddressPolicy
  /** Attempts in flight per dispatcher, overall and per endpoint. */
  readonly concurrency: number
  readonly perEndpointConcurrency: number
  /** Attempts in flight per dispatcher for the endpoints of one source (default 8): its fair share. */
  readonly sourceConcurrency?: number
  /** Fallback scan when no wake-up arrives (another process on SQLite, a lost LISTEN connection). */
  readonly pollIntervalMs: number
  /** An endpoint whose every attempt has failed this long is disabled (default 5 days). */
  readonly disableAfterMs?: number
}

export const DEFAULT_DISABLE_AFTER_MS = 5 * DAY_MS
export const DEFAULT_SOURCE_CONCURRENCY = 8
