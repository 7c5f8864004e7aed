// What an organizer sees in the app: the leagues they organize, a league's games a page at a time, its
// officials and its payout ledger. Every read and every action starts from `requireOrganizedLeague`: a
// league the person does not organize reads exactly like one that does not exist.
import type { Official } from '../schemas/officials.js'
import * as memberships from '../store/memberships.js'
import * as organizer from '../store/organizer.js'
import * as positions from '../store/positions.js'
import type { LedgerRow, PositionLineRow } from '../store/organizer.js'
import type { GameStatus, LeagueRow, PaymentMode, PaymentStatus } from '../store/tables.js'
import type { Deps } from './deps.js'
import { fail } from './errors.js'
import { canCharge, canComplete, canMarkPaid, canRecordNoShow, noShowKeepsPayment } from './payments.js'
import type { Person } from './sessions.js'
import { groupBy, toOfficial } from './views.js'

export const GAME_STATUSES: readonly GameStatus[] = ['open', 'claimed', 'completed', 'cancelled']
export const PAYMENT_STATUSES: readonly PaymentStatus[] = [
  'pending',
  'processing',
  'paid',
  'requires_card',
  'failed',
]
export const GAMES_PAGE_SIZE = 50
export const LEDGER_PAGE_SIZE = 100

export interface OrganizedLeague {
  readonly id: string
  readonly name: string
  readonly paymentMode: PaymentMode
  readonly currency: string
}

export interface LeagueOverview extends OrganizedLeague {
  readonly games: Readonly<Record<GameStatus, number>>
  readonly pendingOfficials: number
}

const toOrganizedLeague = (row: LeagueRow): OrganizedLeague => ({
  id: row.id,
  name: row.name,
  paymentMode: row.payment_mode,
  currency: row.currency,
})

export async function listOrganizedLeagues(deps: Deps, person: Person): Promise<LeagueOverview[]> {
  const rows = await organizer.listOrganizedLeagues(deps.db, person.userIds)
  return rows.map((row) => ({
    ...toOrganizedLeague(row),
    games: {
      open: row.open_count,
      claimed: row.claimed_count,
      completed: row.completed_count,
      cancelled: row.cancelled_count,
    },
    pendingOfficials: row.pending_officials,
  }))
}

export async function requireOrganizedLeague(
  deps: Deps,
  person: Person,
  leagueId: string,
): Promise<OrganizedLeague> {
  const row = await organizer.findOrganizedLeague(deps.db, person.userIds, leagueId)
  return row ? toOrganizedLeague(row) : fail('league_not_found')
}

/** The organized league of a game, position or payment; anything else is missing, whatever it is. */
export async function requireOrganizedLeagueOf(
  deps: Deps,
  person: Person,
  ref: { gameId: string } | { positionId: string } | { paymentId: string },
): Promise<OrganizedLeague> {
  const row = await organizer.findOrganizedLeagueOf(deps.db, person.userIds, ref)
  if (row) return toOrganizedLeague(row)
  return fail(
    'gameId' in ref ? 'game_not_found' : 'positionId' in ref ? 'position_not_found' : 'payment_not_found',
  )
}

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
}

export interface LeagueGame {
  readonly id: string
  readonly startsAt: string
  readonly sport: string
  readonly location: string
  readonly status: GameStatus
  readonly completable: boolean
  readonly positions: readonly PositionLine[]
}

export interface GameQuery {
  readonly status?: GameStatus | undefined
  readonly when?: 'upcoming' | 'past' | 'all' | undefined
  /** Days `YYYY-MM-DD` in the person's time zone, both included. */
  readonly from?: string | undefined
  readonly to?: string | undefined
  readonly page?: number | undefined
}

