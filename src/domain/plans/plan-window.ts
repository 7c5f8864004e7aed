// What the assignor knows about a window: the open positions, the league's approved officials (level,
// home point), what their persons already hold and when they are unavailable, and which rule excludes
// each (position, official) pair. The rules are conflicts.ts's own definitions with the league's own
// settings, evaluated in memory for a whole window (one query per kind of fact, none per pair): the
// assignor adds no rule of its own, so a plan never proposes what a claim would refuse.
import type { Kysely } from 'kysely'
import type { AssignmentProblem, EligiblePair } from '../assignor/index.js'
import * as held from '../../store/held.js'
import * as plans from '../../store/plans.js'
import type { Db, LeagueRow } from '../../store/tables.js'
import type { TurnbackKind } from '../../store/app-tables.js'
import * as turnbacks from '../../store/turnbacks.js'
import {
  gameSpan,
  reasonsFor,
  type GameSpan,
  type Refusal,
  type RuleSettings,
  type Target,
  visibleHolds,
} from '../availability/conflicts.js'
import { unavailableByPerson } from '../availability/unavailability.js'
import { DAY_MS, iso } from '../../time.js'

export interface Point {
  readonly latitude: number
  readonly longitude: number
}

export interface SlotFact extends Target {
  readonly positionId: string
  /** The game's lead (its first position not cancelled): plans fill leads first among equals. */
  readonly lead: boolean
  readonly label: string
  readonly startsAt: string
  readonly location: string
  readonly venue: string | null
  readonly sport: string
  readonly point: Point | null
}

export interface OfficialFact {
  readonly userId: string
  readonly name: string
  readonly email: string
  readonly level: number | null
  /** Null when unknown, or when the person has not joined the league (DESIGN "Consent"). */
  readonly home: Point | null
  /** Whether the person joined the league: until then only its own games of theirs count. */
  readonly joined: boolean
}

type Busy = readonly { readonly start: number; readonly end: number }[]

export interface WindowFacts {
  readonly leagueId: string
  readonly rules: RuleSettings
  readonly slots: readonly SlotFact[]
  readonly officials: readonly OfficialFact[]
  /** By email: a person's positions anywhere, as the conflict rules see them. */
  readonly held: ReadonlyMap<string, readonly GameSpan[]>
  /** By email: when the person is unavailable, around the slots. */
  readonly busy: ReadonlyMap<string, Busy>
  /** By game: the officials (user ids) who gave it back, and how. */
  readonly turnedBack: ReadonlyMap<string, ReadonlyMap<string, TurnbackKind>>
}

/** Why the assignor leaves an official out of a slot: a conflict rule, or their own turnback of the game. */
export type PairReason = Refusal | TurnbackKind

/** What a caller is told of the reasons that exclude an official from a slot (candidates.ts `tellerFor`). */
export type Teller = (slot: SlotFact, official: OfficialFact, reasons: readonly PairReason[]) => string[]

const pointOf = (latitude: number | null, longitude: number | null): Point | null =>
  latitude === null || longitude === null ? null : { latitude, longitude }

/**
 * Great-circle distance in km (haversine, mean Earth radius), rounded to whole km: finer would let a
 * league locate a home by trilateration from games it places (DESIGN "Consent").
 */
export function distanceKm(a: Point | null, b: Point | null): number | null {
  if (!a || !b) return null
  const rad = Math.PI / 180
  const dLat = (b.latitude - a.latitude) * rad
  const dLon = (b.longitude - a.longitude) * rad
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2
  return Math.round(2 * 6371.0088 * Math.asin(Math.min(1, Math.sqrt(h))))
}

export interface SlotRow {
  readonly position_id: string
  readonly label: string
  readonly min_level: number | null
  readonly game_id: string
  readonly starts_at: string
  readonly ends_at: string
  readonly location: string
  readonly venue: string | null
  readonly sport: string
  readonly latitude: number | null
  readonly longitude: number | null
  /** Absent: not known to be the lead (a candidates' lookup, which does not weigh it). */
  readonly is_lead?: number | boolean
}

export function slotFact(row: SlotRow, rules: RuleSettings): SlotFact {
  return {
    ...gameSpan(rules, { gameId: row.game_id, leagueId: rules.leagueId, ...row }),
    positionId: row.position_id,
    lead: Boolean(row.is_lead),
    label: row.label,
    startsAt: row.starts_at,
    location: row.location,
    venue: row.venue,
    sport: row.sport,
    minLevel: row.min_level,
    point: pointOf(row.latitude, row.longitude),
  }
}

/**
 * The facts of the slots given: the league's approved officials (`pool`, read here unless given), what
 * their persons hold and when they are unavailable `around` the slots (the default, a day either side, covers the travel buffer and every
 * local day a slot is on).
 */
