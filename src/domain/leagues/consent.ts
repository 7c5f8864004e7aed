// Consent across leagues (DESIGN "Consent"): a membership a partner or an organizer creates waits for the
// person to join the league; only then do their availability, home point and games elsewhere count towards
// it. Joining is the person's act (the Leagues page, `refdesk app join`, or their own claim there); Leave
// ends a membership they joined.
import type { Transaction } from 'kysely'
import type { Official } from '../../schemas/officials.js'
import * as memberships from '../../store/memberships.js'
import * as officialGames from '../../store/official-games.js'
import * as people from '../../store/people.js'
import type { Db } from '../../store/tables.js'
import { isoNow } from '../../clock.js'
import type { Deps } from '../core/deps.js'
import { fail } from '../core/errors.js'
import { toOfficial } from '../core/views.js'
import { normalizeEmail } from '../people/sign-in-links.js'
import { endMembership } from './officials.js'

/** A person as consent sees them: every user row carrying their address. */
export interface Joiner {
  readonly email: string
  readonly userIds: readonly string[]
}

/** The console names persons by address; an address no user carries is `account_not_found`. */
export async function joinersByEmail(deps: Deps, rawEmails: readonly string[]): Promise<Joiner[]> {
  const joiners: Joiner[] = []
  for (const raw of rawEmails) {
    const email = normalizeEmail(raw) ?? fail('invalid_email')
    const userIds = await people.listUserIdsByEmail(deps.db, email)
    if (userIds.length === 0) fail('account_not_found')
    joiners.push({ email, userIds })
  }
  return joiners
}

/**
 * Each person joins the league: their official memberships of it become confirmed (status unchanged). A
 * person with no official membership there answers `league_not_found`, like a league that does not exist,
 * and nothing is written for anyone.
 */
export async function joinLeague(
  deps: Deps,
  joiners: readonly Joiner[],
  leagueId: string,
): Promise<Official[]> {
  return deps.db.transaction().execute(async (trx) => {
    const at = isoNow(deps.clock)
    const joined: Official[] = []
    for (const joiner of joiners) joined.push(...(await confirmIn(trx, leagueId, joiner.userIds, at)))
    return joined
  })
}

/**
 * Confirms the person's official memberships of the league inside the caller's transaction; an official's
 * own claim joins the league this way too.
 */
async function confirmIn(
  trx: Transaction<Db>,
  leagueId: string,
  userIds: readonly string[],
  at: string,
): Promise<Official[]> {
  const rows = await memberships.lockOfficialMembershipsOf(trx, leagueId, userIds)
  if (rows.length === 0) fail('league_not_found')
  await memberships.confirmMemberships(
    trx,
    rows.map((r) => r.id),
    at,
  )
  const officials: Official[] = []
  for (const row of rows) {
    const official = await memberships.findOfficial(trx, leagueId, row.user_id)
    if (official) officials.push(toOfficial(official))
  }
  return officials
}

/**
 * The person leaves a league they joined: each joined membership ends as a partner's removal does (their
 * claimed positions reopen, `official.removed`). One they never joined is `not_a_member`: it is the
 * league's invitation, which Stop all mail answers.
 */
export async function leaveLeague(deps: Deps, joiner: Joiner, leagueId: string): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const rows = await memberships.lockOfficialMembershipsOf(trx, leagueId, joiner.userIds)
    const joined = rows.filter((r) => r.confirmed_at !== null)
    if (joined.length === 0) fail('not_a_member')
    const at = isoNow(deps.clock)
    for (const membership of joined) await endMembership(trx, deps, membership, at)
  })
}

/**
 * The names of the leagues the person joined as an official, by name: exactly who sees their home point (as
 * whole kilometres to a game) and their availability. What Profile and Availability say.
 */
export async function joinedLeagueNames(deps: Deps, joiner: Joiner): Promise<string[]> {
  const rows = await officialGames.listMembershipsOf(deps.db, joiner.userIds)
  const joined = rows.filter((r) => r.role === 'official' && r.confirmed_at !== null)
  return [...new Set(joined.map((r) => r.league_name))]
}
