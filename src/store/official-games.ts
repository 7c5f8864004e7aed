// What one person sees as an official: the positions they hold, the open positions of the leagues they
// officiate, their payments and memberships. `userIds` are the person's user rows.
import { sql, type Kysely } from 'kysely'
import type { Db, MembershipRole, MembershipStatus, PositionStatus, GameStatus } from './tables.js'
import { selectPaymentsWithGame, type PaymentWithGameRow } from './payments.js'
import { approvedOfficial, leagueInScope, type Scope } from './scope.js'

export interface HeldPositionRow {
  position_id: string
  label: string
  pay_cents: number
  position_status: PositionStatus
  game_id: string
  game_status: GameStatus
  starts_at: string
  ends_at: string
  sport: string
  location: string
  league_id: string
  league_name: string
  currency: string
  user_id: string
  /** When the holder took the position. */
  claimed_at: string
}

const positionColumns = [
  'positions.id as position_id',
  'positions.label',
  'positions.pay_cents',
  'positions.status as position_status',
  'games.id as game_id',
  'games.status as game_status',
  'games.starts_at',
  'games.ends_at',
  'games.sport',
  'games.location',
  'leagues.id as league_id',
  'leagues.name as league_name',
  'leagues.currency',
] as const
const heldColumns = [...positionColumns, 'claims.user_id', 'claims.created_at as claimed_at'] as const

function heldPositions(db: Kysely<Db>, userIds: readonly string[]) {
  return db
    .selectFrom('claims')
    .innerJoin('positions', 'positions.id', 'claims.position_id')
    .innerJoin('games', 'games.id', 'positions.game_id')
    .innerJoin('leagues', 'leagues.id', 'games.league_id')
    .select(heldColumns)
    .where('claims.user_id', 'in', userIds)
}

/** Positions the person holds in games starting after `from`, soonest first. */
export async function listUpcomingHeld(
  db: Kysely<Db>,
  userIds: readonly string[],
  from: string,
): Promise<HeldPositionRow[]> {
  if (userIds.length === 0) return []
  return heldPositions(db, userIds)
    .where('games.starts_at', '>', from)
    .orderBy('games.starts_at')
    .orderBy('games.seq')
    .orderBy('positions.seq')
    .execute()
}

