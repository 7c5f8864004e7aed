// The leagues a person belongs to, with their role, membership status and whether they joined (DESIGN
// "Consent": an invitation until they do). Only an approved official claims.
import type { MembershipRole, MembershipStatus } from '../../store/tables.js'
import * as officialGames from '../../store/official-games.js'
import type { Deps } from '../core/deps.js'
import type { PersonCaller } from '../core/caller.js'
import { inviterOf } from '../core/views.js'

export interface PersonMembership {
  readonly leagueId: string
  readonly leagueName: string
  readonly role: MembershipRole
  readonly status: MembershipStatus
  /** Whether they joined the league; an organizer's own league always is. */
  readonly joined: boolean
  /** Who added them: the league's organizer, and the partner that runs it. */
  readonly invitedBy: string
}

export async function listMemberships(deps: Deps, person: PersonCaller): Promise<PersonMembership[]> {
  const rows = await officialGames.listMembershipsOf(deps.db, person.userIds)
  return rows.map((row) => ({
    leagueId: row.league_id,
    leagueName: row.league_name,
    role: row.role,
    status: row.status,
    joined: row.confirmed_at !== null,
    invitedBy: inviterOf(row.organizer_name, row.league_source),
  }))
}
