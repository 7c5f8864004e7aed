// An official's schedule: the positions they hold across all their leagues, upcoming first (soonest first),
// then past ones (latest first, a page at a time). Withdrawal is `withdrawClaim` (assignments.ts).
import type { GameStatus, PositionStatus } from '../../store/tables.js'
import * as officialGames from '../../store/official-games.js'
import type { HeldPositionRow } from '../../store/official-games.js'
import * as notifications from '../../store/notifications.js'
import type { NotificationPayload } from '../../schemas/notifications.js'
import { isoNow } from '../../clock.js'
import { minutesBetween } from '../../time.js'
import type { PersonCaller } from '../core/caller.js'
import type { Deps } from '../core/deps.js'
import { fail } from '../core/errors.js'

export interface HeldGame {
  readonly positionId: string
  readonly label: string
  readonly payCents: number
  readonly currency: string
  readonly positionStatus: PositionStatus
  readonly gameId: string
  readonly gameStatus: GameStatus
  readonly startsAt: string
  readonly endsAt: string
  readonly sport: string
  readonly location: string
  readonly leagueId: string
  readonly leagueName: string
  /** Upcoming, still claimed, in a game that is not cancelled. */
  readonly withdrawable: boolean
  /** Upcoming games only: what differs from when the holder took the position, with what it was. */
  readonly changes: readonly HeldChange[]
}

/** "Time changed" (the start or the length), "Place changed". */
export type HeldChange =
  | { readonly what: 'time'; readonly wasStartsAt: string; readonly wasMinutes: number | undefined }
  | { readonly what: 'place'; readonly wasLocation: string }

export interface Schedule {
  readonly upcoming: readonly HeldGame[]
  readonly past: readonly HeldGame[]
  /** Whether older past games follow on the next page. */
  readonly morePast: boolean
}

const PAST_PAGE_SIZE = 50

export function toHeldGame(row: HeldPositionRow, at: string): HeldGame {
  return {
    positionId: row.position_id,
    label: row.label,
    payCents: row.pay_cents,
    currency: row.currency,
    positionStatus: row.position_status,
    gameId: row.game_id,
    gameStatus: row.game_status,
    startsAt: row.starts_at,
    endsAt: row.ends_at,
    sport: row.sport,
    location: row.location,
    leagueId: row.league_id,
    leagueName: row.league_name,
    withdrawable: row.position_status === 'claimed' && row.game_status !== 'cancelled' && row.starts_at > at,
    changes: [],
  }
}

/**
 * Marks each held game changed since its holder took it. The first `changed` notification written to them
 * after the claim carries the game as it was when they took it (its `before`): compared with the game now,
 * a change undone is no change. Every holder gets those rows, placeholders and opted-out people included.
 */
async function withChanges(deps: Deps, rows: readonly HeldPositionRow[], at: string): Promise<HeldGame[]> {
  const changed = await notifications.listChanged(
    deps.db,
    rows.map((r) => r.position_id),
  )
  const taken = new Map<string, NotificationPayload['before']>()
  for (const row of rows) {
    const first = changed.find(
      (c) => c.position_id === row.position_id && c.user_id === row.user_id && c.created_at >= row.claimed_at,
    )
    if (first) taken.set(row.position_id, (JSON.parse(first.payload) as NotificationPayload).before)
  }
  return rows.map((row) => {
    const game = toHeldGame(row, at)
    const was = taken.get(row.position_id)
    if (!was) return game
    const minutes = minutesBetween(row.starts_at, row.ends_at)
    const changes: HeldChange[] = []
    if (
      was.startsAt !== row.starts_at ||
      (was.durationMinutes !== undefined && was.durationMinutes !== minutes)
    )
      changes.push({
        what: 'time',
        wasStartsAt: was.startsAt,
        wasMinutes: was.durationMinutes !== minutes ? was.durationMinutes : undefined,
      })
    if (was.location !== row.location) changes.push({ what: 'place', wasLocation: was.location })
    return { ...game, changes }
  })
}

/** `page` 1 is the first page of past games; every page shows all upcoming ones. */
export async function listSchedule(deps: Deps, person: PersonCaller, page = 1): Promise<Schedule> {
  const at = isoNow(deps.clock)
  const [upcoming, past] = await Promise.all([
    officialGames.listUpcomingHeld(deps.db, person.userIds, at),
    officialGames.listPastHeld(deps.db, person.userIds, at, {
      limit: PAST_PAGE_SIZE + 1,
      offset: (page - 1) * PAST_PAGE_SIZE,
    }),
  ])
  return {
    upcoming: await withChanges(deps, upcoming, at),
    past: past.slice(0, PAST_PAGE_SIZE).map((row) => toHeldGame(row, at)),
    morePast: past.length > PAST_PAGE_SIZE,
  }
}

/** One position the person holds; anyone else's answers like a missing one. */
export async function findHeldGame(deps: Deps, person: PersonCaller, positionId: string): Promise<HeldGame> {
  const row = await officialGames.findHeld(deps.db, person.userIds, positionId)
  return toHeldGame(row ?? fail('position_not_found'), isoNow(deps.clock))
}
