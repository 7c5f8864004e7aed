// The app's tables: a person (an email address) signing in, their profile, availability and mail, and the
// assignor's plans and turnbacks. Secrets are stored as SHA-256 hex.
import type { Insertable, Generated, Selectable } from 'kysely'
import type { NotificationKindName } from '../schemas/notifications.js'

/** Times are ISO strings `YYYY-MM-DDTHH:MM:SS.sssZ`, as in tables.ts. */
type Time = string

/** Migration 0003 and after. */
interface SignInLinksTable {
  seq: Generated<number>
  token_hash: string
  email: string
  created_at: Time
  expires_at: Time
  used_at: Time | null
}

interface SignInLimitsTable {
  /** `address:<sha256>` or `client:<sha256>`. */
  key: string
  window_started_at: Time
  hits: number
}

interface SessionsTable {
  seq: Generated<number>
  token_hash: string
  email: string
  created_at: Time
  expires_at: Time
  /** Null until first used after migration 0013. */
  last_seen_at: Time | null
}

interface ProfilesTable {
  seq: Generated<number>
  email: string
  time_zone: string
  /** When the person chose `time_zone` (migration 0017); null: not chosen, `time_zone` is only a default. */
  time_zone_chosen_at: Generated<Time | null>
  /** Their home point (migration 0015), for the assignor's distance to a game; null until set. */
  home_latitude: Generated<number | null>
  home_longitude: Generated<number | null>
  created_at: Time
  updated_at: Time
}

type PlanStatus = 'draft' | 'published'

/** The assignor's plans (migration 0015); proposals, unfilled and stats are JSON text, read whole. */
interface AssignmentPlansTable {
  seq: Generated<number>
  id: string
  league_id: string
  status: PlanStatus
  from_at: Time
  to_at: Time
  proposals: string
  unfilled: string
  stats: string
  outcome: string | null
  created_at: Time
  published_at: Time | null
}

/** How an official gave a game back: `withdrew` from a position they held. */
export type TurnbackKind = 'withdrew'

interface TurnbacksTable {
  id: string
  game_id: string
  user_id: string
  kind: TurnbackKind
  created_at: Time
}

interface CalendarFeedsTable {
  seq: Generated<number>
  email: string
  token_hash: string
  created_at: Time
}

export type NotificationKind = NotificationKindName

/**
 * `pending` (due or waiting for its time), `sent` (the SMTP server took it), `failed` (refused for good or
 * out of attempts), `unsent` (no SMTP configured), `skipped` (opted out, or a placeholder address),
 * `dropped` (a reminder whose game moved, was cancelled or left the official).
 */
export type NotificationStatus = 'pending' | 'sent' | 'failed' | 'unsent' | 'skipped' | 'dropped'

interface NotificationsTable {
  seq: Generated<number>
  id: string
  kind: NotificationKind
  email: string
  user_id: string | null
  league_id: string
  game_id: string | null
  position_id: string | null
  /** JSON text: what the mail says, as it stood when the change committed. */
  payload: string
  status: NotificationStatus
  attempts: number
  last_error: string | null
  created_at: Time
  due_at: Time
  sent_at: Time | null
  lease_owner: string | null
  lease_until: Time | null
  /** 1: sent for a league the address had not joined (the daily bound counts these; migration 0020). */
  unjoined: Generated<number>
}

interface NotificationOptoutsTable {
  seq: Generated<number>
  email: string
  kind: NotificationKind
  created_at: Time
}

interface UnsubscribeTokensTable {
  seq: Generated<number>
  token_hash: string
  email: string
  /** `all`: the Invited mail's "Stop all mail" (migration 0020). */
  kind: NotificationKind | 'all'
  created_at: Time
}

/** Addresses that get no mail until their owner signs in (migration 0020). */
interface MailStopsTable {
  email: string
  created_at: Time
}

/** A person's availability (migration 0010), by email address. */
interface BlackoutsTable {
  seq: Generated<number>
  id: string
  email: string
  starts_at: Time
  ends_at: Time
  /** Set when the blackout was given as whole days (in the person's time zone then). */
  first_day: string | null
  last_day: string | null
  created_at: Time
}

interface WeeklyUnavailabilityTable {
  seq: Generated<number>
  id: string
  email: string
  /** 1 Monday … 7 Sunday. */
  day_of_week: number
  /** `HH:MM`, `to_time` after `from_time` (`24:00` for the end of the day). */
  from_time: string
  to_time: string
  created_at: Time
}

interface BusyCalendarsTable {
  seq: Generated<number>
  id: string
  email: string
  url: string
  created_at: Time
  fetched_at: Time | null
  /** Why the last read failed (a class, never the server's text); null after a success. */
  last_error: string | null
  /** Reads in a row that failed or were slow: the next read waits 15 minutes × 2ⁿ (migration 0022). */
  failed_reads: Generated<number>
  next_fetch_at: Time
}

interface BusyEventsTable {
  seq: Generated<number>
  calendar_id: string
  email: string
  starts_at: Time
  ends_at: Time
}

export interface AppTables {
  sign_in_links: SignInLinksTable
  sign_in_limits: SignInLimitsTable
  sessions: SessionsTable
  profiles: ProfilesTable
  calendar_feeds: CalendarFeedsTable
  notifications: NotificationsTable
  notification_optouts: NotificationOptoutsTable
  unsubscribe_tokens: UnsubscribeTokensTable
  mail_stops: MailStopsTable
  blackouts: BlackoutsTable
  weekly_unavailability: WeeklyUnavailabilityTable
  busy_calendars: BusyCalendarsTable
  busy_events: BusyEventsTable
  assignment_plans: AssignmentPlansTable
  turnbacks: TurnbacksTable
}

export type BlackoutRow = Selectable<BlackoutsTable>
export type WeeklyRow = Selectable<WeeklyUnavailabilityTable>
export type BusyCalendarRow = Selectable<BusyCalendarsTable>
export type NotificationRow = Selectable<NotificationsTable>
export type NewNotification = Insertable<NotificationsTable>
export type AssignmentPlanRow = Selectable<AssignmentPlansTable>
