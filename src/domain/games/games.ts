// Games: the batch import (create, or upsert on (source, externalId)), reads, patch and cancellation.
// Each change commits together with its events.
import type { Kysely, Transaction } from 'kysely'
import { parseWith } from '../core/parse.js'
import {
  GameItemInput,
  type Game,
  type GameDetail,
  type GameItem,
  type PositionInput,
  type UpdateGameInput,
} from '../../schemas/games.js'
import { isDeadlock, isUniqueViolation } from '../../store/errors.js'
import * as games from '../../store/games.js'
import * as leagues from '../../store/leagues.js'
import { GAME_MINUTES } from '../../schemas/schedule.js'
import { endOf } from '../../time.js'
import * as positions from '../../store/positions.js'
import type { Db, GameRow, PositionRow } from '../../store/tables.js'
import { checkSource, writeSource, type Caller } from '../core/caller.js'
import { isoNow, newId } from '../../clock.js'
import { requireGame, requireLeague, scopeOf } from '../core/access.js'
import type { Deps } from '../core/deps.js'
import { ApiError, fail } from '../core/errors.js'
import { domainEvent, recordEvents } from '../core/events.js'
import { notifyCancelled, notifyChanged, type NotifyDeps } from '../notifications/notifications.js'
import { collectPages, fromSnapshot, whole, type Pages, type Streamed } from '../core/streamed.js'
import { leagueGamePages, loadGameDetail, loadGames, toGameDetail, withPositions } from '../core/views.js'

export interface UpsertGamesInput {
  source?: string | undefined
  /** Raw items: each is parsed here, in order, so that a bad one keeps the valid ones before it. */
  games: readonly unknown[]
}

interface ParsedItem {
  item: GameItem
  raw: object
}

export async function listGames(deps: Deps, caller: Caller, leagueId: string): Promise<Game[]> {
  return whole(await streamGames(deps, caller, leagueId), collectPages)
}

/** The league's games as pages read from one snapshot (league-pages.ts) while they are written. */
export function streamGames(deps: Deps, caller: Caller, leagueId: string): Promise<Streamed<Pages<Game>>> {
  return fromSnapshot(deps.db, async (snapshot) =>
    leagueGamePages(snapshot, (await requireLeague(snapshot.db, caller, leagueId)).id),
  )
}

/**
 * Processes items in order and stops at the first failing one, whose error is the answer; the games
 * before it stay persisted with their events. The valid prefix is planned in memory and written in one
 * transaction of a few statements rather than one commit, or even one statement, per game.
 */
export async function upsertGames(
  deps: Deps,
  caller: Caller,
  leagueId: string,
  input: UpsertGamesInput,
): Promise<{ created: Game[] }> {
  checkSource(caller, input.source)
  const { valid, failure } = parseItems(input.games)
  const { created, conflict } = await retryLostRaces(() =>
    deps.db
      .transaction()
      .execute((trx) => writeBatch(trx, deps, caller, leagueId, valid, isoNow(deps.clock))),
  )
  if (conflict) fail('external_id_conflict')
  if (failure) throw failure
  return { created }
}

/** The items before the first invalid one, and that one's error. */
function parseItems(items: readonly unknown[]): { valid: ParsedItem[]; failure?: ApiError } {
  const valid: ParsedItem[] = []
  for (const raw of items) {
    try {
      const item = parseWith(GameItemInput, raw)
      // A crew names each position's label and pay; the item's own would be ambiguous.
      if (
        item.positions &&
        (Object.hasOwn(raw as object, 'label') || Object.hasOwn(raw as object, 'payDollars'))
      )
        fail('invalid_positions')
      valid.push({ item, raw: raw as object })
    } catch (error) {
      if (error instanceof ApiError) return { valid, failure: error }
      throw error
    }
  }
  return { valid }
}

// A retry reads the winner's committed game, so each one makes progress.
const MAX_ATTEMPTS = 5

/**
 * Runs the batch again when it lost a race: a concurrent batch inserted one of its new (source,
 * externalId) pairs after it looked (a unique violation), or PostgreSQL broke a lock cycle.
 */
async function retryLostRaces<T>(attempt: () => Promise<T>): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt()
    } catch (error) {
      if (n >= MAX_ATTEMPTS || !(isUniqueViolation(error) || isDeadlock(error))) throw error
    }
  }
}

async function writeBatch(
  trx: Transaction<Db>,
  deps: NotifyDeps,
  caller: Caller,
  leagueId: string,
  items: ParsedItem[],
  at: string,
) {
  const league = await requireLeague(trx, caller, leagueId)
  const source = writeSource(caller)
  const keys = [...new Set(items.flatMap(({ item }) => item.externalId ?? []))]
  // The named games' positions come in the same read: the answer and the events carry them.
  const { games: existing, positions: crews } = await games.lockGamesByExternalId(trx, source, keys)
  const plan = planBatch(items, existing, {
    leagueId: league.id,
    gameMinutes: league.game_minutes,
    source,
    at,
  })
  // One league cannot grow without bound (its list answers, the assignor's problems); the whole batch is
  // refused, so a 409 means nothing of it was written.
  if (
    plan.inserts.size > 0 &&
    (await games.countLeagueGames(trx, league.id)) + plan.inserts.size > deps.limits.gamesPerLeague
  )
    fail('games_limit_reached')
  await games.insertGames(trx, [...plan.inserts.values()])
  await games.rewriteGames(trx, [...plan.rewrites.values()])
  await positions.insertPositions(trx, plan.positions)
  // New games' positions are the ones just written; the existing games' were read with them.
  const created = withPositions(plan.snapshots, [
    ...plan.positions,
    ...crews.filter((p) => plan.existingIds.has(p.game_id)),
  ])
  await recordEvents(
    trx,
    created.map((game) => domainEvent('game.created', league.id, game)),
    at,
  )
  await notifyChanged(trx, deps, at, movedGames(existing, [...plan.rewrites.values()]))
  return { created, conflict: plan.conflict }
}

