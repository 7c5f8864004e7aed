// Assignments: claiming a position for an approved official (partner assign and in-app claim), releasing
// it (unassign, in-app withdrawal). The league's list of claimed positions is assignment-list.ts.
//
// Race safety, on both databases and across processes: the claim itself is a conditional
// `open → claimed` UPDATE (no row changed = lost the race = position_taken), backed by the unique claim
// per position. Every change to a game's positions first locks them (`lockGames`), so the game status
// rollup never reads half-done work of a concurrent writer, and a claim first share-locks the official's
// membership, so a removal or denial and a claim of the same official serialize.
import type { Kysely, Transaction } from 'kysely'
import type { AssignInput, GameDetail } from '../../schemas/games.js'
import * as claims from '../../store/claims.js'
import { isUniqueViolation } from '../../store/errors.js'
import * as games from '../../store/games.js'
import * as leagues from '../../store/leagues.js'
import * as memberships from '../../store/memberships.js'
import * as positions from '../../store/positions.js'
import * as turnbacks from '../../store/turnbacks.js'
import type { ClaimWithUser } from '../../store/positions.js'
import type { Db, GameRow, PositionRow, UserRow } from '../../store/tables.js'
import * as users from '../../store/users.js'
import { isoNow, newId } from '../../clock.js'
import { requireGame } from '../core/access.js'
import {
  checkSource,
  writeSource,
  type Caller,
  type ConsoleCaller,
  type PartnerCaller,
  type PersonCaller,
} from '../core/caller.js'
import type { Deps } from '../core/deps.js'
import { ApiError, fail } from '../core/errors.js'
import { meetsLevel, refusalFor, type Taking } from '../availability/conflicts.js'
import { domainEvent, recordEvents } from '../core/events.js'
import { lockGame } from '../games/game-locks.js'
import { notifyReleased, notifyTaken, type NotifyDeps } from '../notifications/notifications.js'
import { refreshGameStatus } from '../games/game-status.js'
import { loadGameDetail, toClaimOfficial } from '../core/views.js'

/**
 * Claims a position of the game for an approved official of its league: the given one, else the first
 * open one. The partner `POST /games/{gameId}/assign` and `refdesk app claim` land here.
 */
export async function assignPosition(
  deps: Deps,
  caller: Caller,
  gameId: string,
  input: AssignInput,
): Promise<GameDetail> {
  const ref = officialRef(caller, input)
  if (deps.dialect === 'sqlite' && caller.kind === 'partner' && 'userId' in ref) {
    await refuseLostClaim(deps.db, caller, gameId, ref.userId, input.positionId)
  }
  return deps.db.transaction().execute(async (trx) => {
    const { league_id: leagueId } = await requireGame(trx, caller, gameId)
    const user = (await findOfficialUser(trx, caller, leagueId, ref)) ?? fail('official_not_found')
    // `refdesk app claim` is the console acting for the official; a person here is the league's organizer.
    const by = caller.kind === 'partner' ? 'partner' : caller.kind === 'console' ? 'official' : 'organizer'
    const inApp = caller.kind === 'console'
    const claim = { leagueId, gameId, positionId: input.positionId, user, by, inApp } as const
    return claimFor(trx, deps, claim, isoNow(deps.clock))
  })
}

/**
 * A claim that cannot win is refused from the committed state, before any transaction: in a storm of
 * officials on one position the losers cost one read instead of a write transaction queued behind the
 * winner's. It refuses only what the transaction would refuse at the instant of the read (the same
 * `pickPosition`, reached only when the game is in scope and the user an approved official of its league);
 * anything else is decided in the transaction, which checks everything again. SQLite only: there every
 * transaction holds the one connection, while on PostgreSQL a loser waits on the crew's rows alone, and a
 * storm's reads all run before the winner commits (measured: 49 of 2,050 refused), so the read would only
 * add a round trip to every assign.
 */
async function refuseLostClaim(
  db: Kysely<Db>,
  caller: PartnerCaller,
  gameId: string,
  userId: string,
  positionId: string | undefined,
): Promise<void> {
  const sight = await positions.findClaimSight(db, caller, gameId, userId)
  if (sight) pickPosition(sight.positions, positionId, sight.level)
}

