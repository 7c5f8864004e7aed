// How the notification sender mails, as one value: config.ts reads it from the environment, tests build it.

export interface NotifierSettings {
  /** Unset: due notifications are kept and marked `unsent`, never mailed. */
  readonly smtpUrl: string | undefined
  readonly from: string
  /** Where the mails' links point (the app, the unsubscribe page). */
  readonly publicUrl: string
  /** Delay before each attempt, in ms; its length is the number of attempts. */
  readonly retrySchedule: readonly number[]
  /** Mails in flight per sender (its SMTP connections). */
  readonly concurrency: number
  /** Fallback scan when no wake-up arrives. */
  readonly pollIntervalMs: number
  /** An SMTP exchange must finish within this. */
  readonly timeoutMs: number
}

export const DEFAULT_NOTIFY_RETRY_SCHEDULE = '0s,1m,5m,30m,2h,6h'
export const DEFAULT_NOTIFY_CONCURRENCY = 8
