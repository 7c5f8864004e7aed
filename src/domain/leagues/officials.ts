// Officials: league memberships with role `official`. Partners add or re-approve them (an idempotent
// upsert on the user's (source, externalId)) and remove them; the in-app organizer denies them.
import type { Transaction } from 'kysely'
import type { Official, UpsertOfficialInput } from '../../schemas/officials.js'
import * as memberships from '../../store/memberships.js'
import type { Db, MembershipRow, UserRow } from '../../store/tables.js'
import * as users from '../../store/users.js'
import { releaseHeldPositions, releaseUpcomingClaims } from '../assignments/releases.js'
import { isoNow, newId } from '../../clock.js'
import { requireLeague } from '../core/access.js'
import { checkSource, writeSource, type Caller } from '../core/caller.js'
import type { Deps } from '../core/deps.js'
import { fail } from '../core/errors.js'
import { domainEvent, recordEvents } from '../core/events.js'
import { notifyReleased } from '../notifications/notifications.js'
import { toOfficial } from '../core/views.js'

/** Role `official`, every status, oldest first. */
export async function listOfficials(deps: Deps, caller: Caller, leagueId: string): Promise<Official[]> {
  const league = await requireLeague(deps.db, caller, leagueId)
  return (await memberships.listOfficials(deps.db, league.id)).map(toOfficial)
}

/**
 * Upserts the user on (caller's source, externalId), updating email and name only when given, then the
 * membership: `pending` only when asked for, else `approved` — a denied official is re-approved too.
 * Emits `official.joined` for a new membership, `official.approved` for an existing one.
 */
export async function upsertOfficial(
  deps: Deps,
  caller: Caller,
  leagueId: string,
  input: UpsertOfficialInput,
): Promise<Official> {
  checkSource(caller, input.source)
  // An empty address after trimming is no address: it must not overwrite a real one.
  const email = input.email || undefined
  return deps.db.transaction().execute(async (trx) => {
    const league = await requireLeague(trx, caller, leagueId)
    const at = isoNow(deps.clock)
    const id = newId()
    const user = await users.upsertUserByExternalId(
      trx,
      {
        id,
        source: writeSource(caller),
        external_id: input.externalId,
        email: email ?? `official-${id}@placeholder.refdesk.invalid`,
        name: input.name ?? '',
        created_at: at,
        updated_at: at,
      },
      { ...(email !== undefined && { email }), ...(input.name !== undefined && { name: input.name }) },
    )
    if (user.id === league.organizer_id) fail('user_is_organizer')
    // A re-post without `level` keeps the stored one, as the other upserts keep what they omit.
    return enrolOfficial(trx, league.id, user, {
      status: input.status === 'pending' ? 'pending' : 'approved',
      level: input.level ?? null,
      setLevel: input.level !== undefined,
      at,
    })
  })
}

/**
 * Makes the user an official of the league with this status (and level, when `setLevel`), or updates their
 * membership: a new one emits `official.joined`, an existing one `official.approved`. The caller has ruled
 * out the league's organizer.
 */
export async function enrolOfficial(
  trx: Transaction<Db>,
  leagueId: string,
  user: UserRow,
  membership: { status: 'pending' | 'approved'; level: number | null; setLevel: boolean; at: string },
): Promise<Official> {
  const { status, level, setLevel, at } = membership
  const row = {
    id: newId(),
    league_id: leagueId,
    user_id: user.id,
    role: 'official' as const,
    status,
    created_at: at,
    updated_at: at,
    level,
    // Whoever adds a person, the membership waits for them to join (DESIGN "Consent").
    confirmed_at: null,
  }
  const stored = await memberships.upsertMembership(trx, row, setLevel)
  const official = toOfficial({
    ...stored,
    name: user.name,
    email: user.email,
    external_id: user.external_id,
    source: user.source,
  })
  const event = stored.id === row.id ? 'official.joined' : 'official.approved'
  await recordEvents(trx, [domainEvent(event, leagueId, { official })], at)
  return official
}

