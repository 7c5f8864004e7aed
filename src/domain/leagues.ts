// Leagues: create/upsert, read with their games and officials, patch. No league change emits an event.
import type {
  League,
  LeagueDetail,
  LeagueListItem,
  UpdateLeagueInput,
  UpsertLeagueInput,
} from '../schemas/leagues.js'
import * as leagues from '../store/leagues.js'
import * as memberships from '../store/memberships.js'
import { isoNow, newId } from '../clock.js'
import { requireLeague, scopeOf } from './access.js'
import { checkSource, writeSource, type Caller, type PartnerCaller } from './caller.js'
import type { Deps } from './deps.js'
import { loadLeagueGames, toLeague, toOfficial } from './views.js'

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
    }
    // Like the games upsert, a re-post rewrites only what it carries: a platform/eur league re-posted with
    // just its name and externalId stays platform/eur.
    const changes = {
      name: row.name,
      updated_at: at,
      ...(input.paymentMode !== undefined && { payment_mode: row.payment_mode }),
      ...(input.currency !== undefined && { currency: row.currency }),
    }
    const league =
      row.external_id === null
        ? await leagues.insertLeague(trx, row)
        : await leagues.upsertLeague(trx, row, changes)
    if (league.id === row.id) {
      await memberships.insertMembership(trx, {
        id: newId(),
        league_id: league.id,
        user_id: league.organizer_id,
        role: 'organizer',
        status: 'approved',
        created_at: at,
        updated_at: at,
      })
    }
    return toLeague(league)
  })
}

export async function getLeague(deps: Deps, caller: Caller, leagueId: string): Promise<LeagueDetail> {
  const league = await requireLeague(deps.db, caller, leagueId)
  const [leagueGames, officials] = await Promise.all([
    loadLeagueGames(deps.db, league.id),
    memberships.listOfficials(deps.db, league.id),
  ])
  return { ...toLeague(league), games: leagueGames, officials: officials.map(toOfficial) }
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
    }
    if (Object.keys(changes).length === 0) return toLeague(league)
    return toLeague(
      await leagues.updateLeague(trx, league.id, { ...changes, updated_at: isoNow(deps.clock) }),
    )
  })
}
