// Releasing an official's upcoming games at once (the organizer's Deny with "Also release their upcoming
// games"): each claimed position of a game yet to start goes back to open like an unassign, with its
// `position.released` event and the official's `unassigned` mail. Games under way or past keep their claims:
// those are records of who worked. A removal from the league (officials.ts) releases every held position
// through the same `releaseHeldPositions`, under its own `official.removed` event.
import type { Transaction } from 'kysely'
import * as claims from '../../store/claims.js'
import type { ClaimWithUser } from '../../store/positions.js'
import type { Db, GameRow } from '../../store/tables.js'
import { releaseClaim } from './assignments.js'
import { domainEvent, recordEvents, type DomainEvent } from '../core/events.js'
import { lockGames } from '../games/game-locks.js'
import { refreshGameStatus } from '../games/game-status.js'
import { notifyReleased, type NotifyDeps } from '../notifications/notifications.js'
import { groupBy, loadGameDetail, toClaimOfficial } from '../core/views.js'

/** A position given back by `releaseHeldPositions`: its released claim and its game as it stands after. */
interface ReleasedPosition {
  positionId: string
  claim: ClaimWithUser
  game: GameRow
}

/**
 * Releases, as an unassign does, every position the official holds in the league's games that `inGame`
 * keeps, each game's status refreshed; answers them in the order held. The caller holds the official's
 * membership lock, so no new claim of theirs commits meanwhile.
 */
export async function releaseHeldPositions(
  trx: Transaction<Db>,
  leagueId: string,
  userId: string,
  at: string,
  inGame: (game: GameRow) => boolean,
): Promise<ReleasedPosition[]> {
  const held = await claims.listClaimedPositions(trx, leagueId, userId)
  const locked = await lockGames(trx, [...new Set(held.map((p) => p.game_id))])
  // Read again under the locks: an unassign may have released one of them while we waited.
  const stillHeld = await claims.listClaimedPositions(trx, leagueId, userId)
  const released = new Map<string, ReleasedPosition>()
  for (const game of locked.games.filter(inGame)) {
    const mine = stillHeld.filter((p) => p.game_id === game.id)
    if (mine.length === 0) continue
    const freed: ClaimWithUser[] = []
    for (const position of mine) freed.push(await releaseClaim(trx, game, position.id, at))
    const after = await refreshGameStatus(trx, game, at)
    mine.forEach((p, i) => released.set(p.id, { positionId: p.id, claim: freed[i]!, game: after }))
  }
  return stillHeld.flatMap((p) => released.get(p.id) ?? [])
}

/** The official's positions in games yet to start, each with its `position.released` and `unassigned` mail. */
export async function releaseUpcomingClaims(
  trx: Transaction<Db>,
  deps: NotifyDeps,
  leagueId: string,
  userId: string,
  at: string,
): Promise<string[]> {
  const released = await releaseHeldPositions(trx, leagueId, userId, at, (g) => g.starts_at > at)
  const events: DomainEvent[] = []
  for (const positions of groupBy(released, (r) => r.game.id).values()) {
    const detail = await loadGameDetail(trx, positions[0]!.game)
    for (const { positionId, claim } of positions)
      events.push(
        domainEvent('position.released', leagueId, {
          game: detail,
          positionId,
          official: toClaimOfficial(claim),
        }),
      )
  }
  await recordEvents(trx, events, at)
  if (released.length === 0) return []
  await notifyReleased(
    trx,
    deps,
    at,
    released.map(({ positionId }) => ({ positionId, userId })),
    'unassigned',
  )
  return released.map(({ positionId }) => positionId)
}
