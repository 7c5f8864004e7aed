// Releasing an official's upcoming games at once (the organizer's Deny with "Also release their upcoming
// games"): each claimed position of a game yet to start goes back to open like an unassign, with its
// `position.released` event and the official's `unassigned` mail. Games under way or past keep their claims:
// those are records of who worked.
import type { Transaction } from 'kysely'
import * as claims from '../store/claims.js'
import type { Db } from '../store/tables.js'
import { releaseClaim } from './assignments.js'
import { domainEvent, recordEvents, type DomainEvent } from './events.js'
import { lockGames } from './game-locks.js'
import { refreshGameStatus } from './game-status.js'
import { notifyReleased, type NotifyDeps } from './notifications.js'
import { loadGameDetail, toClaimOfficial } from './views.js'

/** The caller holds the official's membership lock, so no new claim of theirs commits meanwhile. */
export async function releaseUpcomingClaims(
  trx: Transaction<Db>,
  deps: NotifyDeps,
  leagueId: string,
  userId: string,
  at: string,
): Promise<string[]> {
  const held = await claims.listClaimedPositions(trx, leagueId, userId)
  const locked = await lockGames(trx, [...new Set(held.map((p) => p.game_id))])
  // Read again under the locks: an unassign may have released one of them while we waited.
  const stillHeld = await claims.listClaimedPositions(trx, leagueId, userId)
  const events: DomainEvent[] = []
  const released: string[] = []
  for (const game of locked.games.filter((g) => g.starts_at > at)) {
    const mine = stillHeld.filter((p) => p.game_id === game.id)
    if (mine.length === 0) continue
    const freed = []
    for (const position of mine)
      freed.push({ positionId: position.id, claim: await releaseClaim(trx, game, position.id, at) })
    const detail = await loadGameDetail(trx, await refreshGameStatus(trx, game, at))
    for (const { positionId, claim } of freed) {
      events.push(
        domainEvent('position.released', leagueId, {
          game: detail,
          positionId,
          official: toClaimOfficial(claim),
        }),
      )
      released.push(positionId)
    }
  }
  await recordEvents(trx, events, at)
  if (released.length === 0) return released
  await notifyReleased(
    trx,
    deps,
    at,
    released.map((positionId) => ({ positionId, userId })),
    'unassigned',
  )
  return released
}
