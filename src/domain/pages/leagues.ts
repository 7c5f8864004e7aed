// The leagues a person belongs to, with their role and membership status. Only an approved official claims.
import type { MembershipRole, MembershipStatus } from '../../store/tables.js'
import * as officialGames from '../../store/official-games.js'
import type { Deps } from '../core/deps.js'
import type { PersonCaller } from '../core/caller.js'

export interface PersonMembership {
  readonly leagueId: string
  readonly leagueName: string
  readonly role: MembershipRole
  readonly status: MembershipStatus
}

export async function listMemberships(deps: Deps, person: PersonCaller): Promise<PersonMembership[]> {
  const rows = await officialGames.listMembershipsOf(deps.db, person.userIds)
  return rows.map((row) => ({
    leagueId: row.league_id,
    leagueName: row.league_name,
    role: row.role,
    status: row.status,
  }))
}
