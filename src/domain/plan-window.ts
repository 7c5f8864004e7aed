// What the assignor knows about a window: the open positions, the league's approved officials (level,
// home point) and what their persons already hold, and which rule excludes each (position, official)
// pair. The rules are the conflict rules of DESIGN "Availability and conflicts", evaluated in memory for
// a whole window (one query per kind of fact, none per pair); the assignor adds no rule of its own.
import type { Kysely } from 'kysely'
import type { AssignmentProblem, EligiblePair } from './assignor/index.js'
import * as plans from '../store/plans.js'
import type { Db, LeagueRow } from '../store/tables.js'

const MINUTE = 60_000
const DAY = 24 * 60 * MINUTE

/** The league's scheduling settings the rules read. */
export interface LeagueRules {
  readonly gameMinutes: number
  readonly travelBufferMinutes: number
  readonly maxGamesPerDay: number | null
  readonly timeZone: string
}

/** The defaults of DESIGN "Schedule data", which every league has until it sets its own. */
export function leagueRules(_league: LeagueRow): LeagueRules {
  return { gameMinutes: 90, travelBufferMinutes: 30, maxGamesPerDay: null, timeZone: 'UTC' }
}

export interface Point {
  readonly latitude: number
  readonly longitude: number
}

export interface SlotFact {
  readonly positionId: string
  readonly gameId: string
  readonly label: string
  readonly startsAt: string
  readonly start: number
  readonly end: number
  readonly day: string
  readonly minLevel: number | null
  readonly point: Point | null
}

export interface OfficialFact {
  readonly userId: string
  readonly name: string
  readonly email: string
  readonly level: number | null
  readonly home: Point | null
}

interface HeldFact {
  readonly gameId: string
  readonly leagueId: string
  readonly start: number
  readonly end: number
  readonly day: string
}

export interface WindowFacts {
  readonly leagueId: string
  readonly rules: LeagueRules
  readonly slots: readonly SlotFact[]
  readonly officials: readonly OfficialFact[]
  /** By email: a person's positions anywhere, as the conflict rules see them. */
  readonly held: ReadonlyMap<string, readonly HeldFact[]>
}

export type ConflictCode =
  'schedule_conflict' | 'official_unavailable' | 'daily_limit_reached' | 'level_too_low'

const pointOf = (latitude: number | null, longitude: number | null): Point | null =>
  latitude === null || longitude === null ? null : { latitude, longitude }

/** The league-local calendar day of an instant. */
function localDay(ms: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(ms)
}

/** Great-circle distance in km (haversine, mean Earth radius), to 0.1 km. */
export function distanceKm(a: Point | null, b: Point | null): number | null {
  if (!a || !b) return null
  const rad = Math.PI / 180
  const dLat = (b.latitude - a.latitude) * rad
  const dLon = (b.longitude - a.longitude) * rad
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2
  return Math.round(2 * 6371.0088 * Math.asin(Math.min(1, Math.sqrt(h))) * 10) / 10
}

export interface SlotRow {
  readonly position_id: string
  readonly label: string
  readonly game_id: string
  readonly starts_at: string
  readonly latitude: number | null
  readonly longitude: number | null
}

export function slotFact(row: SlotRow, rules: LeagueRules): SlotFact {
  const start = Date.parse(row.starts_at)
  return {
    positionId: row.position_id,
    gameId: row.game_id,
    label: row.label,
    startsAt: row.starts_at,
    start,
    end: start + rules.gameMinutes * MINUTE,
    day: localDay(start, rules.timeZone),
    minLevel: null,
    point: pointOf(row.latitude, row.longitude),
  }
}

/**
 * The facts of the slots given: the league's approved officials and what their persons hold `around`
 * the slots (the default, a day either side, covers the travel buffer and every local day a slot is on).
 */
