// The rules that refuse someone a position (DESIGN "Running the assigning", "Availability and conflicts").
// Each rule is defined once, here, over facts already read (`reasonsFor`): the claim's `refusalFor` reads
// one person's facts inside its transaction, the assignor (plan-window.ts) reads a whole pool's for a
// window, and both ask the same definitions with the league's own settings, so a plan never proposes what
// a claim would refuse.
//
// `refusalFor` is the single entry point of every path that gives a position (a partner's assign over REST
// and MCP, `refdesk app claim`, an official's claim in the app, an organizer's assign, a published plan):
// it runs inside the path's transaction, after the position is chosen and locked and before the claim is
// written. A refusal is a code only: it never says which game, league or partner caused it.
import type { Transaction } from 'kysely'
import * as claims from '../../store/claims.js'
import * as held from '../../store/held.js'
import * as memberships from '../../store/memberships.js'
import type { Db, GameRow, LeagueRow, PositionRow } from '../../store/tables.js'
import * as users from '../../store/users.js'
import { dayAt, dayStart, iso, MINUTE_MS, nextDay } from '../../time.js'
import { unavailableByPerson } from './unavailability.js'

/**
 * The rules about the person's time, in DESIGN's order: the organizer's "Assign anyway" (`force`) may
 * override them, and only them; `level_too_low` binds whoever gives the position.
 */
const OVERRIDABLE_REFUSALS = ['schedule_conflict', 'official_unavailable', 'daily_limit_reached'] as const
export type OverridableRefusal = (typeof OVERRIDABLE_REFUSALS)[number]

/** Each rule's code, answered as 409, in the order DESIGN lists the rules. */
export type Refusal = OverridableRefusal | 'level_too_low'

/** Whether a refusal (any error code) is one the organizer may assign anyway past. */
export function isOverridable(code: string | undefined): code is OverridableRefusal {
  return OVERRIDABLE_REFUSALS.some((c) => c === code)
}

export interface Taking {
  readonly league: LeagueRow
  readonly game: GameRow
  readonly position: PositionRow
  /** The user row that would hold the position (an approved official of the league). */
  readonly userId: string
  /**
   * Who gives it. `level_too_low` holds whoever it is; the rules about the person's time (schedule,
   * availability, daily limit) bind an official's own claim always, a partner's assign only under the
   * league's conflictPolicy `refuse`, and an organizer's unless they assign anyway.
   */
  readonly by: 'partner' | 'official' | 'organizer'
  /**
   * The organizer's "Assign anyway" (`refdesk app assign --force`): the rules about the person's time do not
   * refuse; `level_too_low` still does.
   */
  readonly force?: boolean
}

/** The league's settings the rules read. */
export interface RuleSettings {
  readonly leagueId: string
  readonly travelBufferMinutes: number
  readonly maxGamesPerDay: number | null
  readonly timeZone: string
}

export function ruleSettings(league: LeagueRow): RuleSettings {
  return {
    leagueId: league.id,
    travelBufferMinutes: league.travel_buffer_minutes,
    maxGamesPerDay: league.max_games_per_day,
    timeZone: league.time_zone,
  }
}

/** A game as the rules see it: [start, end) in milliseconds, and the day it starts on. */
export interface GameSpan {
  readonly gameId: string
  readonly leagueId: string
  readonly start: number
  readonly end: number
  /** The day (`YYYY-MM-DD`) of its start in the time zone of the settings it is judged by. */
  readonly day: string
  /** Where it is played (`siteOf`); null when unknown. */
  readonly site: string | null
}

/**
 * The place a game is played at, as the travel buffer reads it (DESIGN "Site-aware travel"): its venue;
 * without one, its location; null when it has neither. Two games are at one place when their sites are
 * equal: the same venue, or the same location where neither has a venue.
 */
function siteOf(game: { location: string; venue: string | null }): string | null {
  if (game.venue !== null) return `venue:${game.venue}`
  return game.location === '' ? null : `location:${game.location}`
}

/** A game's span, its day read in the league's time zone (read once per game, not once per pair). */
export function gameSpan(
  settings: RuleSettings,
  game: {
    gameId: string
    leagueId: string
    starts_at: string
    ends_at: string
    location: string
    venue: string | null
  },
): GameSpan {
  const start = Date.parse(game.starts_at)
  return {
    gameId: game.gameId,
    leagueId: game.leagueId,
    start,
    end: Date.parse(game.ends_at),
    day: dayAt(start, settings.timeZone),
    site: siteOf(game),
  }
}

/** The position to take: its game, and its minimum level. */
export interface Target extends GameSpan {
  readonly minLevel: number | null
}

/** What the rules weigh about the person: their level in the league, what they hold, when they are busy. */
export interface PersonFacts {
  readonly level: number | null
  /** Positions the person holds in any league, at least those within a day of the target. */
  readonly held: readonly GameSpan[]
  /** Their unavailable times, at least those overlapping the target. */
  readonly busy: readonly { readonly start: number; readonly end: number }[]
}

/** A position without a minimum takes anyone; one with a minimum takes only a level at least as high. */
export function meetsLevel(level: number | null, minLevel: number | null): boolean {
  return minLevel === null || (level !== null && level >= minLevel)
}

