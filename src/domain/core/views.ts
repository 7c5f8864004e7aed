// Rows → the spec's shapes. Every response and every event payload is built here, so REST, events and
// MCP render a resource identically.
import type { Kysely } from 'kysely'
import { dollars } from '../../schemas/common.js'
import type { Game, GameDetail, GameSummary, Position, PositionDetail } from '../../schemas/games.js'
import type { League } from '../../schemas/leagues.js'
import type { ClaimOfficial, Official } from '../../schemas/officials.js'
import type { Payment } from '../../schemas/payments.js'
import type { OfficialRow } from '../../store/memberships.js'
import { gamePages, listRangePositions, type Snapshot } from '../../store/league-pages.js'
import {
  listPositionDetails,
  listPositions,
  type ClaimWithUser,
  type PositionDetailRow,
} from '../../store/positions.js'
import type { Db, GameRow, LeagueRow, PaymentRow, PositionRow } from '../../store/tables.js'
import { minutesBetween } from '../../time.js'

export function toLeague(row: LeagueRow): League {
  return {
    id: row.id,
    name: row.name,
    paymentMode: row.payment_mode,
    currency: row.currency,
    source: row.source,
    externalId: row.external_id,
    createdAt: row.created_at,
    timeZone: row.time_zone,
    gameMinutes: row.game_minutes,
    travelBufferMinutes: row.travel_buffer_minutes,
    maxGamesPerDay: row.max_games_per_day,
    conflictPolicy: row.conflict_policy,
  }
}

export function toGameSummary(row: Omit<GameRow, 'seq'>): GameSummary {
  return {
    id: row.id,
    leagueId: row.league_id,
    sport: row.sport,
    startsAt: row.starts_at,
    durationMinutes: minutesBetween(row.starts_at, row.ends_at),
    endsAt: row.ends_at,
    location: row.location,
    venue: row.venue,
    status: row.status,
    latitude: row.latitude,
    longitude: row.longitude,
    source: row.source,
    externalId: row.external_id,
  }
}

export function toPosition(row: Omit<PositionRow, 'seq'>): Position {
  return {
    id: row.id,
    label: row.label,
    payCents: row.pay_cents,
    payDollars: dollars(row.pay_cents),
    status: row.status,
    minLevel: row.min_level,
  }
}

export function toClaimOfficial(claim: Pick<ClaimWithUser, 'user'>): ClaimOfficial {
  return { id: claim.user.id, name: claim.user.name, email: claim.user.email, claimStatus: 'confirmed' }
}

export function toPayment(row: PaymentRow): Payment {
  return {
    id: row.id,
    positionId: row.position_id,
    officialId: row.official_id,
    amountCents: row.amount_cents,
    amountDollars: dollars(row.amount_cents),
    currency: row.currency,
    mode: row.mode,
    status: row.status,
    paidAt: row.paid_at,
    failureCode: row.failure_code,
    failureMessage: row.failure_message,
    createdAt: row.created_at,
  }
}

export function toOfficial(row: OfficialRow): Official {
  return {
    userId: row.user_id,
    leagueId: row.league_id,
    status: row.status,
    name: row.name,
    email: row.email,
    externalId: row.external_id,
    source: row.source,
    createdAt: row.created_at,
    level: row.level,
    confirmed: row.confirmed_at !== null,
  }
}

/** Games with their positions (no official, no payment), in the order given. */
export async function loadGames(db: Kysely<Db>, games: readonly GameRow[]): Promise<Game[]> {
  return withPositions(
    games,
    await listPositions(
      db,
      games.map((g) => g.id),
    ),
  )
}

/**
 * A league's games by `startsAt` with their positions, read from the snapshot a page of games at a time
 * (two short queries a page) and mapped page by page, the event loop free between pages.
 */
export async function* leagueGamePages(snapshot: Snapshot, leagueId: string): AsyncGenerator<Game[]> {
  for await (const { games, range } of gamePages(snapshot, leagueId))
    yield withPositions(games, await listRangePositions(snapshot.db, range))
}

/** Each game with its positions from the given list, in the list's order. */
export function withPositions(
  games: readonly Omit<GameRow, 'seq'>[],
  positions: readonly Omit<PositionRow, 'seq'>[],
): Game[] {
  const byGame = groupBy(positions, (p) => p.game_id)
  return games.map((g) => ({ ...toGameSummary(g), positions: (byGame.get(g.id) ?? []).map(toPosition) }))
}

export async function loadGameDetail(db: Kysely<Db>, game: GameRow): Promise<GameDetail> {
  return toGameDetail(game, await listPositionDetails(db, game.id))
}

export function toGameDetail(game: GameRow, positions: readonly PositionDetailRow[]): GameDetail {
  return {
    ...toGameSummary(game),
    positions: positions.map(({ position, official, payment }): PositionDetail => ({
      ...toPosition(position),
      official: official ? toClaimOfficial({ user: official }) : null,
      payment: payment ? toPayment(payment) : null,
    })),
  }
}

export function groupBy<T, K>(items: readonly T[], key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>()
  for (const item of items) {
    const k = key(item)
    const group = groups.get(k)
    if (group) group.push(item)
    else groups.set(k, [item])
  }
  return groups
}

/**
 * Who added a person to a league, in words (DESIGN "Consent"): its organizer's name and the partner that
 * runs it; a synthesized name (a key's placeholder address) or an empty one is left out.
 */
export function inviterOf(organizerName: string | undefined, source: string): string {
  const name = organizerName?.trim() ?? ''
  const usable = name !== '' && !/\.invalid$/i.test(name)
  if (source === 'app') return usable ? name : 'the league’s organizer'
  return usable ? `${name}, through ${source}` : source
}
