// The one catalog of error codes. HTTP statuses, OpenAPI error responses, MCP errors and CLI exits all
// come from here, so a code can never be answered with two different statuses.

export const ERROR_STATUS = {
  unauthorized: 401,

  invalid_json: 400,
  body_too_large: 400,
  // HTTP the server cannot parse, or headers past its limit, refused before any route (http/errors.ts).
  invalid_request: 400,
  headers_too_large: 400,
  name_required: 400,
  source_reserved: 400,
  source_mismatch: 400,
  no_games: 400,
  too_many_games: 400,
  invalid_startsAt: 400,
  status_not_updatable: 400,
  externalId_required: 400,
  positionId_required: 400,
  https_url_required: 400,
  unknown_event: 400,
  create_failed: 400,
  invalid_source: 400,
  invalid_externalId: 400,
  invalid_name: 400,
  invalid_currency: 400,
  invalid_sport: 400,
  invalid_location: 400,
  invalid_venue: 400,
  invalid_label: 400,
  invalid_payDollars: 400,
  invalid_latitude: 400,
  invalid_longitude: 400,
  invalid_email: 400,
  invalid_userId: 400,
  invalid_positionId: 400,
  invalid_url: 400,
  invalid_events: 400,
  invalid_limit: 400,
  origin_not_allowed: 400,
  invalid_time_zone: 400,
  invalid_idempotency_key: 400,
  idempotency_key_reused: 400,
  invalid_cursor: 400,
  invalid_status_filter: 400,
  invalid_since: 400,
  invalid_event: 400,
  // Schedule data and crews (DESIGN "Running the assigning").
  invalid_timeZone: 400,
  invalid_gameMinutes: 400,
  invalid_travelBufferMinutes: 400,
  invalid_maxGamesPerDay: 400,
  invalid_conflictPolicy: 400,
  invalid_durationMinutes: 400,
  invalid_level: 400,
  invalid_minLevel: 400,
  invalid_positions: 400,
  // The plan window of the assignor (issue 26) and the blackouts of availability (issue 24).
  invalid_from: 400,
  invalid_to: 400,
  // Issue 36 item 6: positions a plan's publish or edit names that the plan does not hold.
  invalid_positionIds: 400,
  invalid_remove: 400,
  invalid_set: 400,
  invalid_dayOfWeek: 400,
  // A busy calendar's address the outbound guard refuses, or a feed that cannot be read as iCalendar.
  calendar_address_refused: 400,
  calendar_unreadable: 400,

  not_found: 404,
  league_not_found: 404,
  game_not_found: 404,
  official_not_found: 404,
  position_not_found: 404,
  not_a_member: 404,
  endpoint_not_found: 404,
  payment_not_found: 404,
  account_not_found: 404,
  delivery_not_found: 404,
  plan_not_found: 404,

  user_is_organizer: 409,
  not_an_official: 409,
  not_a_league_official: 409,
  no_open_position: 409,
  position_not_open: 409,
  position_taken: 409,
  // In the app only: the person's claim lost to their own earlier one (a second tap of Claim).
  position_already_yours: 409,
  position_not_claimed: 409,
  external_id_conflict: 409,
  endpoint_limit_reached: 409,
  games_limit_reached: 409,
  game_not_claimed: 409,
  game_not_completed: 409,
  // In the app only: the organizer's completion lost the race to another completion.
  game_already_completed: 409,
  payment_not_offline: 409,
  payment_not_platform: 409,
  payment_not_pending: 409,
  payment_not_chargeable: 409,
  game_started: 409,
  // App and CLI: a game is completed once it has started, never before (the spec has no completion endpoint).
  game_not_started: 409,
  idempotency_key_in_use: 409,
  endpoint_disabled: 409,
  // Issue 21, item 1: a source's test examples past TEST_EVENTS_PER_HOUR in the last hour.
  test_event_limit_reached: 409,
  level_too_low: 409,
  game_closed: 409,
  last_position: 409,
  // Issue 36: a crew is at most MAX_POSITIONS_PER_GAME positions, as on import.
  too_many_positions: 409,
  // Issue 26: publishing a plan twice; a proposal whose official now has a game too close to it.
  plan_already_published: 409,
  plan_in_progress: 409,
  plan_too_large: 409,
  // An edit of a draft lost the race to another edit of it: read the plan again.
  plan_changed: 409,
  // An edit of a plan proposing an official for a game they gave back (DESIGN "Turnbacks are remembered").
  withdrew: 409,
  schedule_conflict: 409,
  official_unavailable: 409,
  daily_limit_reached: 409,
  availability_limit_reached: 409,

  // Not in the spec (which names no rate limits): a key over its rate (docs/decisions.md), with Retry-After.
  rate_limited: 429,

  // Only the MCP endpoint answers 405 (GET and DELETE, which a stateless server does not offer): the
  // Streamable HTTP transport asks for it. REST routes answer an unknown method with not_found.
  method_not_allowed: 405,
} as const satisfies Record<string, 400 | 401 | 404 | 405 | 409 | 429>

export type ErrorCode = keyof typeof ERROR_STATUS
export type ErrorStatus = (typeof ERROR_STATUS)[ErrorCode]

/** Codes that carry a `:<value>` suffix on the wire. */
export const SUFFIXED_CODES = ['invalid_startsAt', 'unknown_event'] as const satisfies readonly ErrorCode[]

/**
 * A refusal the caller is answered with. It is an answer, not a fault: it carries no stack trace, whose
 * capture was a tenth of a refused claim's cost (a claim storm refuses all but one).
 */
export class ApiError extends Error {
  readonly status: ErrorStatus
  readonly code: ErrorCode
  readonly suffix: string | undefined
  constructor(code: ErrorCode, suffix?: string) {
    const limit = Error.stackTraceLimit
    Error.stackTraceLimit = 0
    super(suffix === undefined ? code : `${code}:${suffix}`)
    Error.stackTraceLimit = limit
    this.name = 'ApiError'
    this.code = code
    this.suffix = suffix
    this.status = ERROR_STATUS[code]
  }

  /** The wire body: exactly `{"error":"<code>"}` or `{"error":"<code>:<suffix>"}`. */
  get body(): { error: string } {
    return { error: this.message }
  }
}

export function fail(code: ErrorCode, suffix?: string): never {
  throw new ApiError(code, suffix)
}

export function isErrorCode(value: string): value is ErrorCode {
  return Object.hasOwn(ERROR_STATUS, value)
}
