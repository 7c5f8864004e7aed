// How the app under /app signs people in and keeps their sessions, as one value: config.ts reads it from
// the environment, tests build it.

/** Sign-in mail, sessions and the sign-in rate limit. */
export interface AppSettings {
  /** Where people reach the service; sign-in links are built from it. Unset: http://localhost:<port>. */
  readonly publicUrl: string | undefined
  /** Unset: no mail is sent and the sign-in page says to ask the operator for a link. */
  readonly smtpUrl: string | undefined
  readonly mailFrom: string
  readonly sessionTtlMs: number
  /** A session unused for this long ends (REFDESK_SESSION_IDLE_HOURS). */
  readonly sessionIdleMs: number
  readonly signInLimits: {
    readonly perAddress: number
    readonly perClient: number
    readonly windowMs: number
  }
}
