// Row shapes of every table. Row types stay inside store/ and domain/; services map them to schemas. A column
// the wire shows takes its values from the schema's enum, so the two never drift apart.
import type { Generated, Insertable, Selectable, Updateable } from 'kysely'
import type { z } from 'zod'
import type { PaymentMode as PaymentModes, Status } from '../schemas/common.js'
import type { NotificationKindName } from '../schemas/notifications.js'
import type { MembershipStatus as MembershipStatuses } from '../schemas/officials.js'
import type { PaymentStatus as PaymentStatuses } from '../schemas/payments.js'
import type { CONFLICT_POLICIES } from '../schemas/schedule.js'
import type { DELIVERY_STATUSES } from '../schemas/webhooks.js'

export type PositionStatus = z.infer<typeof Status>
export type GameStatus = PositionStatus
export type MembershipRole = 'organizer' | 'official'
export type MembershipStatus = z.infer<typeof MembershipStatuses>
export type PaymentMode = z.infer<typeof PaymentModes>
export type PaymentStatus = z.infer<typeof PaymentStatuses>
type ConflictPolicy = (typeof CONFLICT_POLICIES)[number]

/** Times are ISO strings `YYYY-MM-DDTHH:MM:SS.sssZ`, so text order is time order on both databases. */
type Time = string

interface UsersTable {
  seq: Generated<number>
  id: string
  source: string
  external_id: string | null
  email: string
  name: string
  created_at: Time
  updated_at: Time
}

interface ApiKeysTable {
  seq: Generated<number>
  id: string
  source: string
  name: string
  key_hash: string
  organizer_id: string
  created_at: Time
  revoked_at: Time | null
  /** Updated at most once a minute per key (see domain/partners/api-keys.ts). */
  last_used_at: Time | null
}

interface KeyGrantsTable {
  key_id: string
  league_id: string
  created_at: Time
}

interface LeaguesTable {
  seq: Generated<number>
  id: string
  source: string
  external_id: string | null
  name: string
  payment_mode: PaymentMode
  currency: string
  organizer_id: string
  created_at: Time
  updated_at: Time
  /** IANA name, as the partner wrote it (migration 0008). */
  time_zone: Generated<string>
  game_minutes: Generated<number>
  travel_buffer_minutes: Generated<number>
  max_games_per_day: Generated<number | null>
  conflict_policy: Generated<ConflictPolicy>
}

interface MembershipsTable {
  seq: Generated<number>
  id: string
  league_id: string
  user_id: string
  role: MembershipRole
  status: MembershipStatus
  created_at: Time
  updated_at: Time
  /** 1–5, or null: no level (migration 0008). */
  level: Generated<number | null>
  /** When the person joined the league; null: unconfirmed (migration 0020, DESIGN "Consent"). */
  confirmed_at: Generated<Time | null>
}

interface GamesTable {
  seq: Generated<number>
  id: string
  league_id: string
  source: string
  external_id: string | null
  sport: string
  starts_at: Time
  location: string
  /** The complex the game is played at; null when not given (migration 0021). */
  venue: Generated<string | null>
  latitude: number | null
  longitude: number | null
  status: GameStatus
  created_at: Time
  updated_at: Time
  /** The game's own length; null: the league's `game_minutes` (migration 0008). */
  duration_minutes: Generated<number | null>
  /** `starts_at` plus the game's length, kept by every writer of either (docs/decisions.md). */
  ends_at: Time
}

interface PositionsTable {
  seq: Generated<number>
  id: string
  game_id: string
  label: string
  pay_cents: number
  status: PositionStatus
  created_at: Time
  updated_at: Time
  /** 1–5, or null: anyone may take it (migration 0008). */
  min_level: Generated<number | null>
}

interface ClaimsTable {
  seq: Generated<number>
  id: string
  position_id: string
  user_id: string
  status: 'confirmed'
  created_at: Time
}

interface PaymentsTable {
  seq: Generated<number>
  id: string
  position_id: string
  official_id: string
  league_id: string
  amount_cents: number
  currency: string
  mode: PaymentMode
  status: PaymentStatus
  paid_at: Time | null
  failure_code: string | null
  failure_message: string | null
  created_at: Time
  updated_at: Time
}

