// An import's batch planned in memory before anything is written: each item applied in order to the game it
// names (created, rewritten, or the first conflict), the new games' crews, and what ends as it was.
import type { GameItem, PositionInput } from '../../schemas/games.js'
import type { GameRow, PositionRow } from '../../store/tables.js'
import { newId } from '../../clock.js'
import { endOf } from '../../time.js'

export interface ParsedItem {
  item: GameItem
  raw: object
}

type GameState = Omit<GameRow, 'seq'>

export interface BatchPlan {
  /** The final state of each new game, by id. */
  inserts: Map<string, GameState>
  /** The final state of each existing game an item changed, by id. */
  rewrites: Map<string, GameState>
  /** Each item's game as it stands after that item. */
  snapshots: GameState[]
  positions: Omit<PositionRow, 'seq'>[]
  /** The games that existed before the batch and that an item names, changed or not. */
  existingIds: Set<string>
  /** An item's externalId belongs to another league's game: the items from there on are not written. */
  conflict: boolean
}

/**
 * Applies the items in order to the games they name, in memory: creates, updates and the first conflict.
 * An upsert that changes none of a game's fields writes nothing (a nightly re-import of an unchanged
 * season is mostly that); its item still answers the game and emits its game.created.
 */
export interface BatchBase {
  leagueId: string
  /** The league's length of a game without its own. */
  gameMinutes: number
  source: string
  at: string
}

export function planBatch(
  items: readonly ParsedItem[],
  existing: readonly GameRow[],
  base: BatchBase,
): BatchPlan {
  const plan: BatchPlan = {
    inserts: new Map(),
    rewrites: new Map(),
    snapshots: [],
    positions: [],
    existingIds: new Set(),
    conflict: false,
  }
  const byExternalId = new Map<string | null, GameState>()
  for (const { seq: _seq, ...game } of existing) byExternalId.set(game.external_id, game)
  for (const { item, raw } of items) {
    const known = item.externalId === undefined ? undefined : byExternalId.get(item.externalId)
    if (known && known.league_id !== base.leagueId) {
      plan.conflict = true
      break
    }
    let state: GameState
    if (known) {
      const writes = plan.inserts.has(known.id) ? plan.inserts : plan.rewrites
      state = withEnd(
        { ...(writes.get(known.id) ?? known), ...rewriteOf(item, raw), updated_at: base.at },
        base,
      )
      writes.set(state.id, state)
    } else {
      state = newGameRow(item, base)
      plan.positions.push(...newPositionRows(state.id, item, base.at))
      plan.inserts.set(state.id, state)
      if (item.externalId !== undefined) byExternalId.set(item.externalId, state)
    }
    plan.snapshots.push(state)
  }
  plan.existingIds = new Set(plan.rewrites.keys())
  // A game whose fields end as they were (an item changing one back counts) is not written.
  for (const game of existing) {
    const rewritten = plan.rewrites.get(game.id)
    if (rewritten && REWRITABLE.every((field) => rewritten[field] === game[field]))
      plan.rewrites.delete(game.id)
  }
  return plan
}

const REWRITABLE = [
  'sport',
  'starts_at',
  'location',
  'venue',
  'latitude',
  'longitude',
  'duration_minutes',
  'ends_at',
] as const

/** The game with `ends_at` following its start and length. */
function withEnd(game: GameState, base: Pick<BatchBase, 'gameMinutes'>): GameState {
  return { ...game, ends_at: endOf(game.starts_at, game.duration_minutes ?? base.gameMinutes) }
}

function newGameRow(item: GameItem, base: BatchBase): GameState {
  return withEnd(
    {
      id: newId(),
      league_id: base.leagueId,
      source: base.source,
      external_id: item.externalId ?? null,
      sport: item.sport,
      starts_at: item.startsAt,
      location: item.location,
      venue: item.venue ?? null,
      latitude: item.latitude ?? null,
      longitude: item.longitude ?? null,
      status: 'open',
      created_at: base.at,
      updated_at: base.at,
      duration_minutes: item.durationMinutes ?? null,
      ends_at: '',
    },
    base,
  )
}

/** A new game's positions: its crew when the item names one, else exactly one, as the spec says. */
function newPositionRows(gameId: string, item: GameItem, at: string): Omit<PositionRow, 'seq'>[] {
  const crew = item.positions ?? [{ label: item.label, payDollars: item.payDollars }]
  return crew.map((p) => newPositionRow(gameId, p, at))
}

export function newPositionRow(gameId: string, input: PositionInput, at: string): Omit<PositionRow, 'seq'> {
  return {
    id: newId(),
    game_id: gameId,
    label: input.label,
    pay_cents: input.payDollars,
    status: 'open',
    created_at: at,
    updated_at: at,
    min_level: input.minLevel ?? null,
  }
}

/**
 * An upsert-update rewrites only these fields, and only those the item carries: re-posting a game with
 * just its new `startsAt` moves it without blanking the rest (an explicit null clears a coordinate).
 */
function rewriteOf(item: GameItem, raw: object): Partial<GameState> {
  const given = (key: keyof GameItem) => Object.hasOwn(raw, key)
  return {
    starts_at: item.startsAt,
    ...(given('sport') && { sport: item.sport }),
    ...(given('location') && { location: item.location }),
    ...(given('venue') && { venue: item.venue ?? null }),
    ...(given('latitude') && { latitude: item.latitude ?? null }),
    ...(given('longitude') && { longitude: item.longitude ?? null }),
    ...(item.durationMinutes !== undefined && { duration_minutes: item.durationMinutes }),
  }
}
