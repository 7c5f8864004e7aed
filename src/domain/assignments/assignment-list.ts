// The league's list of claimed positions (`GET /leagues/{id}/assignments`), read from one snapshot.
import type { Assignment } from '../../schemas/games.js'
import { gamePages, listRangeClaims, listRangePayments, type Snapshot } from '../../store/league-pages.js'
import { requireLeague } from '../core/access.js'
import type { Caller } from '../core/caller.js'
import type { Deps } from '../core/deps.js'
import { collectPages, fromSnapshot, whole, type Pages, type Streamed } from '../core/streamed.js'
import { toClaimOfficial, toGameSummary, toPayment, toPosition } from '../core/views.js'

/**
 * Every position holding a claim (claimed, completed, no-show cancelled), by game start: read from one
 * snapshot a page of games at a time (three short queries a page) and mapped page by page.
 */
export async function listAssignments(deps: Deps, caller: Caller, leagueId: string): Promise<Assignment[]> {
  return whole(await streamAssignments(deps, caller, leagueId), collectPages)
}

/** The league's assignments as pages read from one snapshot (league-pages.ts) while they are written. */
export function streamAssignments(
  deps: Deps,
  caller: Caller,
  leagueId: string,
): Promise<Streamed<Pages<Assignment>>> {
  return fromSnapshot(deps.db, async (snapshot) =>
    assignmentPages(snapshot, (await requireLeague(snapshot.db, caller, leagueId)).id),
  )
}

async function* assignmentPages(snapshot: Snapshot, leagueId: string): AsyncGenerator<Assignment[]> {
  for await (const { range } of gamePages(snapshot, leagueId)) {
    const rows = await listRangeClaims(snapshot.db, range)
    const paymentOf = new Map((await listRangePayments(snapshot.db, range)).map((p) => [p.position_id, p]))
    yield rows.map(({ game, position, claim }) => {
      const payment = paymentOf.get(position.id)
      const { id: positionId, ...fields } = toPosition(position)
      return {
        positionId,
        gameId: game.id,
        ...fields,
        game: toGameSummary(game),
        official: toClaimOfficial(claim),
        payment: payment ? toPayment(payment) : null,
      }
    })
  }
}