export async function loadFacts(
  db: Kysely<Db>,
  league: LeagueRow,
  slots: readonly SlotFact[],
  rules: LeagueRules = leagueRules(league),
  around = DAY,
): Promise<WindowFacts> {
  const pool = await plans.listPool(db, league.id)
  const officials = pool.map((row) => ({
    userId: row.user_id,
    name: row.name,
    email: row.email,
    level: null,
    home: pointOf(row.home_latitude, row.home_longitude),
  }))
  const held = new Map<string, HeldFact[]>()
  if (slots.length > 0) {
    const from = new Date(Math.min(...slots.map((s) => s.start)) - around).toISOString()
    const to = new Date(Math.max(...slots.map((s) => s.end)) + around).toISOString()
    const rows = await plans.listHeldByEmails(db, [...new Set(officials.map((o) => o.email))], { from, to })
    for (const row of rows) {
      const start = Date.parse(row.starts_at)
      const fact = {
        gameId: row.game_id,
        leagueId: row.league_id,
        start,
        end: start + rules.gameMinutes * MINUTE,
        day: localDay(start, rules.timeZone),
      }
      held.set(row.email, [...(held.get(row.email) ?? []), fact])
    }
  }
  return { leagueId: league.id, rules, slots, officials, held }
}

/** Whether two games come within the travel buffer of each other (the same game included). */
const tooClose = (a: { start: number; end: number }, b: { start: number; end: number }, bufferMs: number) =>
  a.start < b.end + bufferMs && b.start < a.end + bufferMs

/**
 * The conflict rules that exclude the official from the slot, in the order DESIGN lists them; empty when
 * they may take it.
 */
export function pairReasons(facts: WindowFacts, slot: SlotFact, official: OfficialFact): ConflictCode[] {
  const { rules } = facts
  const held = facts.held.get(official.email) ?? []
  const reasons: ConflictCode[] = []
  const bufferMs = rules.travelBufferMinutes * MINUTE
  if (held.some((h) => h.gameId === slot.gameId || tooClose(h, slot, bufferMs)))
    reasons.push('schedule_conflict')
  if (rules.maxGamesPerDay !== null) {
    const sameDay = held.filter((h) => h.leagueId === facts.leagueId && h.day === slot.day).length
    if (sameDay >= rules.maxGamesPerDay) reasons.push('daily_limit_reached')
  }
  if (slot.minLevel !== null && (official.level === null || official.level < slot.minLevel))
    reasons.push('level_too_low')
  return reasons
}

export const levelMargin = (slot: SlotFact, official: OfficialFact): number =>
  slot.minLevel === null ? 0 : (official.level ?? 0) - slot.minLevel

/** Positions the person holds in this league within the window: where the spread starts counting. */
export function gamesHeldIn(
  facts: WindowFacts,
  official: OfficialFact,
  window: { from: number; to: number },
) {
  return (facts.held.get(official.email) ?? []).filter(
    (h) => h.leagueId === facts.leagueId && h.start >= window.from && h.start < window.to,
  )
}

/** The solver's problem: every pair no rule excludes, with what the preferences weigh. */
export function toProblem(facts: WindowFacts, window: { from: number; to: number }): AssignmentProblem {
  const pairs: EligiblePair[] = []
  for (const slot of facts.slots)
    for (const official of facts.officials)
      if (pairReasons(facts, slot, official).length === 0)
        pairs.push({
          slotKey: slot.positionId,
          officialKey: official.userId,
          levelMargin: levelMargin(slot, official),
          distanceKm: distanceKm(official.home, slot.point),
        })
  const officials = facts.officials.map((official) => {
    const held = gamesHeldIn(facts, official, window)
    const byDay: Record<string, number> = {}
    for (const h of facts.held.get(official.email) ?? [])
      if (h.leagueId === facts.leagueId) byDay[h.day] = (byDay[h.day] ?? 0) + 1
    return { key: official.userId, gamesHeld: held.length, gamesHeldByDay: byDay }
  })
  return {
    slots: facts.slots.map((s) => ({
      key: s.positionId,
      gameKey: s.gameId,
      startsAt: s.start,
      endsAt: s.end,
      day: s.day,
    })),
    officials,
    pairs,
    travelBufferMinutes: facts.rules.travelBufferMinutes,
    maxGamesPerDay: facts.rules.maxGamesPerDay,
  }
}
