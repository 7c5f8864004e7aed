// The organizer's game page in the app: one game of a league they organize with what its actions need (the
// league's approved officials to assign, the start as the league's clocks show it for Edit), and the Edit
// form's wall time read back in the league's time zone. The actions themselves are the REST operations'
// services (assignments.ts, games.ts, crews.ts).
import type { GameDetail } from '../../schemas/games.js'
import type { Official } from '../../schemas/officials.js'
import * as leagues from '../../store/leagues.js'
import * as memberships from '../../store/memberships.js'
import { isoNow } from '../../clock.js'
import { requireGame } from '../core/access.js'
import type { Caller } from '../core/caller.js'
import { wallTimeAt } from '../../time.js'
import type { Deps } from '../core/deps.js'
import { fail } from '../core/errors.js'
import { getGame } from '../games/games.js'
import { canComplete } from '../payments/payments.js'
import type { OrganizedLeague } from './organize.js'
import { toOfficial } from '../core/views.js'

export interface GameDesk {
  readonly league: OrganizedLeague & { readonly timeZone: string }
  readonly game: GameDetail
  readonly started: boolean
  readonly completable: boolean
  /** The start as the league's clocks show it (`YYYY-MM-DDTHH:MM`), for the Edit form. */
  readonly localStart: string
  /** Approved officials of the league, by name: whom Assign offers. */
  readonly officials: readonly Official[]
}

export async function findGameDesk(deps: Deps, caller: Caller, gameId: string): Promise<GameDesk> {
  const row = await requireGame(deps.db, caller, gameId)
  const [league, game, officials] = await Promise.all([
    leagues.findLeague(deps.db, row.league_id),
    getGame(deps, caller, gameId),
    memberships.listOfficials(deps.db, row.league_id),
  ])
  if (!league) fail('game_not_found')
  const at = isoNow(deps.clock)
  return {
    league: {
      id: league.id,
      name: league.name,
      paymentMode: league.payment_mode,
      currency: league.currency,
      timeZone: league.time_zone,
    },
    game,
    started: row.starts_at <= at,
    completable: canComplete(row, at),
    localStart: wallTimeAt(Date.parse(row.starts_at), league.time_zone),
    officials: officials
      .filter((o) => o.status === 'approved')
      .map(toOfficial)
      .sort((a, b) => (a.name || a.email).localeCompare(b.name || b.email)),
  }
}
