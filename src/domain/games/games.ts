// Games: the batch import (create, or upsert on (source, externalId)), reads, patch and cancellation.
// Each change commits together with its events.
import type { Kysely, Transaction } from 'kysely'
import { parseWith } from '../core/parse.js'
import { GameItemInput, type Game, type GameDetail, type UpdateGameInput } from '../../schemas/games.js'
import { isDeadlock, isUniqueViolation } from '../../store/errors.js'
import * as games from '../../store/games.js'
import * as leagues from '../../store/leagues.js'
import { GAME_MINUTES } from '../../schemas/schedule.js'
import { endOf } from '../../time.js'
import * as positions from '../../store/positions.js'
import type { Db, GameRow } from '../../store/tables.js'
import { checkSource, writeSource, type Caller } from '../core/caller.js'
import { isoNow } from '../../clock.js'
import { requireGame, requireLeague, scopeOf } from '../core/access.js'
import type { Deps } from '../core/deps.js'
import { ApiError, fail } from '../core/errors.js'
import { domainEvent, recordEvents } from '../core/events.js'
import { notifyCancelled, notifyChanged, type NotifyDeps } from '../notifications/notifications.js'
import { collectPages, fromSnapshot, whole, type Pages, type Streamed } from '../core/streamed.js'
import { planBatch, type ParsedItem } from './batch-plan.js'
import { leagueGamePages, loadGameDetail, loadGames, toGameDetail, withPositions } from '../core/views.js'

export interface UpsertGamesInput {
  source?: string | undefined
  /** Raw items: each is parsed here, in order, so that a bad one keeps the valid ones before it. */
  games: readonly unknown[]
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