/**
 * The organizer's assign: in the app (the league's organizer) and `refdesk app assign` (the console). The
 * official is told (`assigned` mail, not their own claim); `force` is "Assign anyway": the rules about the
 * person's time give way, `level_too_low` never does. Like a partner's assign it may record who works a game
 * that has started (a substitute on the day): the organizer answers for their own league (docs/decisions.md).
 */
export async function assignOfficial(
  deps: Deps,
  caller: ConsoleCaller | PersonCaller,
  gameId: string,
  input: { userId: string; positionId?: string | undefined; force?: boolean | undefined },
): Promise<GameDetail> {
  return deps.db.transaction().execute(async (trx) => {
    const { league_id: leagueId } = await requireGame(trx, caller, gameId)
    // Anyone who is not an official of this league reads as unknown: no user of another league leaks.
    const membership = await memberships.findMembership(trx, leagueId, input.userId)
    if (membership?.role !== 'official') fail('official_not_found')
    const user = (await users.findUser(trx, input.userId)) ?? fail('official_not_found')
    const claim = {
      leagueId,
      gameId,
      positionId: input.positionId,
      user,
      by: 'organizer',
      inApp: false,
      byThemselves: false,
      force: input.force ?? false,
    } as const
    return claimFor(trx, deps, claim, isoNow(deps.clock))
  })
}

/**
 * The person's own claim in the app, for their user row that is an approved official of the game's league.
 * A game of any other league answers `game_not_found`, exactly like a game that does not exist.
 */
export async function claimPosition(
  deps: Deps,
  person: PersonCaller,
  input: { gameId: string; positionId: string },
): Promise<GameDetail> {
  try {
    return await deps.db.transaction().execute(async (trx) => {
      const { league_id: leagueId } = await requireGame(trx, person, input.gameId, 'officiate')
      // Gone only when a denial committed since the check above (PostgreSQL reads each statement afresh).
      const userId =
        (await memberships.findApprovedOfficial(trx, leagueId, person.userIds)) ??
        fail('not_a_league_official')
      const user = (await users.findUser(trx, userId)) ?? fail('not_a_league_official')
      return claimFor(
        trx,
        deps,
        { leagueId, ...input, user, by: 'official', inApp: true },
        isoNow(deps.clock),
      )
    })
  } catch (error) {
    // Read after the loss: the claim that won has committed, so a second tap of Claim finds the first one.
    if (error instanceof ApiError && error.code === 'position_taken') {
      const winner = await claims.findClaim(deps.db, input.positionId)
      if (winner && person.userIds.includes(winner.user_id)) fail('position_already_yours')
    }
    throw error
  }
}

/**
 * The claim itself. The membership is share-locked and checked again, so a removal or denial racing the
 * claim either lands before it (refused) or waits for it. An in-app claim (the app, `refdesk app claim`) of
 * a game that has started is refused under the game's lock, as a withdrawal is: a claimed past game could
 * be completed and paid. The partner's assign keeps the spec's rules (a partner may record who worked).
 * A published plan's proposals land here too. The conflict rules (`refusalFor`) see the chosen position
 * under the game's lock.
 */
