// Leagues: create/upsert, read with their games and officials, patch. A league change emits no event of
// its own; a new gameMinutes moves games, and each moved game emits its game.updated.
import type { Transaction } from 'kysely'
import type { Game } from '../../schemas/games.js'
import type {
  League,
  LeagueDetail,
  LeagueListItem,
  UpdateLeagueInput,
  UpsertLeagueInput,
} from '../../schemas/leagues.js'
import * as leagues from '../../store/leagues.js'
import * as memberships from '../../store/memberships.js'
import { isoNow, newId } from '../../clock.js'
import { requireLeague, scopeOf } from '../core/access.js'
import { checkSource, writeSource, type Caller, type PartnerCaller } from '../core/caller.js'
import type { Deps } from '../core/deps.js'
import { followLeagueLength } from '../games/league-length.js'
import type { Db, LeagueRow } from '../../store/tables.js'
import { collectPages, fromSnapshot, whole, type Pages, type Streamed } from '../core/streamed.js'
import { leagueGamePages, toLeague, toOfficial } from '../core/views.js'

export async function listLeagues(deps: Deps, caller: Caller): Promise<LeagueListItem[]> {
  const rows = await leagues.listLeaguesInScope(deps.db, scopeOf(caller))
  return rows.map((r) => ({ ...toLeague(r), gameCount: r.game_count, memberCount: r.member_count }))
}

/**
 * Plain create without `externalId`; upsert on (source, externalId) with it, where omitted fields keep
 * their stored values. New leagues get the key's organizer.
 */
export async function upsertLeague(
  deps: Deps,
  caller: PartnerCaller,
  input: UpsertLeagueInput,
): Promise<League> {
  checkSource(caller, input.source)
  return deps.db.transaction().execute(async (trx) => {
    const at = isoNow(deps.clock)
    const row = {
      id: newId(),
      source: writeSource(caller),
      external_id: input.externalId ?? null,
      name: input.name,
      payment_mode: input.paymentMode ?? 'offline',
      currency: input.currency ?? 'usd',
      organizer_id: caller.organizerId,
      created_at: at,
      updated_at: at,
      ...settingsOf(input),
    }
    // Like the games upsert, a re-post rewrites only what it carries: a platform/eur league re-posted with
    // just its name and externalId stays platform/eur, and keeps its time zone and assigning settings.
    const changes = {
      name: row.name,
      updated_at: at,
      ...(input.paymentMode !== undefined && { payment_mode: row.payment_mode }),
      ...(input.currency !== undefined && { currency: row.currency }),
      ...settingsOf(input),
    }
    const before =
      row.external_id === null
        ? undefined
        : await leagues.findLeagueByExternalId(trx, row.source, row.external_id)
    const league =
      row.external_id === null
        ? await leagues.insertLeague(trx, row)
        : await leagues.upsertLeague(trx, row, changes)
    await keepGameEnds(trx, deps, before, league, at)
    if (league.id === row.id) {
      await memberships.insertMembership(trx, {
        id: newId(),
        league_id: league.id,
        user_id: league.organizer_id,
        role: 'organizer',
        status: 'approved',
        level: null,
        // The organizer created the league: theirs without an invitation.
        confirmed_at: at,
        created_at: at,
        updated_at: at,
      })
    }
    return toLeague(league)
  })
}

export async function getLeague(deps: Deps, caller: Caller, leagueId: string): Promise<LeagueDetail> {
  return whole(await streamLeague(deps, caller, leagueId), async ({ games, ...league }) => ({
    ...league,
    games: await collectPages(games),
  }))
}

/**
 * The league with its officials, and its games as pages read while they are written: the league, its
 * games and its officials as of one instant (one snapshot, league-pages.ts).
 */
export function streamLeague(
  deps: Deps,
  caller: Caller,
  leagueId: string,
): Promise<Streamed<Omit<LeagueDetail, 'games'> & { games: Pages<Game> }>> {
  return fromSnapshot(deps.db, async (snapshot) => {
    const league = await requireLeague(snapshot.db, caller, leagueId)
    const officials = await memberships.listOfficials(snapshot.db, league.id)
    return {
      ...toLeague(league),
      games: leagueGamePages(snapshot, league.id),
      officials: officials.map(toOfficial),
    }
  })
}

export async function updateLeague(
  deps: Deps,
  caller: Caller,
  leagueId: string,
  input: UpdateLeagueInput,
): Promise<League> {
  checkSource(caller, input.source)
  return deps.db.transaction().execute(async (trx) => {
    const league = await requireLeague(trx, caller, leagueId)
    const changes = {
      ...(input.name !== undefined && { name: input.name }),
      ...(input.paymentMode !== undefined && { payment_mode: input.paymentMode }),
      ...(input.currency !== undefined && { currency: input.currency }),
      ...settingsOf(input),
    }
    if (Object.keys(changes).length === 0) return toLeague(league)
    const at = isoNow(deps.clock)
    const updated = await leagues.updateLeague(trx, league.id, { ...changes, updated_at: at })
    await keepGameEnds(trx, deps, league, updated, at)
    return toLeague(updated)
  })
}

type LeagueSettings = Pick<
  LeagueRow,
  'time_zone' | 'game_minutes' | 'travel_buffer_minutes' | 'max_games_per_day' | 'conflict_policy'
>

/** The settings the input carries, as columns; those it omits are absent (and keep their value). */
function settingsOf(input: UpdateLeagueInput): Partial<LeagueSettings> {
  return {
    ...(input.timeZone !== undefined && { time_zone: input.timeZone }),
    ...(input.gameMinutes !== undefined && { game_minutes: input.gameMinutes }),
    ...(input.travelBufferMinutes !== undefined && { travel_buffer_minutes: input.travelBufferMinutes }),
    ...(input.maxGamesPerDay !== undefined && { max_games_per_day: input.maxGamesPerDay }),
    ...(input.conflictPolicy !== undefined && { conflict_policy: input.conflictPolicy }),
  }
}

/**
 * Games without their own length last the league's gameMinutes: when that changes, their ends move, each
 * with its game.updated. The league's own change still emits nothing, as the spec says.
 */
async function keepGameEnds(
  trx: Transaction<Db>,
  deps: Deps,
  before: LeagueRow | undefined,
  after: LeagueRow,
  at: string,
) {
  if (before && before.id === after.id && before.game_minutes !== after.game_minutes)
    await followLeagueLength(trx, deps, after.id, after.game_minutes, at)
}
