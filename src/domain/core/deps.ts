import type { Kysely } from 'kysely'
import type { Clock } from '../../clock.js'
import type { DialectName } from '../../store/database.js'
import type { Db } from '../../store/tables.js'
import type { PaymentProcessor } from './payment-processor.js'

/** What every domain service needs; built once by the composition root (`app.ts`). */
export interface Deps {
  readonly db: Kysely<Db>
  readonly dialect: DialectName
  readonly paymentProcessor: PaymentProcessor
  readonly limits: Limits
  /** The one clock every rule reads (`isoNow(deps.clock)`), so tests move time instead of waiting. */
  readonly clock: Clock
  /**
   * Why a webhook URL's host must not be registered, or null: the delivery address policy
   * (REFDESK_WEBHOOK_ALLOW_PRIVATE) applied to literal addresses, handed down by the composition root.
   */
  readonly webhookHostRefusal: (hostname: string) => string | null
  /** Reads a busy calendar's feed under the webhook rules (net/guarded-get.ts), handed down by app.ts. */
  readonly readCalendar: CalendarReader
}

/**
 * A GET of an https address: its text, or why not as a class (`timeout`, `unreachable`, …), and whether the
 * address guard refused it.
 */
type CalendarReader = (
  url: string,
) => Promise<
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly error: string; readonly addressRefused?: true }
>

/** Bounds that keep one partner from costing the others (settings: config.ts). */
export interface Limits {
  /** Webhook endpoints per source (REFDESK_WEBHOOK_MAX_ENDPOINTS). */
  readonly endpointsPerSource: number
  /** REFDESK_WEBHOOK_DEV_LOCALHOST: endpoints may be http:// on loopback (development only). */
  readonly webhookDevLocalhost: boolean
  /** REFDESK_REMINDER_HOURS: how long before a game its holders are reminded. */
  readonly reminderHours: number
  /** Games a league holds, cancelled ones included (`409 games_limit_reached`; docs/decisions.md). */
  readonly gamesPerLeague: number
  /**
   * The largest plan: open positions × the league's officials, the pairs the rules are asked about;
   * beyond it 409 plan_too_large, before anything but the two lists is read. Not a setting: the
   * tournament issue raises it with the solver's scale (DESIGN "Tournament scale").
   */
  readonly planPairs: number
  /** Drafts a league keeps, newest first: writing one deletes the older (published plans stay). */
  readonly draftsKept: number
}

export const DEFAULT_LIMITS: Limits = {
  endpointsPerSource: 16,
  webhookDevLocalhost: false,
  reminderHours: 24,
  gamesPerLeague: 20_000,
  // 2,000 officials × 500 positions, a big league's fortnight, fit.
  planPairs: 1_000_000,
  draftsKept: 10,
}