interface OutboxEventsTable {
  seq: Generated<number>
  id: string
  event: string
  league_id: string
  /** JSON text of the event's `data`. */
  data: string
  created_at: Time
  /** When the dispatcher expanded the event into deliveries; null until then. */
  fanned_out_at: Time | null
  /** 1 for an example sent by POST /webhooks/{webhookId}/test (its envelope says `"test": true`). */
  test: Generated<number>
}

export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number]

interface WebhookEndpointsTable {
  seq: Generated<number>
  id: string
  source: string
  /** The registering key: its grants widen the endpoint's scope. */
  key_id: string
  url: string
  /** JSON array of event names; empty means every event. */
  events: string
  secret: string
  created_at: Time
  /** Since when every recorded attempt has failed; null after a success. */
  failing_since: Generated<Time | null>
  /** When the endpoint was disabled for failing too long; null while enabled. */
  disabled_at: Generated<Time | null>
}

interface WebhookDeliveriesTable {
  seq: Generated<number>
  id: string
  endpoint_id: string
  event_id: string
  event: string
  status: DeliveryStatus
  attempts: number
  last_status_code: number | null
  last_error: string | null
  created_at: Time
  last_attempt_at: Time | null
  next_attempt_at: Time | null
  delivered_at: Time | null
  lease_owner: string | null
  lease_until: Time | null
  /** The source that owns the endpoint (migration 0016): the dispatchers share attempts fairly by it. */
  source: string
}

interface WebhookAttemptsTable {
  seq: Generated<number>
  delivery_id: string
  attempted_at: Time
  status_code: number | null
  error: string | null
  duration_ms: number
}

/** The app's tables (migration 0003). A person is an email address; secrets are stored as SHA-256 hex. */
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

type IdempotencyStatus = 'running' | 'completed'

interface IdempotencyKeysTable {
  seq: Generated<number>
  api_key_id: string
  idempotency_key: string
  fingerprint: string
  status: IdempotencyStatus
  response_status: number | null
  response_body: string | null
  created_at: Time
}

export interface Db {
  users: UsersTable
  api_keys: ApiKeysTable
  key_grants: KeyGrantsTable
  leagues: LeaguesTable
  memberships: MembershipsTable
  games: GamesTable
  positions: PositionsTable
  claims: ClaimsTable
  payments: PaymentsTable
  outbox_events: OutboxEventsTable
  webhook_endpoints: WebhookEndpointsTable
  webhook_deliveries: WebhookDeliveriesTable
  webhook_attempts: WebhookAttemptsTable
  sign_in_links: SignInLinksTable
  sign_in_limits: SignInLimitsTable
  sessions: SessionsTable
  profiles: ProfilesTable
  calendar_feeds: CalendarFeedsTable
  idempotency_keys: IdempotencyKeysTable
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

export type UserRow = Selectable<UsersTable>
export type ApiKeyRow = Selectable<ApiKeysTable>
export type LeagueRow = Selectable<LeaguesTable>
export type NewLeague = Insertable<LeaguesTable>
export type MembershipRow = Selectable<MembershipsTable>
export type GameRow = Selectable<GamesTable>
export type NewGame = Insertable<GamesTable>
export type GameUpdate = Updateable<GamesTable>
export type PositionRow = Selectable<PositionsTable>
export type ClaimRow = Selectable<ClaimsTable>
export type PaymentRow = Selectable<PaymentsTable>
export type OutboxEventRow = Selectable<OutboxEventsTable>
export type NewOutboxEvent = Insertable<OutboxEventsTable>
export type WebhookEndpointRow = Selectable<WebhookEndpointsTable>
export type NewWebhookEndpoint = Insertable<WebhookEndpointsTable>
export type DeliveryRow = Selectable<WebhookDeliveriesTable>
export type NewDelivery = Insertable<WebhookDeliveriesTable>
export type NewAttempt = Insertable<WebhookAttemptsTable>
export type BlackoutRow = Selectable<BlackoutsTable>
export type WeeklyRow = Selectable<WeeklyUnavailabilityTable>
export type BusyCalendarRow = Selectable<BusyCalendarsTable>
export type IdempotencyKeyRow = Selectable<IdempotencyKeysTable>
export type NotificationRow = Selectable<NotificationsTable>
export type NewNotification = Insertable<NotificationsTable>
export type AssignmentPlanRow = Selectable<AssignmentPlansTable>
