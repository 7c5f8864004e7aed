// Row shapes of every table (the app's own in app-tables.ts). Row types stay inside store/ and domain/; services map them to schemas. A column
// the wire shows takes its values from the schema's enum, so the two never drift apart.
import type { Generated, Insertable, Selectable, Updateable } from 'kysely'
import type { z } from 'zod'
import type { PaymentMode as PaymentModes, Status } from '../schemas/common.js'
import type { MembershipStatus as MembershipStatuses } from '../schemas/officials.js'
import type { PaymentStatus as PaymentStatuses } from '../schemas/payments.js'
import type { CONFLICT_POLICIES } from '../schemas/schedule.js'
import type { DELIVERY_STATUSES } from '../schemas/webhooks.js'
import type { AppTables } from './app-tables.js'

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

export interface Db extends AppTables {
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
  idempotency_keys: IdempotencyKeysTable
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
export type IdempotencyKeyRow = Selectable<IdempotencyKeysTable>