export async function claimFor(
  trx: Transaction<Db>,
  deps: NotifyDeps,
  /** `inApp`: a claim made in the app or `refdesk app claim` (a game that has started is refused). */
  claim: {
    leagueId: string
    gameId: string
    positionId: string | undefined
    user: UserRow
    /** Who gives the position (conflicts.ts); a published plan's proposal is the organizer's. */
    by?: Taking['by']
    inApp: boolean
    /** Whether the official took it themselves (no `assigned` mail); default `inApp`. */
    byThemselves?: boolean
    /** The organizer's "Assign anyway" (conflicts.ts). */
    force?: boolean
  },
  at: string,
): Promise<GameDetail> {
  const { leagueId, user } = claim
  // The official's own claim is their consent to the league (DESIGN "Consent"): judged, and kept, as
  // joined. It writes the membership, so it locks it for update (two claims of theirs queue here).
  const ownClaim = claim.by === 'official'
  const membership = await memberships.lockMembership(trx, leagueId, user.id, ownClaim ? 'update' : 'share')
  if (membership?.role !== 'official' || membership.status !== 'approved') fail('not_a_league_official')
  if (ownClaim && membership.confirmed_at === null)
    await memberships.confirmMemberships(trx, [membership.id], at)
  // The position is picked as soon as the crew is locked: a claim that cannot win stops after one more
  // read (its game's status), so the losers of a storm on one position hold the game's lock briefly.
  const gamePositions = await positions.lockPositions(trx, [claim.gameId])
  const picked = pickPosition(gamePositions, claim.positionId, membership.level)
  // Read after the lock: a concurrent move or cancel has settled.
  const game = (await games.findGame(trx, claim.gameId)) ?? fail('game_not_found')
  // A cancelled game keeps its claims but takes none: no race to lose, no other slot to pick.
  if (picked === 'taken') fail(game.status !== 'cancelled' ? 'position_taken' : takenInCancelled(claim))
  const position = picked
  if (claim.inApp && game.starts_at <= at) fail('game_started')
  const league = (await leagues.findLeague(trx, leagueId)) ?? fail('game_not_found')
  const by = claim.by ?? 'organizer'
  const refusal = await refusalFor(trx, {
    league,
    game,
    position,
    userId: user.id,
    by,
    force: claim.force ?? false,
  })
  if (refusal) fail(refusal)
  if (!(await positions.claimIfOpen(trx, position.id, at))) fail('position_taken')
  try {
    await claims.insertClaim(trx, {
      id: newId(),
      position_id: position.id,
      user_id: user.id,
      status: 'confirmed',
      created_at: at,
    })
  } catch (error) {
    if (isUniqueViolation(error)) fail('position_taken')
    throw error
  }
  const detail = await loadGameDetail(trx, await refreshGameStatus(trx, game, at))
  const official = toClaimOfficial({ user })
  await recordEvents(
    trx,
    [domainEvent('position.claimed', leagueId, { game: detail, positionId: position.id, official })],
    at,
  )
  await notifyTaken(trx, deps, at, {
    positionId: position.id,
    userId: user.id,
    byThemselves: claim.byThemselves ?? claim.inApp,
  })
  return detail
}

/** Partner unassign: the claim is deleted and the position reopened; emits `position.released`. */
export async function unassignPosition(
  deps: Deps,
  caller: Caller,
  gameId: string,
  positionId: string,
): Promise<GameDetail> {
  return deps.db.transaction().execute(async (trx) => {
    await requireGame(trx, caller, gameId)
    const { game, positions: gamePositions } = await lockGame(trx, gameId)
    if (!gamePositions.some((p) => p.id === positionId)) fail('position_not_found')
    const at = isoNow(deps.clock)
    const claim = await releaseClaim(trx, game, positionId, at)
    const detail = await loadGameDetail(trx, await refreshGameStatus(trx, game, at))
    const official = toClaimOfficial(claim)
    await recordEvents(
      trx,
      [domainEvent('position.released', game.league_id, { game: detail, positionId, official })],
      at,
    )
    await notifyReleased(trx, deps, at, [{ positionId, userId: claim.user_id }], 'unassigned')
    return detail
  })
}

/**
 * In-app withdrawal: like unassign, with RefDesk's own event `position.withdrawn` (the spec names none; DESIGN.md,
 * "Notifications"), so partners hear a turnback as the organizer does. The console withdraws any claim; a
 * person only their own, from a game that has not started, checked under the game's lock so the claim
 * cannot change hands between the check and the release.
 */
