// The organizer's games view in the app: a league's games a page at a time with their positions, filtered by
// status, upcoming or past, and days of the organizer's time zone; one game as its confirmation pages show it,
// with what Complete and No-show would do.
import type { NotificationPayload } from '../../schemas/notifications.js'
import * as notifications from '../../store/notifications.js'
import * as organizer from '../../store/organizer.js'
import type { PositionLineRow } from '../../store/organizer.js'
import type { GameRow, GameStatus, PaymentMode, PaymentStatus } from '../../store/tables.js'
import { isoNow } from '../../clock.js'
import { requireGame, requirePosition } from '../core/access.js'
import type { Caller } from '../core/caller.js'
import { dayStart, nextDay } from '../../time.js'
import type { Deps } from '../core/deps.js'
import { requireOrganizedLeague, type OrganizedLeague } from './organize.js'
import { canComplete, canRecordNoShow, noShowKeepsPayment } from '../payments/payments.js'
import { groupBy } from '../core/views.js'

export const GAMES_PAGE_SIZE = 50

export interface PositionLine {
  readonly id: string
  readonly label: string
  readonly payCents: number
  readonly status: GameStatus
  readonly official: { readonly id: string; readonly name: string; readonly email: string } | null
  readonly payment: {
    readonly id: string
    readonly status: PaymentStatus
    readonly mode: PaymentMode
    readonly amountCents: number
  } | null
  /** A worked position of a completed game: a no-show can be recorded. */
  readonly noShowable: boolean
  /** Open because its official withdrew (and nothing since): who, and when. */
  readonly turnedBack: { readonly name: string; readonly at: string } | null
}

export interface LeagueGame {
  readonly id: string
  readonly startsAt: string
  readonly sport: string
  readonly location: string
  readonly status: GameStatus
  /** It has started (by the services' clock): a game is completed only then. */
  readonly started: boolean
  /** Fully claimed and started: Complete will complete it. */
  readonly completable: boolean
  readonly positions: readonly PositionLine[]
}

export interface GameQuery {
  readonly status?: GameStatus | undefined
  readonly when?: 'upcoming' | 'past' | 'all' | undefined
  /** Days `YYYY-MM-DD` in the league's time zone, both included. */
  readonly from?: string | undefined
  readonly to?: string | undefined
  readonly page?: number | undefined
}

/** One page of the league's games with their positions: two queries whatever the league's size. */
export async function listLeagueGames(
  deps: Deps,
  organizerOf: Caller,
  leagueId: string,
  query: GameQuery,
): Promise<{ league: OrganizedLeague; games: LeagueGame[]; more: boolean }> {
  const league = await requireOrganizedLeague(deps.db, organizerOf, leagueId)
  const page = query.page ?? 1
  // The date filters' days are the league's, as its pages show its times.
  const { timeZone } = league
  const at = isoNow(deps.clock)
  const rows = await organizer.listLeagueGamesPage(
    deps.db,
    league.id,
    {
      status: query.status,
      when: query.when ?? 'all',
      at,
      from: query.from === undefined ? undefined : dayStart(query.from, timeZone),
      to: query.to === undefined ? undefined : dayStart(nextDay(query.to), timeZone),
    },
    { limit: GAMES_PAGE_SIZE + 1, offset: (page - 1) * GAMES_PAGE_SIZE },
  )
  const shown = rows.slice(0, GAMES_PAGE_SIZE)
  const lines = await organizer.listPositionLines(
    deps.db,
    shown.map((g) => g.id),
  )
  const byGame = groupBy(lines, (p) => p.game_id)
  const turnbacks = await turnbacksOf(deps, lines)
  return {
    league,
    games: shown.map((g) => toLeagueGame(g, byGame.get(g.id) ?? [], turnbacks, at)),
    more: rows.length > GAMES_PAGE_SIZE,
  }
}

/** One game of an organized league (by its id or one of its positions'), as its confirmation pages show it. */
export async function findLeagueGame(
  deps: Deps,
  organizerOf: Caller,
  ref: { gameId: string } | { positionId: string },
): Promise<{ league: OrganizedLeague; game: LeagueGame }> {
  const gameId =
    'gameId' in ref ? ref.gameId : (await requirePosition(deps.db, organizerOf, ref.positionId)).game_id
  const game = await requireGame(deps.db, organizerOf, gameId)
  const league = await requireOrganizedLeague(deps.db, organizerOf, game.league_id)
  const lines = await organizer.listPositionLines(deps.db, [game.id])
  return { league, game: toLeagueGame(game, lines, await turnbacksOf(deps, lines), isoNow(deps.clock)) }
}

type Turnbacks = ReadonlyMap<string, NonNullable<PositionLine['turnedBack']>>

/**
 * The open positions whose last change was their official's withdrawal: the organizer's `turnback`
 * notification of it was written at the same instant as the position's reopening.
 */
async function turnbacksOf(deps: Deps, lines: readonly PositionLineRow[]): Promise<Turnbacks> {
  const open = new Map(lines.filter((l) => l.status === 'open').map((l) => [l.id, l.updated_at]))
  const found = new Map<string, NonNullable<PositionLine['turnedBack']>>()
  for (const row of await notifications.listTurnbacks(deps.db, [...open.keys()])) {
    if (row.created_at !== open.get(row.position_id)) continue
    const { official } = JSON.parse(row.payload) as NotificationPayload
    found.set(row.position_id, {
      name: official?.name || official?.email || 'An official',
      at: row.created_at,
    })
  }
  return found
}

function toLeagueGame(
  row: GameRow,
  lines: readonly PositionLineRow[],
  turnbacks: Turnbacks,
  at: string,
): LeagueGame {
  return {
    id: row.id,
    startsAt: row.starts_at,
    sport: row.sport,
    location: row.location,
    status: row.status,
    started: row.starts_at <= at,
    completable: canComplete(row, at),
    positions: lines.map((p) => toPositionLine(p, row.status, turnbacks.get(p.id) ?? null)),
  }
}

function toPositionLine(
  row: PositionLineRow,
  gameStatus: GameStatus,
  turnedBack: PositionLine['turnedBack'],
): PositionLine {
  return {
    id: row.id,
    label: row.label,
    payCents: row.pay_cents,
    status: row.status,
    official:
      row.official_id === null
        ? null
        : { id: row.official_id, name: row.official_name ?? '', email: row.official_email ?? '' },
    payment:
      row.payment_id === null || row.payment_status === null || row.payment_mode === null
        ? null
        : {
            id: row.payment_id,
            status: row.payment_status,
            mode: row.payment_mode,
            amountCents: row.payment_cents ?? 0,
          },
    noShowable: canRecordNoShow(gameStatus, row.status, row.official_id !== null),
    turnedBack,
  }
}

export type CompletionBlocker = 'already_completed' | 'cancelled' | 'open_positions' | 'not_started'

/**
 * Why a game cannot be completed, or undefined when it can: only a fully claimed game that has started
 * completes. The state comes first, as the service answers it.
 */
export function completionBlocker(game: LeagueGame): CompletionBlocker | undefined {
  if (game.completable) return undefined
  if (game.status === 'completed') return 'already_completed'
  if (game.status === 'cancelled') return 'cancelled'
  if (game.status !== 'claimed') return 'open_positions'
  return 'not_started'
}

/** What a no-show does to the position's payment: none to touch, kept (money moving or moved), or removed. */
export function noShowPaymentEffect(line: PositionLine): 'none' | 'kept' | 'removed' {
  if (!line.payment) return 'none'
  return noShowKeepsPayment(line.payment.status) ? 'kept' : 'removed'
}