/** One page of the league's games with their positions: two queries whatever the league's size. */
export async function listLeagueGames(
  deps: Deps,
  person: Person,
  leagueId: string,
  query: GameQuery,
  now: Date,
): Promise<{ league: OrganizedLeague; games: LeagueGame[]; more: boolean }> {
  const league = await requireOrganizedLeague(deps, person, leagueId)
  const page = query.page ?? 1
  const rows = await organizer.listLeagueGamesPage(
    deps.db,
    league.id,
    {
      status: query.status,
      when: query.when ?? 'all',
      at: now.toISOString(),
      from: query.from === undefined ? undefined : dayStart(query.from, person.timeZone),
      to: query.to === undefined ? undefined : dayStart(nextDay(query.to), person.timeZone),
    },
    { limit: GAMES_PAGE_SIZE + 1, offset: (page - 1) * GAMES_PAGE_SIZE },
  )
  const shown = rows.slice(0, GAMES_PAGE_SIZE)
  const lines = await organizer.listPositionLines(
    deps.db,
    shown.map((g) => g.id),
  )
  const byGame = groupBy(lines, (p) => p.game_id)
  const games = shown.map((g) => ({
    id: g.id,
    startsAt: g.starts_at,
    sport: g.sport,
    location: g.location,
    status: g.status,
    completable: canComplete(g),
    positions: (byGame.get(g.id) ?? []).map((p) => toPositionLine(p, g.status)),
  }))
  return { league, games, more: rows.length > GAMES_PAGE_SIZE }
}

/** One game of an organized league, as its confirmation pages show it. */
export async function findLeagueGame(
  deps: Deps,
  person: Person,
  ref: { gameId: string } | { positionId: string },
): Promise<{ league: OrganizedLeague; game: LeagueGame }> {
  const league = await requireOrganizedLeagueOf(deps, person, ref)
  const game =
    'gameId' in ref
      ? await findGame(deps, league.id, ref.gameId)
      : await findGame(deps, league.id, await gameOfPosition(deps, ref.positionId))
  return { league, game: game ?? fail('game_not_found') }
}

async function gameOfPosition(deps: Deps, positionId: string): Promise<string> {
  return (await positions.findPosition(deps.db, positionId))?.game_id ?? fail('position_not_found')
}

async function findGame(deps: Deps, leagueId: string, gameId: string): Promise<LeagueGame | undefined> {
  const row = await organizer.findLeagueGame(deps.db, leagueId, gameId)
  if (!row) return undefined
  const lines = await organizer.listPositionLines(deps.db, [row.id])
  return {
    id: row.id,
    startsAt: row.starts_at,
    sport: row.sport,
    location: row.location,
    status: row.status,
    completable: canComplete(row),
    positions: lines.map((p) => toPositionLine(p, row.status)),
  }
}

function toPositionLine(row: PositionLineRow, gameStatus: GameStatus): PositionLine {
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
  }
}

/** Why a game cannot be completed, or undefined when it can: only a fully claimed game completes. */
export function completionBlocker(
  game: LeagueGame,
): 'already_completed' | 'cancelled' | 'open_positions' | undefined {
  if (game.completable) return undefined
  if (game.status === 'completed') return 'already_completed'
  if (game.status === 'cancelled') return 'cancelled'
  return 'open_positions'
}

/** What a no-show does to the position's payment: none to touch, kept (money moving or moved), or removed. */
export function noShowPaymentEffect(line: PositionLine): 'none' | 'kept' | 'removed' {
  if (!line.payment) return 'none'
  return noShowKeepsPayment(line.payment.status) ? 'kept' : 'removed'
}

export async function listLeagueOfficials(
  deps: Deps,
  person: Person,
  leagueId: string,
): Promise<{ league: OrganizedLeague; officials: Official[] }> {
  const league = await requireOrganizedLeague(deps, person, leagueId)
  const officials = (await memberships.listOfficials(deps.db, league.id)).map(toOfficial)
  return { league, officials }
}

export interface LedgerLine {
  readonly id: string
  readonly status: PaymentStatus
  readonly mode: PaymentMode
  readonly amountCents: number
  readonly currency: string
  readonly paidAt: string | null
  readonly failureMessage: string | null
  readonly createdAt: string
  readonly gameId: string
  readonly startsAt: string
  readonly sport: string
  readonly location: string
  readonly label: string
  readonly officialId: string
  readonly officialName: string
  readonly officialEmail: string
  /** Mark paid applies: an offline payment still pending. */
  readonly payable: boolean
  /** Charge applies: a platform payment pending, failed or waiting for a card. */
  readonly chargeable: boolean
}