export async function withdrawClaim(
  deps: Deps,
  caller: ConsoleCaller | PersonCaller,
  positionId: string,
): Promise<GameDetail> {
  return deps.db.transaction().execute(async (trx) => {
    const position = (await positions.findPosition(trx, positionId)) ?? fail('position_not_found')
    const { game } = await lockGame(trx, position.game_id)
    const at = isoNow(deps.clock)
    if (caller.kind === 'person') {
      // Someone else's claim answers like a position that does not exist: no leak across officials.
      const claim = await claims.findClaim(trx, positionId)
      if (!claim || !caller.userIds.includes(claim.user_id)) fail('position_not_found')
      if (game.starts_at <= at) fail('game_started')
    }
    const claim = await releaseClaim(trx, game, positionId, at)
    const turnback = { id: newId(), game_id: game.id, user_id: claim.user_id, created_at: at }
    await turnbacks.insertTurnback(trx, { ...turnback, kind: 'withdrew' })
    const detail = await loadGameDetail(trx, await refreshGameStatus(trx, game, at))
    const official = toClaimOfficial(claim)
    await recordEvents(
      trx,
      [domainEvent('position.withdrawn', game.league_id, { game: detail, positionId, official })],
      at,
    )
    // The official gave the game back: the league's organizer hears it.
    await notifyReleased(trx, deps, at, [{ positionId, userId: claim.user_id }], 'turnback')
    return detail
  })
}

/**
 * claimed → open and the claim deleted. In a cancelled game the position becomes `cancelled` instead: a
 * cancelled game never has an open position, so nobody can be assigned to it afterwards. The caller
 * holds the game's lock and refreshes its status.
 */
export async function releaseClaim(
  trx: Transaction<Db>,
  game: GameRow,
  positionId: string,
  at: string,
): Promise<ClaimWithUser> {
  const claim = await claims.findClaim(trx, positionId)
  const to = game.status === 'cancelled' ? 'cancelled' : 'open'
  if (!claim || !(await positions.releaseIfClaimed(trx, positionId, to, at))) fail('position_not_claimed')
  await claims.deleteClaim(trx, positionId)
  return claim
}

type OfficialRef = { userId: string } | { source: string; externalId: string }

/** By `userId` (precedence), or by `externalId` in the caller's own source. */
function officialRef(caller: Caller, input: AssignInput): OfficialRef {
  checkSource(caller, input.source)
  if (input.userId !== undefined) return { userId: input.userId }
  if (input.externalId !== undefined) return { source: writeSource(caller), externalId: input.externalId }
  fail('externalId_required')
}

/** A user id of another source that is not a member of this league answers like an unknown one: no leak. */
async function findOfficialUser(
  db: Kysely<Db>,
  caller: Caller,
  leagueId: string,
  ref: OfficialRef,
): Promise<UserRow | undefined> {
  if (!('userId' in ref)) return users.findUserByExternalId(db, ref.source, ref.externalId)
  const user = await users.findUser(db, ref.userId)
  if (!user || caller.kind !== 'partner' || user.source === caller.source) return user
  return (await memberships.findMembership(db, leagueId, user.id)) ? user : undefined
}

/**
 * The position to claim, or `taken` when the one named, or every one not cancelled, is claimed (a lost
 * race, unless the game is cancelled: the caller reads the game to tell). Cancelling a game cancels its
 * open positions, so a cancelled game has none open. Without a positionId, the first open one the
 * official's level allows, else the first open one (which the level rule then refuses).
 */
function pickPosition(
  list: readonly PositionRow[],
  positionId: string | undefined,
  level: number | null,
): PositionRow | 'taken' {
  const isOpen = (p: PositionRow) => p.status === 'open'
  if (positionId !== undefined) {
    const position = list.find((p) => p.id === positionId) ?? fail('position_not_found')
    if (!isOpen(position)) return position.status === 'claimed' ? 'taken' : fail('position_not_open')
    return position
  }
  return (
    list.find((p) => isOpen(p) && meetsLevel(level, p.min_level)) ??
    list.find(isOpen) ??
    (list.some((p) => p.status === 'claimed') ? 'taken' : fail('no_open_position'))
  )
}

/** A kept claim of a cancelled game: the named position is not open; the game has no open one. */
const takenInCancelled = (claim: { positionId: string | undefined }) =>
  claim.positionId === undefined ? 'no_open_position' : 'position_not_open'
