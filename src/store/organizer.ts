// What an organizer sees of the leagues they run: counts per league, one page of games with their positions,
// and the payout ledger with the game and official of every payment.
import type { Kysely } from 'kysely'
import type {
  Db,
  GameRow,
  GameStatus,
  LeagueRow,
  PaymentRow,
  PaymentStatus,
  PositionStatus,
} from './tables.js'
import { selectPaymentsWithGame, type PaymentWithGameRow } from './payments.js'
import { leagueInScope, type Scope } from './scope.js'

export type OrganizedLeagueRow = LeagueRow & {
  open_count: number
  claimed_count: number
  completed_count: number
  cancelled_count: number
  pending_officials: number
}

/** The scope's leagues, newest first, with game counts per status and pending officials. */
export async function listOrganizedLeagues(db: Kysely<Db>, scope: Scope): Promise<OrganizedLeagueRow[]> {
  const rows = await db
    .selectFrom('leagues')
    .selectAll('leagues')
    .select((eb) => {
      const games = (status: GameStatus) =>
        eb
          .selectFrom('games')
          .select(eb.fn.countAll().as('n'))
          .whereRef('games.league_id', '=', 'leagues.id')
          .where('games.status', '=', status)
      return [
        games('open').as('open_count'),
        games('claimed').as('claimed_count'),
        games('completed').as('completed_count'),
        games('cancelled').as('cancelled_count'),
        eb
          .selectFrom('memberships')
          .select(eb.fn.countAll().as('n'))
          .whereRef('memberships.league_id', '=', 'leagues.id')
          .where('memberships.role', '=', 'official')
          .where('memberships.status', '=', 'pending')
          .as('pending_officials'),
      ]
    })
    .where(leagueInScope(scope))
    .orderBy('leagues.seq', 'desc')
    .execute()
  return rows.map((r) => ({
    ...r,
    open_count: Number(r.open_count),
    claimed_count: Number(r.claimed_count),
    completed_count: Number(r.completed_count),
    cancelled_count: Number(r.cancelled_count),
    pending_officials: Number(r.pending_officials),
  }))
}

export interface GameFilter {
  readonly status: GameStatus | undefined
  /** `upcoming`: starting after `at`, soonest first; `past`: started by `at`, latest first; `all`: by date. */
  readonly when: 'upcoming' | 'past' | 'all'
  readonly at: string
  /** Inclusive lower and exclusive upper bound of `starts_at`. */
  readonly from: string | undefined
  readonly to: string | undefined
}

/** One page of the league's games; the `games_league_starts_at` index serves every filter. */
export function listLeagueGamesPage(
  db: Kysely<Db>,
  leagueId: string,
  filter: GameFilter,
  page: { limit: number; offset: number },
): Promise<GameRow[]> {
  let query = db.selectFrom('games').selectAll().where('league_id', '=', leagueId)
  if (filter.status) query = query.where('status', '=', filter.status)
  if (filter.when === 'upcoming') query = query.where('starts_at', '>', filter.at)
  if (filter.when === 'past') query = query.where('starts_at', '<=', filter.at)
  if (filter.from) query = query.where('starts_at', '>=', filter.from)
  if (filter.to) query = query.where('starts_at', '<', filter.to)
  const direction = filter.when === 'past' ? 'desc' : 'asc'
  return query
    .orderBy('starts_at', direction)
    .orderBy('seq', direction)
    .limit(page.limit)
    .offset(page.offset)
    .execute()
}

export interface PositionLineRow {
  id: string
  game_id: string
  label: string
  pay_cents: number
  status: PositionStatus
  /** When the position last changed (a turnback shows while nothing has happened to it since). */
  updated_at: string
  official_id: string | null
  official_name: string | null
  official_email: string | null
  payment_id: string | null
  payment_status: PaymentStatus | null
  payment_mode: PaymentRow['mode'] | null
  payment_cents: number | null
}

/** The positions of the games, in order, each with its claim's official and its payment. */
export async function listPositionLines(
  db: Kysely<Db>,
  gameIds: readonly string[],
): Promise<PositionLineRow[]> {
  if (gameIds.length === 0) return []
  return db
    .selectFrom('positions')
    .leftJoin('claims', 'claims.position_id', 'positions.id')
    .leftJoin('users', 'users.id', 'claims.user_id')
    .leftJoin('payments', 'payments.position_id', 'positions.id')
    .select([
      'positions.id',
      'positions.game_id',
      'positions.label',
      'positions.pay_cents',
      'positions.status',
      'positions.updated_at',
      'users.id as official_id',
      'users.name as official_name',
      'users.email as official_email',
      'payments.id as payment_id',
      'payments.status as payment_status',
      'payments.mode as payment_mode',
      'payments.amount_cents as payment_cents',
    ])
    .where('positions.game_id', 'in', gameIds)
    .orderBy('positions.seq')
    .execute()
}