/**
 * Removes the membership. Every position the official holds in status `claimed` is released like an
 * unassign (reopened, or cancelled in a cancelled game); worked and no-show positions keep their claims.
 */
export async function removeOfficial(
  deps: Deps,
  caller: Caller,
  leagueId: string,
  userId: string,
): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const league = await requireLeague(trx, caller, leagueId)
    // Locked first, so no claim for this official can commit while we collect the claimed positions.
    const membership = await lockOfficial(trx, league.id, userId)
    await endMembership(trx, deps, membership, isoNow(deps.clock))
  })
}

/**
 * Ends a locked official membership: every position it holds in status `claimed` is released like an
 * unassign, the membership deleted, `official.removed` emitted. A partner's removal and a person's Leave.
 */
export async function endMembership(
  trx: Transaction<Db>,
  deps: Deps,
  membership: MembershipRow,
  at: string,
): Promise<void> {
  const { league_id: leagueId, user_id: userId } = membership
  const official = await readOfficial(trx, leagueId, userId)
  const reopenedPositionIds = (await releaseHeldPositions(trx, leagueId, userId, at, () => true)).map(
    (r) => r.positionId,
  )
  const released = reopenedPositionIds.map((positionId) => ({ positionId, userId }))
  await notifyReleased(trx, deps, at, released, 'unassigned')
  await memberships.deleteMembership(trx, membership.id)
  const removed = domainEvent('official.removed', leagueId, { official, reopenedPositionIds })
  await recordEvents(trx, [removed], at)
}

/**
 * In-app denial, by the console or the league's organizer: the membership becomes `denied`. Claims are kept
 * unless `releaseUpcoming` (the organizer's "Also release their upcoming games"): then each position they hold
 * in a game yet to start is released like an unassign (`position.released` each, the official mailed).
 * Denial itself emits no event.
 */
export async function denyOfficial(
  deps: Deps,
  caller: Caller,
  leagueId: string,
  userId: string,
  options: { releaseUpcoming?: boolean } = {},
): Promise<Official> {
  return deps.db.transaction().execute(async (trx) => {
    const league = await requireLeague(trx, caller, leagueId)
    const membership = await lockOfficial(trx, league.id, userId)
    const at = isoNow(deps.clock)
    await memberships.setMembershipStatus(trx, membership.id, 'denied', at)
    if (options.releaseUpcoming === true) await releaseUpcomingClaims(trx, deps, league.id, userId, at)
    return await readOfficial(trx, league.id, userId)
  })
}

/**
 * In-app approval of a pending (or denied) official: the membership becomes `approved` and, as when a
 * partner re-approves one, `official.approved` is emitted. Approving an approved official changes nothing
 * and emits nothing, so a repeated click never sends partners a second event.
 */
export async function approveOfficial(
  deps: Deps,
  caller: Caller,
  leagueId: string,
  userId: string,
): Promise<Official> {
  return deps.db.transaction().execute(async (trx) => {
    const league = await requireLeague(trx, caller, leagueId)
    const at = isoNow(deps.clock)
    const membership = await lockOfficial(trx, league.id, userId)
    if (membership.status !== 'approved') {
      await memberships.setMembershipStatus(trx, membership.id, 'approved', at)
    }
    const official = await readOfficial(trx, league.id, userId)
    if (membership.status !== 'approved') {
      await recordEvents(trx, [domainEvent('official.approved', league.id, { official })], at)
    }
    return official
  })
}

/** The official's membership in the league, locked for update; an organizer's is not an official's. */
export async function lockOfficial(trx: Transaction<Db>, leagueId: string, userId: string) {
  const membership =
    (await memberships.lockMembership(trx, leagueId, userId, 'update')) ?? fail('not_a_member')
  if (membership.role === 'organizer') fail('not_an_official')
  return membership
}

/** The league's official as the API shows them. */
export async function readOfficial(
  trx: Transaction<Db>,
  leagueId: string,
  userId: string,
): Promise<Official> {
  return toOfficial((await memberships.findOfficial(trx, leagueId, userId)) ?? fail('not_a_member'))
}