/** Positions the person holds in games that started by `before`, latest first, one page. */
export async function listPastHeld(
  db: Kysely<Db>,
  userIds: readonly string[],
  before: string,
  page: { limit: number; offset: number },
): Promise<HeldPositionRow[]> {
  if (userIds.length === 0) return []
  return heldPositions(db, userIds)
    .where('games.starts_at', '<=', before)
    .orderBy('games.starts_at', 'desc')
    .orderBy('games.seq', 'desc')
    .orderBy('positions.seq', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute()
}

export async function findHeld(
  db: Kysely<Db>,
  userIds: readonly string[],
  positionId: string,
): Promise<HeldPositionRow | undefined> {
  if (userIds.length === 0) return undefined
  return heldPositions(db, userIds).where('positions.id', '=', positionId).executeTakeFirst()
}

/** What Open games narrows the list to; each absent filter lets everything through. */
export interface OpenPositionFilters {
  readonly leagueId?: string
  /** Games starting at or after this instant (and after `now` whatever it says). */
  readonly from?: string
  /** Games starting before this instant. */
  readonly to?: string
  /** The sport, compared without regard to case. */
  readonly sport?: string
  /** Text the location contains, without regard to case. */
  readonly place?: string
}

export type OpenPositionRow = Omit<HeldPositionRow, 'user_id' | 'claimed_at'> & {
  min_level: number | null
  venue: string | null
  time_zone: string
  travel_buffer_minutes: number
  max_games_per_day: number | null
}

/** `%`, `_` and the escape itself match only themselves in a LIKE pattern. */
const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`)

/**
 * Open positions of open games starting after `now`, in the scope's leagues, narrowed by the filters:
 * soonest first, one page, with what the conflict rules read of the position and its league.
 */
export async function listOpenPositions(
  db: Kysely<Db>,
  scope: Scope,
  now: string,
  filters: OpenPositionFilters,
  page: { limit: number; offset: number },
): Promise<OpenPositionRow[]> {
  let query = db
    .selectFrom('games')
    .innerJoin('positions', 'positions.game_id', 'games.id')
    .innerJoin('leagues', 'leagues.id', 'games.league_id')
    .select(positionColumns)
    .select([
      'positions.min_level',
      'games.venue',
      'leagues.time_zone',
      'leagues.travel_buffer_minutes',
      'leagues.max_games_per_day',
    ])
    .where(leagueInScope(scope))
    .where('games.status', '=', 'open')
    .where('positions.status', '=', 'open')
    .where('games.starts_at', '>', now)
  if (filters.leagueId !== undefined) query = query.where('games.league_id', '=', filters.leagueId)
  if (filters.from !== undefined) query = query.where('games.starts_at', '>=', filters.from)
  if (filters.to !== undefined) query = query.where('games.starts_at', '<', filters.to)
  if (filters.sport !== undefined)
    query = query.where(sql`lower(games.sport)`, '=', filters.sport.toLowerCase())
  if (filters.place !== undefined) {
    const pattern = `%${likeEscaped(filters.place.toLowerCase())}%`
    query = query.where(sql<boolean>`lower(games.location) like ${pattern} escape '\\'`)
  }
  return query
    .orderBy('games.starts_at')
    .orderBy('games.seq')
    .orderBy('positions.seq')
    .limit(page.limit)
    .offset(page.offset)
    .execute()
}

export interface OfficiatedLeagueRow {
  league_id: string
  league_name: string
  level: number | null
}

/** The leagues where one of the users is an approved official, with that membership's level, oldest first. */
export async function listOfficiatedLeagues(
  db: Kysely<Db>,
  userIds: readonly string[],
): Promise<OfficiatedLeagueRow[]> {
  if (userIds.length === 0) return []
  return db
    .selectFrom('memberships')
    .innerJoin('leagues', 'leagues.id', 'memberships.league_id')
    .select(['leagues.id as league_id', 'leagues.name as league_name', 'memberships.level'])
    .where('memberships.user_id', 'in', userIds)
    .where(approvedOfficial)
    .orderBy('memberships.seq')
    .execute()
}

export type EarningRow = PaymentWithGameRow & { league_name: string }

/** The users' payments, newest first, with the game and league each one is for. */
export async function listEarnings(db: Kysely<Db>, userIds: readonly string[]): Promise<EarningRow[]> {
  if (userIds.length === 0) return []
  return selectPaymentsWithGame(db)
    .innerJoin('leagues', 'leagues.id', 'payments.league_id')
    .select('leagues.name as league_name')
    .where('payments.official_id', 'in', userIds)
    .orderBy('payments.seq', 'desc')
    .execute()
}

export interface MembershipOfRow {
  league_id: string
  league_name: string
  role: MembershipRole
  status: MembershipStatus
  confirmed_at: string | null
  /** Who runs the league: its organizer's name (empty when unknown) and the source that made it. */
  organizer_name: string
  league_source: string
}

/** Every membership of the users, by league name. */
export async function listMembershipsOf(
  db: Kysely<Db>,
  userIds: readonly string[],
): Promise<MembershipOfRow[]> {
  if (userIds.length === 0) return []
  return db
    .selectFrom('memberships')
    .innerJoin('leagues', 'leagues.id', 'memberships.league_id')
    .innerJoin('users as organizers', 'organizers.id', 'leagues.organizer_id')
    .select([
      'leagues.id as league_id',
      'leagues.name as league_name',
      'memberships.role',
      'memberships.status',
      'memberships.confirmed_at',
      'organizers.name as organizer_name',
      'leagues.source as league_source',
    ])
    .where('memberships.user_id', 'in', userIds)
    .orderBy('leagues.name')
    .orderBy('memberships.seq')
    .execute()
}
