// The organizer's overview in the app: the leagues they organize with their counts. A league the person does
// not organize reads exactly like one that does not exist (domain/core/access.ts).
import type { Kysely } from 'kysely'
import * as organizer from '../../store/organizer.js'
import type { Db, GameStatus, LeagueRow, PaymentMode } from '../../store/tables.js'
import { requireLeague, scopeOf } from '../core/access.js'
import type { Caller } from '../core/caller.js'
import type { Deps } from '../core/deps.js'

export interface OrganizedLeague {
  readonly id: string
  readonly name: string
  readonly paymentMode: PaymentMode
  readonly currency: string
  /** The league's pages show its times in this zone (issue 22, item 5). */
  readonly timeZone: string
}

export interface LeagueOverview extends OrganizedLeague {
  readonly games: Readonly<Record<GameStatus, number>>
  readonly pendingOfficials: number
}

const toOrganizedLeague = (row: LeagueRow): OrganizedLeague => ({
  id: row.id,
  name: row.name,
  paymentMode: row.payment_mode,
  currency: row.currency,
  timeZone: row.time_zone,
})

/** The league, when the caller organizes it; `league_not_found` otherwise. */
export async function requireOrganizedLeague(
  db: Kysely<Db>,
  caller: Caller,
  leagueId: string,
): Promise<OrganizedLeague> {
  return toOrganizedLeague(await requireLeague(db, caller, leagueId))
}

export async function listOrganizedLeagues(deps: Deps, caller: Caller): Promise<LeagueOverview[]> {
  const rows = await organizer.listOrganizedLeagues(deps.db, scopeOf(caller))
  return rows.map((row) => ({
    ...toOrganizedLeague(row),
    games: {
      open: row.open_count,
      claimed: row.claimed_count,
      completed: row.completed_count,
      cancelled: row.cancelled_count,
    },
    pendingOfficials: row.pending_officials,
  }))
}
