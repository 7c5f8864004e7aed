// Games without their own length last their league's gameMinutes: when it changes, their ends move, and
// partners and holders hear of each such game as they would of a PATCH of its length.
import type { Transaction } from 'kysely'
import * as games from '../../store/games.js'
import type { Db, GameRow } from '../../store/tables.js'
import { domainEvent, recordEvents } from '../core/events.js'
import { loadGames } from '../core/views.js'
import { notifyChanged, type NotifyDeps } from '../notifications/notifications.js'

/**
 * Games per round trip: a league of thousands of games is rewritten, told and mailed a page at a time, so
 * no statement, event batch or mail batch grows with the league (each page is a few short statements).
 */
const PAGE = 500

/**
 * Moves the ends of the league's games without their own length to `minutes` after their starts, inside
 * the caller's transaction: one `game.updated` per game (the Game, as PATCH emits it), and a `changed`
 * mail to the holders of each upcoming game that is not cancelled. Games already started or cancelled
 * get the event (their record changed) but no mail: nobody needs news of a played or called-off game's
 * length.
 */
export async function followLeagueLength(
  trx: Transaction<Db>,
  deps: NotifyDeps,
  leagueId: string,
  minutes: number,
  at: string,
  page = PAGE,
): Promise<void> {
  for (let afterSeq = 0; ;) {
    const { before, after } = await games.rewriteDefaultEndsPage(trx, {
      leagueId,
      minutes,
      afterSeq,
      limit: page,
      at,
    })
    if (before.length === 0) return
    const updated = await loadGames(trx, after)
    await recordEvents(
      trx,
      updated.map((game) => domainEvent('game.updated', leagueId, game)),
      at,
    )
    await notifyChanged(trx, deps, at, before.filter((g) => mailed(g, at)).map(asBefore))
    if (before.length < page) return
    afterSeq = before[before.length - 1]!.seq
  }
}

const mailed = (game: GameRow, at: string): boolean => game.status !== 'cancelled' && game.starts_at > at

const asBefore = (game: GameRow) => ({
  gameId: game.id,
  startsAt: game.starts_at,
  endsAt: game.ends_at,
  location: game.location,
})