export interface LedgerTotal {
  readonly status: PaymentStatus
  readonly currency: string
  readonly count: number
  readonly cents: number
}

const toLedgerLine = (row: LedgerRow): LedgerLine => ({
  id: row.id,
  status: row.status,
  mode: row.mode,
  amountCents: row.amount_cents,
  currency: row.currency,
  paidAt: row.paid_at,
  failureMessage: row.failure_message,
  createdAt: row.created_at,
  gameId: row.game_id,
  startsAt: row.starts_at,
  sport: row.sport,
  location: row.location,
  label: row.label,
  officialId: row.official_id,
  officialName: row.official_name,
  officialEmail: row.official_email,
  payable: canMarkPaid(row),
  chargeable: canCharge(row),
})

/** One page of the ledger (optionally of one status) and the league's totals per status and currency. */
export async function listLedger(
  deps: Deps,
  person: Person,
  leagueId: string,
  query: { status?: PaymentStatus | undefined; page?: number | undefined },
): Promise<{ league: OrganizedLeague; payments: LedgerLine[]; totals: LedgerTotal[]; more: boolean }> {
  const league = await requireOrganizedLeague(deps, person, leagueId)
  const page = query.page ?? 1
  const [rows, totals] = await Promise.all([
    organizer.listLedger(deps.db, league.id, query.status, {
      limit: LEDGER_PAGE_SIZE + 1,
      offset: (page - 1) * LEDGER_PAGE_SIZE,
    }),
    organizer.ledgerTotals(deps.db, league.id),
  ])
  return {
    league,
    payments: rows.slice(0, LEDGER_PAGE_SIZE).map(toLedgerLine),
    totals,
    more: rows.length > LEDGER_PAGE_SIZE,
  }
}

/** The whole ledger (optionally of one status), for the CSV export. */
export async function exportLedger(
  deps: Deps,
  person: Person,
  leagueId: string,
  status: PaymentStatus | undefined,
): Promise<{ league: OrganizedLeague; payments: LedgerLine[] }> {
  const league = await requireOrganizedLeague(deps, person, leagueId)
  const rows = await organizer.listLedger(deps.db, league.id, status)
  return { league, payments: rows.map(toLedgerLine) }
}

export async function findLedgerLine(
  deps: Deps,
  person: Person,
  paymentId: string,
): Promise<{ league: OrganizedLeague; payment: LedgerLine }> {
  const league = await requireOrganizedLeagueOf(deps, person, { paymentId })
  const row = (await organizer.findLedgerRow(deps.db, league.id, paymentId)) ?? fail('payment_not_found')
  return { league, payment: toLedgerLine(row) }
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/

/** Whether `value` is a calendar day `YYYY-MM-DD`. */
export function isDay(value: string): boolean {
  const match = DAY.exec(value)
  if (!match) return false
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])))
  return date.toISOString().slice(0, 10) === value
}

function nextDay(day: string): string {
  const date = new Date(`${day}T00:00:00.000Z`)
  date.setUTCDate(date.getUTCDate() + 1)
  return date.toISOString().slice(0, 10)
}

/** The instant the day begins in the time zone, as stored times are written. */
export function dayStart(day: string, timeZone: string): string {
  const utcMidnight = Date.parse(`${day}T00:00:00.000Z`)
  // The zone's offset at the UTC midnight, then again at the guess, so a change of offset that day is honoured.
  const first = utcMidnight - zoneOffset(utcMidnight, timeZone)
  return new Date(utcMidnight - zoneOffset(first, timeZone)).toISOString()
}

function zoneOffset(at: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(new Date(at))
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value)
  const wall = Date.UTC(
    part('year'),
    part('month') - 1,
    part('day'),
    part('hour'),
    part('minute'),
    part('second'),
  )
  return wall - Math.floor(at / 1000) * 1000
}