export type LedgerRow = PaymentWithGameRow & { official_name: string; official_email: string }

function ledger(db: Kysely<Db>, leagueId: string, status: PaymentStatus | undefined) {
  let query = selectPaymentsWithGame(db)
    .innerJoin('users', 'users.id', 'payments.official_id')
    .select(['users.name as official_name', 'users.email as official_email'])
    .where('payments.league_id', '=', leagueId)
  if (status) query = query.where('payments.status', '=', status)
  return query.orderBy('games.starts_at', 'desc').orderBy('payments.seq', 'desc')
}

export function findLedgerRow(
  db: Kysely<Db>,
  leagueId: string,
  paymentId: string,
): Promise<LedgerRow | undefined> {
  return ledger(db, leagueId, undefined).where('payments.id', '=', paymentId).executeTakeFirst()
}

/** The league's payments (optionally of one status), latest game first; one page, or all without `page`. */
export function listLedger(
  db: Kysely<Db>,
  leagueId: string,
  status: PaymentStatus | undefined,
  page?: { limit: number; offset: number },
): Promise<LedgerRow[]> {
  const query = ledger(db, leagueId, status)
  return (page ? query.limit(page.limit).offset(page.offset) : query).execute()
}

export interface LedgerTotalRow {
  status: PaymentStatus
  currency: string
  count: number
  cents: number
}

export async function ledgerTotals(db: Kysely<Db>, leagueId: string): Promise<LedgerTotalRow[]> {
  const rows = await db
    .selectFrom('payments')
    .select((eb) => [
      'status',
      'currency',
      eb.fn.countAll().as('count'),
      eb.fn.sum<number | string>('amount_cents').as('cents'),
    ])
    .where('league_id', '=', leagueId)
    .groupBy(['status', 'currency'])
    .orderBy('currency')
    .orderBy('status')
    .execute()
  return rows.map((r) => ({
    status: r.status,
    currency: r.currency,
    count: Number(r.count),
    cents: Number(r.cents),
  }))
}

export interface OfficialTotalRow extends LedgerTotalRow {
  official_id: string
  name: string
  email: string
}

/** The ledger's sums per official, status and currency (the whole league, not a page). */
export async function ledgerTotalsByOfficial(db: Kysely<Db>, leagueId: string): Promise<OfficialTotalRow[]> {
  const rows = await db
    .selectFrom('payments')
    .innerJoin('users', 'users.id', 'payments.official_id')
    .select((eb) => [
      'payments.official_id',
      'users.name',
      'users.email',
      'payments.status',
      'payments.currency',
      eb.fn.countAll().as('count'),
      eb.fn.sum<number | string>('payments.amount_cents').as('cents'),
    ])
    .where('payments.league_id', '=', leagueId)
    .groupBy(['payments.official_id', 'users.name', 'users.email', 'payments.status', 'payments.currency'])
    .execute()
  return rows.map((r) => ({ ...r, count: Number(r.count), cents: Number(r.cents) }))
}

/** The positions the official holds (claimed) in the league's games starting after `at`, soonest first. */
export function listUpcomingHeld(
  db: Kysely<Db>,
  leagueId: string,
  userId: string,
  at: string,
): Promise<{ game_id: string; starts_at: string; sport: string; label: string }[]> {
  return db
    .selectFrom('positions')
    .innerJoin('claims', 'claims.position_id', 'positions.id')
    .innerJoin('games', 'games.id', 'positions.game_id')
    .select(['games.id as game_id', 'games.starts_at', 'games.sport', 'positions.label'])
    .where('games.league_id', '=', leagueId)
    .where('claims.user_id', '=', userId)
    .where('positions.status', '=', 'claimed')
    .where('games.starts_at', '>', at)
    .orderBy('games.starts_at')
    .orderBy('positions.seq')
    .execute()
}

export interface OpenPositionRow {
  game_id: string
  starts_at: string
  sport: string
  location: string
  position_id: string
  label: string
  min_level: number | null
}

/** Open positions of the league's games starting after `at`, soonest first, at most `limit`. */
export function listOpenPositions(
  db: Kysely<Db>,
  leagueId: string,
  at: string,
  limit: number,
): Promise<OpenPositionRow[]> {
  return db
    .selectFrom('positions')
    .innerJoin('games', 'games.id', 'positions.game_id')
    .select([
      'games.id as game_id',
      'games.starts_at',
      'games.sport',
      'games.location',
      'positions.id as position_id',
      'positions.label',
      'positions.min_level',
    ])
    .where('games.league_id', '=', leagueId)
    .where('games.status', 'in', ['open', 'claimed'])
    .where('positions.status', '=', 'open')
    .where('games.starts_at', '>', at)
    .orderBy('games.starts_at')
    .orderBy('games.seq')
    .orderBy('positions.seq')
    .limit(limit)
    .execute()
}
