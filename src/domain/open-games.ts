// Open games an official can claim: open positions of open, upcoming games in the leagues they officiate,
// soonest first. The claim itself is `claimPosition` (assignments.ts): the partner assign's rules, race
// safety and `position.claimed` event.
import { isoNow } from '../clock.js'
import * as officialGames from '../store/official-games.js'
import { scopeOf } from './access.js'
import type { PersonCaller } from './caller.js'
import type { Deps } from './deps.js'

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
  person: PersonCaller,
  page = 1,
): Promise<{ games: OpenGame[]; more: boolean }> {
  const scope = scopeOf(person, 'officiate')
  const rows = await officialGames.listOpenPositions(deps.db, scope, isoNow(deps.clock), {
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