type GameState = Omit<GameRow, 'seq'>

interface BatchPlan {
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
interface BatchBase {
  leagueId: string
  /** The league's length of a game without its own. */
  gameMinutes: number
  source: string
  at: string
}

function planBatch(items: readonly ParsedItem[], existing: readonly GameRow[], base: BatchBase): BatchPlan {
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

export async function getGame(deps: Deps, caller: Caller, gameId: string): Promise<GameDetail> {
  const found = await positions.findGameDetailInScope(deps.db, scopeOf(caller), gameId)
  return found ? toGameDetail(found.game, found.positions) : fail('game_not_found')
}

/** Applies the provided keys; a request that changes nothing writes nothing and emits no event. */
export async function updateGame(
  deps: Deps,
  caller: Caller,
  gameId: string,
  input: UpdateGameInput,
): Promise<Game> {
  checkSource(caller, input.source)
  return deps.db.transaction().execute(async (trx) => {
    const game = await requireGame(trx, caller, gameId)
    const changes = {
      ...(input.sport !== undefined && input.sport !== game.sport && { sport: input.sport }),
      ...(input.startsAt !== undefined && input.startsAt !== game.starts_at && { starts_at: input.startsAt }),
      ...(input.location !== undefined && input.location !== game.location && { location: input.location }),
      ...(input.durationMinutes !== undefined &&
        input.durationMinutes !== game.duration_minutes && { duration_minutes: input.durationMinutes }),
    }
    if (Object.keys(changes).length === 0) return loadGame(trx, game)
    const at = isoNow(deps.clock)
    const moved = { ...game, ...changes }
    const league = await leagues.findLeague(trx, game.league_id)
    const endsAt = endOf(
      moved.starts_at,
      moved.duration_minutes ?? league?.game_minutes ?? GAME_MINUTES.default,
    )
    const updated = await loadGame(
      trx,
      await games.updateGame(trx, game.id, { ...changes, ends_at: endsAt, updated_at: at }),
    )
    await recordEvents(trx, [domainEvent('game.updated', game.league_id, updated)], at)
    await notifyChanged(
      trx,
      deps,
      at,
      movedGames(
        [game],
        [
          {
            id: updated.id,
            starts_at: updated.startsAt,
            ends_at: updated.endsAt,
            location: updated.location,
          },
        ],
      ),
    )
    return updated
  })
}

/**
 * Open positions become cancelled; claimed and completed ones and their payments are kept. Cancelling a
 * cancelled game answers its current state and emits nothing.
 */
export async function cancelGame(deps: Deps, caller: Caller, gameId: string): Promise<GameDetail> {
  return deps.db.transaction().execute(async (trx) => {
    const game = await requireGame(trx, caller, gameId)
    if (game.status === 'cancelled') return loadGameDetail(trx, game)
    const at = isoNow(deps.clock)
    // The game's positions are locked first, as every writer of positions does, so a racing assign either
    // claimed its slot before (kept) or finds it cancelled.
    const open = (await positions.lockPositions(trx, [game.id])).filter((p) => p.status === 'open')
    await positions.transitionPositions(
      trx,
      open.map((p) => p.id),
      'open',
      'cancelled',
      at,
    )
    const cancelled = await games.cancelGameIfActive(trx, game.id, at)
    // A concurrent cancel committed first: it emitted the event.
    if (!cancelled) return loadGameDetail(trx, await requireGame(trx, caller, game.id))
    const detail = await loadGameDetail(trx, cancelled)
    await recordEvents(trx, [domainEvent('game.cancelled', game.league_id, detail)], at)
    await notifyCancelled(trx, deps, at, [game.id])
    return detail
  })
}

async function loadGame(db: Kysely<Db>, row: GameRow): Promise<Game> {
  const [game] = await loadGames(db, [row])
  return game as Game
}

/**
 * The games whose start, end or place differs between before and after: what their holders are told. The
 * end stands for the length, so a length set to what the league's default already gave is no change.
 */
function movedGames(
  before: readonly GameRow[],
  after: readonly Pick<GameRow, 'id' | 'starts_at' | 'ends_at' | 'location'>[],
): { gameId: string; startsAt: string; endsAt: string; location: string }[] {
  const now = new Map(after.map((g) => [g.id, g]))
  return before
    .filter((g) => {
      const next = now.get(g.id)
      return (
        next !== undefined &&
        (next.starts_at !== g.starts_at || next.ends_at !== g.ends_at || next.location !== g.location)
      )
    })
    .map((g) => ({ gameId: g.id, startsAt: g.starts_at, endsAt: g.ends_at, location: g.location }))
}
