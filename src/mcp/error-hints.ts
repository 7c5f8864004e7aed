// What an agent should do about each error code a tool can answer. A tool's description lists its
// operation's codes with these hints, so the list can never drift from what REST answers.
import { SUFFIXED_CODES, type ErrorCode } from '../domain/core/errors.js'
import { MAX_DELIVERIES_LIMIT } from '../schemas/webhooks.js'

const HINTS: Partial<Record<ErrorCode, string>> = {
  name_required: 'give a non-empty name',
  invalid_currency: 'a 3-letter ISO 4217 code',
  invalid_startsAt: 'an ISO 8601 date-time',
  no_games: 'send 1 to 500 items',
  too_many_games: 'send 1 to 500 items',
  source_reserved: 'omit source',
  source_mismatch: 'omit source, or send this key’s own source',
  status_not_updatable: 'drop status; refdesk_cancel_game cancels a game',
  externalId_required: 'send your stable externalId for the person; assigning also takes a userId',
  positionId_required: 'send positionId',
  https_url_required: 'send an https:// URL whose host is a public name or address',
  unknown_event: 'use names from the API index’s webhookEvents',
  invalid_limit: `an integer from 1 to ${MAX_DELIVERIES_LIMIT}`,
  invalid_cursor: 'pass the previous result’s nextCursor unchanged, or omit cursor for the first page',
  invalid_status_filter: 'pending, succeeded or failed',
  league_not_found: 'unknown or out-of-scope leagueId; call refdesk_list_leagues for valid ids',
  game_not_found: 'unknown or out-of-scope gameId; refdesk_list_games gives valid ids for a leagueId',
  official_not_found: 'no such person: add them with refdesk_upsert_official',
  position_not_found: 'not a position of this game: see refdesk_get_game',
  not_a_member: 'that userId is not in the league: check refdesk_list_officials',
  endpoint_not_found:
    'unknown webhookId, or one registered by another source; call refdesk_list_webhooks for valid ids',
  user_is_organizer: 'that person organizes the league and cannot also officiate it',
  not_an_official: 'that user is the league’s organizer',
  not_a_league_official:
    'the person is not an approved official of this league: refdesk_upsert_official approves them',
  no_open_position: 'every position is taken or closed',
  position_not_open: 'the position is cancelled or completed',
  position_taken: 'already claimed, possibly by a concurrent call: see refdesk_get_game',
  position_not_claimed: 'nobody holds that position',
  level_too_low:
    'the official’s level in this league is below the position’s minLevel: raise it with refdesk_upsert_official (level) or pick another official',
  schedule_conflict:
    'the official holds another game at that time (or within the league’s travel buffer): pick another official, see refdesk_suggest_officials',
  official_unavailable: 'the official said they cannot officiate then: pick another official',
  daily_limit_reached:
    'the official already holds the league’s maxGamesPerDay games that day: pick another official',
  external_id_conflict: 'that externalId belongs to a game of another league: use another externalId',
  games_limit_reached:
    'the league holds as many games as it may (20,000, cancelled ones included): put further games in a new league',
  invalid_from: 'an ISO 8601 date-time',
  invalid_to: 'an ISO 8601 date-time after from, at most 31 days after it',
  plan_not_found: 'unknown or out-of-scope planId; refdesk_plan_assignments makes a plan',
  plan_already_published: 'this plan is published; make a new one with refdesk_plan_assignments',
  plan_in_progress: 'a plan for this league is being made: wait for it, then call again',
  plan_changed: 'another edit of this plan came first: read it again with refdesk_get_plan',
  invalid_positionIds: 'name positions of the plan’s proposals (refdesk_get_plan), or omit positionIds',
  withdrew: 'the official gave this game back: pick another official, see refdesk_suggest_officials',
  plan_too_large: 'too many open positions × officials for one plan: plan a shorter window (from, to)',
  endpoint_limit_reached:
    'this source has as many webhook endpoints as it may: delete one (refdesk_delete_webhook) first',
  test_event_limit_reached:
    'this source sent 60 test examples in the last hour: try again later, or read the deliveries already sent',
}

/** What to do about the code, if the catalog says. */
export function errorHint(code: ErrorCode): string | undefined {
  return HINTS[code] ?? (code.startsWith('invalid_') ? 'fix that argument' : undefined)
}

/** The code as it reaches the agent, with its `:<value>` suffix. */
const wire = (code: ErrorCode) =>
  (SUFFIXED_CODES as readonly ErrorCode[]).includes(code) ? `${code}:<value>` : code

// An MCP call's arguments always arrive as an object, so its body is never malformed JSON.
const NOT_FROM_MCP: readonly ErrorCode[] = ['invalid_json']

/** The "Errors:" line of a tool's description, from its operation's codes. */
export function errorsLine(codes: readonly ErrorCode[]): string {
  const listed = codes.filter((code) => !NOT_FROM_MCP.includes(code))
  if (listed.length === 0) return ''
  // Codes that share their advice are named together: "invalid_sport, invalid_location (fix that argument)".
  const byHint = new Map<string, string[]>()
  for (const code of listed) {
    const hint = errorHint(code) ?? ''
    byHint.set(hint, [...(byHint.get(hint) ?? []), wire(code)])
  }
  const parts = [...byHint].map(([hint, codes]) =>
    hint ? `${codes.join(', ')} (${hint})` : codes.join(', '),
  )
  return `Errors: ${parts.join('; ')}.`
}
