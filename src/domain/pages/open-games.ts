// Open games an official can claim: open positions of open, upcoming games in the leagues they officiate,
// soonest first, narrowed by the page's filters. The conflict rules (conflicts.ts) decide which of them the
// person can take; the rest are shown only on request, each with the rule that stops them. The claim itself
// is `claimPosition` (assignments.ts), which asks the same rules again under its locks.
import { isoNow } from '../../clock.js'
import * as held from '../../store/held.js'
import * as officialGames from '../../store/official-games.js'
import type { OpenPositionFilters, OpenPositionRow } from '../../store/official-games.js'
import { scopeOf } from '../core/access.js'
import type { PersonCaller } from '../core/caller.js'
import {
  gameSpan,
  reasonsFor,
  visibleHolds,
  type GameSpan,
  type Refusal,
  type RuleSettings,
} from '../availability/conflicts.js'
import type { Deps } from '../core/deps.js'
import { unavailableByPerson } from '../availability/unavailability.js'
import { DAY_MS, iso } from '../../time.js'

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
  /** The first rule that stops the person taking it; null when they can. */
  readonly reason: Refusal | null
}

export interface OpenGamesQuery extends OpenPositionFilters {
  /** "Show games I can't take": every open position, each with its reason. */
  readonly showAll?: boolean
}

export const OPEN_PAGE_SIZE = 50
/** Open positions read and judged at a time while filling a page. */
const BATCH = 200

/**
 * One page of the open positions the person can take (or of all of them, with `showAll`). The rules judge
 * each read batch in memory against the person's facts around it, so a page costs a few queries per batch.
 */
export async function listOpenGames(
  deps: Deps,
  person: PersonCaller,
  page = 1,
  query: OpenGamesQuery = {},
): Promise<{ games: OpenGame[]; more: boolean }> {
  const scope = scopeOf(person, 'officiate')
  const now = isoNow(deps.clock)
  const levels = new Map<string, number | null>()
  for (const row of await officialGames.listOfficiatedLeagues(deps.db, person.userIds))
    if (!levels.has(row.league_id)) levels.set(row.league_id, row.level)
  const skip = (page - 1) * OPEN_PAGE_SIZE
  const kept: OpenGame[] = []
  for (let offset = 0; kept.length <= skip + OPEN_PAGE_SIZE; offset += BATCH) {
    const rows = await officialGames.listOpenPositions(deps.db, scope, now, query, { limit: BATCH, offset })
    const judge = await judgeFor(deps, person.email, rows, levels)
    for (const row of rows) {
      const reason = judge(row)
      if (query.showAll === true || reason === null) kept.push(toOpenGame(row, reason))
    }
    if (rows.length < BATCH) break
  }
  return { games: kept.slice(skip, skip + OPEN_PAGE_SIZE), more: kept.length > skip + OPEN_PAGE_SIZE }
}

/** The leagues the person officiates, by name, for the page's league filter. */
export async function officiatedLeagues(
  deps: Deps,
  person: PersonCaller,
): Promise<{ id: string; name: string }[]> {
  const rows = await officialGames.listOfficiatedLeagues(deps.db, person.userIds)
  const byId = new Map(rows.map((r) => [r.league_id, r.league_name]))
  return [...byId]
    .map(([id, name]) => ({ id, name }))
    .sort((a, b) => a.name.localeCompare(b.name) || (a.id < b.id ? -1 : 1))
}

/** The first rule refusing each row of the batch, from the person's facts a day either side of it. */
async function judgeFor(
  deps: Deps,
  email: string,
  rows: readonly OpenPositionRow[],
  levels: ReadonlyMap<string, number | null>,
): Promise<(row: OpenPositionRow) => Refusal | null> {
  if (rows.length === 0) return () => null
  const from = iso(Date.parse(rows[0]!.starts_at) - DAY_MS)
  const to = iso(Math.max(...rows.map((r) => Date.parse(r.ends_at))) + DAY_MS)
  const [heldRows, unavailable] = await Promise.all([
    held.listHeldByEmails(deps.db, [email], { from, to }),
    unavailableByPerson(deps.db, [email], { startsAt: from, endsAt: to }),
  ])
  const busy = (unavailable.get(email) ?? []).map((s) => ({
    start: Date.parse(s.startsAt),
    end: Date.parse(s.endsAt),
  }))
  // A held game's day is read in the time zone of the league judging it: one list per league.
  const heldIn = new Map<string, GameSpan[]>()
  return (row) => {
    const settings: RuleSettings = {
      leagueId: row.league_id,
      travelBufferMinutes: row.travel_buffer_minutes,
      maxGamesPerDay: row.max_games_per_day,
      timeZone: row.time_zone,
    }
    let spans = heldIn.get(row.league_id)
    if (!spans) {
      // Their claim joins the league, so it judges them as joined: its games and those of leagues they joined.
      spans = visibleHolds(heldRows, row.league_id, true).map((h) =>
        gameSpan(settings, { gameId: h.game_id, leagueId: h.league_id, ...h }),
      )
      heldIn.set(row.league_id, spans)
    }
    const target = {
      ...gameSpan(settings, { gameId: row.game_id, leagueId: row.league_id, ...row }),
      minLevel: row.min_level,
    }
    const level = levels.get(row.league_id) ?? null
    return reasonsFor(settings, target, { level, held: spans, busy })[0] ?? null
  }
}

function toOpenGame(row: OpenPositionRow, reason: Refusal | null): OpenGame {
  return {
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
    reason,
  }
}