/**
 * Whether two games come within the travel buffer of each other: games at one place only when they
 * overlap, games at different or unknown places when they are less than the buffer apart.
 */
function tooClose(a: GameSpan, b: GameSpan, bufferMinutes: number): boolean {
  const buffer = a.site !== null && a.site === b.site ? 0 : bufferMinutes * MINUTE_MS
  return a.start < b.end + buffer && b.start < a.end + buffer
}

/** The rules about the person's time that refuse them the target, in DESIGN's order. */
function timeReasons(settings: RuleSettings, target: Target, person: PersonFacts): OverridableRefusal[] {
  const reasons: OverridableRefusal[] = []
  const buffer = settings.travelBufferMinutes
  if (person.held.some((h) => h.gameId === target.gameId || tooClose(h, target, buffer)))
    reasons.push('schedule_conflict')
  if (person.busy.some((b) => b.start < target.end && target.start < b.end))
    reasons.push('official_unavailable')
  const max = settings.maxGamesPerDay
  if (max !== null) {
    const sameDay = person.held.filter((h) => h.leagueId === settings.leagueId && h.day === target.day).length
    if (sameDay >= max) reasons.push('daily_limit_reached')
  }
  return reasons
}

/** Every rule that refuses the person the target, in DESIGN's order; empty when they may take it. */
export function reasonsFor(settings: RuleSettings, target: Target, person: PersonFacts): Refusal[] {
  const reasons: Refusal[] = timeReasons(settings, target, person)
  if (!meetsLevel(person.level, target.minLevel)) reasons.push('level_too_low')
  return reasons
}

/** The window of held games and busy times the rules need to judge the target. */
function factsWindow(settings: RuleSettings, target: GameSpan): { from: number; to: number } {
  const buffer = settings.travelBufferMinutes * MINUTE_MS
  return {
    from: Math.min(target.start - buffer, Date.parse(dayStart(target.day, settings.timeZone))),
    to: Math.max(target.end + buffer, Date.parse(dayStart(nextDay(target.day), settings.timeZone))),
  }
}

/** Whether the rules about the person's time bind this taking. */
function timeRulesApply(taking: Taking): boolean {
  if (taking.by === 'official') return true
  if (taking.by === 'partner') return taking.league.conflict_policy === 'refuse'
  return taking.force !== true
}

/**
 * What of a person's holds a league may weigh (DESIGN "Consent"): its own games always; games of other
 * leagues only when the person joined this league and the one the game is in.
 */
export function visibleHolds<T extends held.HeldRow>(
  rows: readonly T[],
  leagueId: string,
  joined: boolean,
): T[] {
  return rows.filter((r) => r.league_id === leagueId || (joined && r.joined_at !== null))
}

/**
 * The first rule that refuses this taking, or null when the person may take the position. Towards a league
 * the person has not joined only its own games count: no availability, no games elsewhere.
 */
export async function refusalFor(trx: Transaction<Db>, taking: Taking): Promise<Refusal | null> {
  const membership = await memberships.findMembership(trx, taking.league.id, taking.userId)
  const level = membership?.level ?? null
  if (!meetsLevel(level, taking.position.min_level)) return 'level_too_low'
  // One official, one position a game, on every path: Assign anyway and a partner's `allow` included, since
  // completing the game would pay them twice. The crew is locked (claimFor), so two assigns cannot both pass.
  const positionOfGame = { gameId: taking.game.id, userId: taking.userId, positionId: taking.position.id }
  if (await claims.holdsAnotherPosition(trx, positionOfGame)) return 'schedule_conflict'
  if (!timeRulesApply(taking)) return null
  const user = await users.findUser(trx, taking.userId)
  if (!user) return null
  // Two claims for one person (two tabs, two processes) check and write one after the other: the second
  // sees the first's position.
  await held.lockPerson(trx, user.email)
  const settings = ruleSettings(taking.league)
  const game = { gameId: taking.game.id, leagueId: taking.league.id, ...taking.game }
  const target = { ...gameSpan(settings, game), minLevel: taking.position.min_level }
  const window = factsWindow(settings, target)
  const range = { startsAt: iso(window.from), endsAt: iso(window.to) }
  const joined = await memberships.hasJoined(trx, taking.league.id, user.email)
  const [rows, busy] = await Promise.all([
    held.listHeldByEmails(trx, [user.email], { from: range.startsAt, to: range.endsAt }),
    joined
      ? unavailableByPerson(trx, [user.email], {
          startsAt: taking.game.starts_at,
          endsAt: taking.game.ends_at,
        })
      : new Map<string, never[]>(),
  ])
  const person: PersonFacts = {
    level,
    held: visibleHolds(rows, taking.league.id, joined).map((r) =>
      gameSpan(settings, { gameId: r.game_id, leagueId: r.league_id, ...r }),
    ),
    busy: (busy.get(user.email) ?? []).map((s) => ({
      start: Date.parse(s.startsAt),
      end: Date.parse(s.endsAt),
    })),
  }
  return timeReasons(settings, target, person)[0] ?? null
}
