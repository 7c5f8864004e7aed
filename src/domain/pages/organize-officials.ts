// The organizer's Officials tab in the app: the league's officials, Add official (by email, a user of the
// league's own source, so the league's partner sees them as it sees its own), Level, and what Deny's
// confirmation says (the denial itself is officials.ts `denyOfficial`).
import * as memberships from '../../store/memberships.js'
import * as organizer from '../../store/organizer.js'
import * as users from '../../store/users.js'
import { isEmailAddress } from '../../schemas/common.js'
import type { Official } from '../../schemas/officials.js'
import { isoNow, newId } from '../../clock.js'
import { requireLeague } from '../core/access.js'
import type { Caller } from '../core/caller.js'
import type { Deps } from '../core/deps.js'
import { fail } from '../core/errors.js'
import { domainEvent, recordEvents } from '../core/events.js'
import { enrolOfficial, lockOfficial, readOfficial } from '../leagues/officials.js'
import { requireOrganizedLeague, type OrganizedLeague } from './organize.js'
import { toOfficial } from '../core/views.js'

export async function listLeagueOfficials(
  deps: Deps,
  caller: Caller,
  leagueId: string,
): Promise<{ league: OrganizedLeague; officials: Official[] }> {
  const league = await requireOrganizedLeague(deps.db, caller, leagueId)
  const officials = (await memberships.listOfficials(deps.db, league.id)).map(toOfficial)
  return { league, officials }
}

export interface NewOfficial {
  /** Trimmed and lowercased by the caller's schema. */
  readonly email: string
  readonly name: string
  readonly level: number | null
}

/**
 * An approved official of the league, found by address among the league's source's users or made there
 * (no externalId: the partner may adopt them with its own). As a partner's add: a new membership emits
 * `official.joined`; an existing one is approved with the given level and emits `official.approved`.
 */
export async function addOfficial(
  deps: Deps,
  caller: Caller,
  leagueId: string,
  input: NewOfficial,
): Promise<Official> {
  if (!isEmailAddress(input.email)) fail('invalid_email')
  return deps.db.transaction().execute(async (trx) => {
    const league = await requireLeague(trx, caller, leagueId)
    // The organizer's own address, in whatever source their user row lives, is never an official here.
    const organizerRow = await users.findUser(trx, league.organizer_id)
    if (organizerRow?.email === input.email) fail('user_is_organizer')
    const at = isoNow(deps.clock)
    const user =
      (await users.findUserByEmail(trx, league.source, input.email)) ??
      (await users.insertUser(trx, {
        id: newId(),
        source: league.source,
        external_id: null,
        email: input.email,
        name: input.name,
        created_at: at,
        updated_at: at,
      }))
    const existing = await memberships.lockMembership(trx, league.id, user.id, 'update')
    if (user.id === league.organizer_id || existing?.role === 'organizer') fail('user_is_organizer')
    return enrolOfficial(trx, league.id, user, {
      status: 'approved',
      level: input.level,
      setLevel: true,
      at,
    })
  })
}

/**
 * The official's level in this league. An approved official's change is told to partners as their re-post
 * with a level tells it, `official.approved` with the Official; a pending or denied one's emits nothing
 * (that event would misstate their status).
 */
export async function setOfficialLevel(
  deps: Deps,
  caller: Caller,
  leagueId: string,
  userId: string,
  level: number | null,
): Promise<Official> {
  return deps.db.transaction().execute(async (trx) => {
    const league = await requireLeague(trx, caller, leagueId)
    const membership = await lockOfficial(trx, league.id, userId)
    if (membership.level === level) {
      return readOfficial(trx, league.id, userId)
    }
    const at = isoNow(deps.clock)
    await memberships.setMembershipLevel(trx, membership.id, level, at)
    const official = await readOfficial(trx, league.id, userId)
    if (official.status === 'approved') {
      await recordEvents(trx, [domainEvent('official.approved', league.id, { official })], at)
    }
    return official
  })
}

export interface DenialPreview {
  readonly league: OrganizedLeague
  readonly official: Official
  /** What "Also release their upcoming games" would release. */
  readonly upcoming: readonly { gameId: string; startsAt: string; sport: string; label: string }[]
}

/** What Deny's confirmation says: the official and the positions they hold in games yet to start. */
export async function previewDenial(
  deps: Deps,
  caller: Caller,
  leagueId: string,
  userId: string,
): Promise<DenialPreview> {
  const league = await requireOrganizedLeague(deps.db, caller, leagueId)
  const row = (await memberships.findOfficial(deps.db, league.id, userId)) ?? fail('not_a_member')
  if (row.role !== 'official') fail('not_a_member')
  const held = await organizer.listUpcomingHeld(deps.db, league.id, userId, isoNow(deps.clock))
  return {
    league,
    official: toOfficial(row),
    upcoming: held.map((h) => ({ gameId: h.game_id, startsAt: h.starts_at, sport: h.sport, label: h.label })),
  }
}
