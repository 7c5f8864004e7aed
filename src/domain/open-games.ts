// Open games an official can claim: open positions of open, upcoming games in leagues where they are an
// approved official, soonest first. A claim is the partner assign's service (`assignPosition`), as
// `refdesk app claim` runs it: same rules, same race safety, same `position.claimed` event.
import * as officialGames from '../store/official-games.js'
import { assignPosition } from './assignments.js'
import { APP_CALLER } from './caller.js'
import type { Deps } from './deps.js'
import { fail } from './errors.js'
import type { Person } from './sessions.js'

export interface OpenGame {
  readonly positionId: string
  readonly label: string
  readonly payCents: number
  readonly currency: string
  readonly gameId: string
  readonly startsAt: string
  readonly sport: string
  readonly location: string
  readonly leagueId: string
  readonly leagueName: string
}

export const OPEN_PAGE_SIZE = 50

export async function listOpenGames(
  deps: Deps,
  person: Person,
  now: Date,
  page = 1,
): Promise<{ games: OpenGame[]; more: boolean }> {
  const rows = await officialGames.listOpenPositions(deps.db, person.userIds, now.toISOString(), {
    limit: OPEN_PAGE_SIZE + 1,
    offset: (page - 1) * OPEN_PAGE_SIZE,
  })
  const games = rows.slice(0, OPEN_PAGE_SIZE).map((row) => ({
    positionId: row.position_id,
    label: row.label,
    payCents: row.pay_cents,
    currency: row.currency,
    gameId: row.game_id,
    startsAt: row.starts_at,
    sport: row.sport,
    location: row.location,
    leagueId: row.league_id,
    leagueName: row.league_name,
  }))
  return { games, more: rows.length > OPEN_PAGE_SIZE }
}

/**
 * Claims the position for the person's user row that is an approved official of the game's league. A game
 * of any other league answers `game_not_found`, exactly like a game that does not exist; the membership is
 * checked again under lock by `assignPosition`, so a denial racing the claim still wins or loses cleanly.
 */
export async function claimOpenGame(
  deps: Deps,
  person: Person,
  input: { gameId: string; positionId: string },
): Promise<void> {
  const userId =
    (await officialGames.findApprovedOfficialForGame(deps.db, person.userIds, input.gameId)) ??
    fail('game_not_found')
  await assignPosition(deps, APP_CALLER, input.gameId, { userId, positionId: input.positionId })
}
