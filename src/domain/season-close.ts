// Closing the season in the app: Complete selected. Each game is completed exactly as Complete completes it
// (its own `completeGame` transaction, its own `game.completed`), so one that cannot be completed is named
// with its reason while the others complete.
import * as games from '../store/games.js'
import { requireLeague } from './access.js'
import type { Caller } from './caller.js'
import type { Deps } from './deps.js'
import { ApiError, fail, type ErrorCode } from './errors.js'
import { completeGame } from './payments.js'

export interface CompletionOutcome {
  readonly completed: readonly string[]
  readonly refused: readonly { readonly gameId: string; readonly code: ErrorCode }[]
}

/** At most this many games in one Complete selected: a page of the games list. */
export const MAX_SELECTED = 50

/**
 * Every id must name a game of this league the caller organizes, checked before anything is completed: a
 * foreign id answers `game_not_found` and completes none, as a missing one does.
 */
export async function completeSelected(
  deps: Deps,
  caller: Caller,
  leagueId: string,
  gameIds: readonly string[],
): Promise<CompletionOutcome> {
  const league = await requireLeague(deps.db, caller, leagueId)
  const ids = [...new Set(gameIds)].slice(0, MAX_SELECTED)
  for (const id of ids) {
    if ((await games.findGame(deps.db, id))?.league_id !== league.id) fail('game_not_found')
  }
  const completed: string[] = []
  const refused: { gameId: string; code: ErrorCode }[] = []
  for (const id of ids) {
    try {
      await completeGame(deps, caller, id)
      completed.push(id)
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 409) throw error
      refused.push({ gameId: id, code: error.code })
    }
  }
  return { completed, refused }
}