export async function loadFacts(
  db: Kysely<Db>,
  league: LeagueRow,
  slots: readonly SlotFact[],
  rules: RuleSettings,
  pool?: readonly plans.PoolOfficialRow[],
  around = DAY_MS,
): Promise<WindowFacts> {
  pool ??= await plans.listPool(db, league.id)
  // A person with two user rows in the league counts as joined when either joined.
  const joinedEmails = new Set(pool.filter((row) => row.confirmed_at !== null).map((row) => row.email))
  const officials = pool.map((row) => {
    const joined = joinedEmails.has(row.email)
    return {
      userId: row.user_id,
      name: row.name,
      email: row.email,
      level: row.level,
      home: joined ? pointOf(row.home_latitude, row.home_longitude) : null,
      joined,
    }
  })
  const heldBy = new Map<string, GameSpan[]>()
  const busyBy = new Map<string, Busy>()
  const turnedBack = new Map<string, Map<string, TurnbackKind>>()
  for (const row of await turnbacks.listTurnbacks(db, [...new Set(slots.map((s) => s.gameId))])) {
    const byUser = turnedBack.get(row.game_id) ?? new Map<string, TurnbackKind>()
    turnedBack.set(row.game_id, byUser.set(row.user_id, row.kind))
  }
  if (slots.length > 0) {
    const emails = [...new Set(officials.map((o) => o.email))]
    const from = iso(Math.min(...slots.map((s) => s.start)) - around)
    const to = iso(Math.max(...slots.map((s) => s.end)) + around)
    const [rows, busy] = await Promise.all([
      held.listHeldByEmails(db, emails, { from, to }),
      unavailableByPerson(db, [...joinedEmails], { startsAt: from, endsAt: to }),
    ])
    for (const row of visibleHoldsOf(rows, league.id, joinedEmails)) {
      const fact = gameSpan(rules, { gameId: row.game_id, leagueId: row.league_id, ...row })
      heldBy.set(row.email, [...(heldBy.get(row.email) ?? []), fact])
    }
    for (const [email, spans] of busy)
      busyBy.set(
        email,
        spans.map((s) => ({ start: Date.parse(s.startsAt), end: Date.parse(s.endsAt) })),
      )
  }
  return { leagueId: league.id, rules, slots, officials, held: heldBy, busy: busyBy, turnedBack }
}

/** The holds the league may weigh, each person's by whether they joined it (conflicts.ts). */
function visibleHoldsOf(
  rows: readonly held.HeldRow[],
  leagueId: string,
  joinedEmails: ReadonlySet<string>,
): held.HeldRow[] {
  return rows.filter((row) => visibleHolds([row], leagueId, joinedEmails.has(row.email)).length > 0)
}

/** The same window as the league alone knows it: its own games of each person, nothing of their time. */
export function ownFacts(facts: WindowFacts): WindowFacts {
  const own = new Map<string, GameSpan[]>()
  for (const [email, spans] of facts.held)
    own.set(
      email,
      spans.filter((s) => s.leagueId === facts.leagueId),
    )
  return { ...facts, held: own, busy: new Map() }
}

/**
 * What excludes the official from the slot, in DESIGN's order, their turnback of the game last; empty when
 * they may take it. A turnback binds the assignor alone: an organizer may still assign them.
 */
export function pairReasons(facts: WindowFacts, slot: SlotFact, official: OfficialFact): PairReason[] {
  const reasons: PairReason[] = reasonsFor(facts.rules, slot, {
    level: official.level,
    held: facts.held.get(official.email) ?? [],
    busy: facts.busy.get(official.email) ?? [],
  })
  const turnback = facts.turnedBack.get(slot.gameId)?.get(official.userId)
  if (turnback) reasons.push(turnback)
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

/**
 * Pairs judged between two turns of the event loop: a few ms of work. Counted in pairs, not positions,
 * so that concurrent plans (each a slice per turn) still leave the loop within a few ms each.
 */
const PAIRS_CHUNK = 2048

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

/**
 * The solver's problem: every pair no rule excludes, with what the preferences weigh. The rules are
 * asked a few positions per turn of the event loop (a 500 × 2,000 window is a million pairs), so other
 * requests are answered between.
 */
export async function toProblem(
  facts: WindowFacts,
  window: { from: number; to: number },
): Promise<AssignmentProblem> {
  const pairs: EligiblePair[] = []
  let sinceTurn = PAIRS_CHUNK
  for (const slot of facts.slots) {
    if (sinceTurn >= PAIRS_CHUNK) {
      await turn()
      sinceTurn = 0
    }
    sinceTurn += facts.officials.length
    for (const official of facts.officials)
      if (pairReasons(facts, slot, official).length === 0)
        pairs.push({
          slotKey: slot.positionId,
          officialKey: official.userId,
          levelMargin: levelMargin(slot, official),
          distanceKm: distanceKm(official.home, slot.point),
        })
  }
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
      lead: s.lead,
      site: s.site,
    })),
    officials,
    pairs,
    travelBufferMinutes: facts.rules.travelBufferMinutes,
    maxGamesPerDay: facts.rules.maxGamesPerDay,
  }
}
