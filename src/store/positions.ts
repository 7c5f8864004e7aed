import type { Kysely, Transaction } from 'kysely'
import { insertRows } from './bulk.js'
import { isPostgres } from './dialect.js'
import { prepared } from './prepared.js'
import { findGameInScope } from './games.js'
import { approvedOfficial, leagueInScope, scopeParams, type Scope, type ScopeParams } from './scope.js'
import type { ClaimRow, Db, GameRow, PaymentRow, PositionRow, PositionStatus, UserRow } from './tables.js'

/** Positions of the given games in creation order. */
export async function listPositions(db: Kysely<Db>, gameIds: readonly string[]): Promise<PositionRow[]> {
  if (gameIds.length === 0) return []
  return db.selectFrom('positions').selectAll().where('game_id', 'in', gameIds).orderBy('seq').execute()
}

/** A position whose game's league is in the scope. */
export function findPositionInScope(
  db: Kysely<Db>,
  scope: Scope,
  id: string,
): Promise<PositionRow | undefined> {
  if (scope.kind === 'console') return findPosition(db, id)
  return db
    .selectFrom('positions')
    .innerJoin('games', 'games.id', 'positions.game_id')
    .innerJoin('leagues', 'leagues.id', 'games.league_id')
    .selectAll('positions')
    .where('positions.id', '=', id)
    .where(leagueInScope(scope))
    .executeTakeFirst()
}

export function findPosition(db: Kysely<Db>, id: string): Promise<PositionRow | undefined> {
  return db.selectFrom('positions').selectAll().where('id', '=', id).executeTakeFirst()
}

export type ClaimWithUser = ClaimRow & { user: Pick<UserRow, 'id' | 'name' | 'email'> }

/** Claims (with their official) and payments of the given positions, keyed by position id. */
export async function claimsAndPayments(
  db: Kysely<Db>,
  positionIds: readonly string[],
): Promise<{ claims: Map<string, ClaimWithUser>; payments: Map<string, PaymentRow> }> {
  const claims = new Map<string, ClaimWithUser>()
  const payments = new Map<string, PaymentRow>()
  if (positionIds.length === 0) return { claims, payments }
  const [claimRows, paymentRows] = await Promise.all([
    db
      .selectFrom('claims')
      .innerJoin('users', 'users.id', 'claims.user_id')
      .selectAll('claims')
      .select(['users.name as user_name', 'users.email as user_email'])
      .where('claims.position_id', 'in', positionIds)
      .execute(),
    db.selectFrom('payments').selectAll().where('position_id', 'in', positionIds).execute(),
  ])
  for (const { user_name, user_email, ...claim } of claimRows) {
    claims.set(claim.position_id, {
      ...claim,
      user: { id: claim.user_id, name: user_name, email: user_email },
    })
  }
  for (const payment of paymentRows) payments.set(payment.position_id, payment)
  return { claims, payments }
}

export interface PositionDetailRow {
  position: PositionRow
  official: Pick<UserRow, 'id' | 'name' | 'email'> | null
  payment: PaymentRow | null
}

/** One game's positions in creation order, each with its claimed official and its payment: one query. */
// A position with its claimed official and its payment, as columns any query joining positions, claims,
// users and payments can select (left joins: every column may be null).
const POSITION_DETAIL = [
  'positions.seq as position_seq',
  'positions.id as position_id',
  'positions.game_id as position_game_id',
  'positions.label as position_label',
  'positions.pay_cents as position_pay_cents',
  'positions.status as position_status',
  'positions.created_at as position_created_at',
  'positions.updated_at as position_updated_at',
  'positions.min_level as position_min_level',
  'users.id as official_id',
  'users.name as official_name',
  'users.email as official_email',
  'payments.seq as payment_seq',
  'payments.id as payment_id',
  'payments.official_id as payment_official_id',
  'payments.league_id as payment_league_id',
  'payments.amount_cents as payment_amount_cents',
  'payments.currency as payment_currency',
  'payments.mode as payment_mode',
  'payments.status as payment_status',
  'payments.paid_at as payment_paid_at',
  'payments.failure_code as payment_failure_code',
  'payments.failure_message as payment_failure_message',
  'payments.created_at as payment_created_at',
  'payments.updated_at as payment_updated_at',
] as const

type Nullable<T> = { [K in keyof T]: T[K] | null }
type PositionDetailColumns = Nullable<{
  [K in keyof PositionRow as `position_${K}`]: PositionRow[K]
}> &
  Nullable<{ official_id: string; official_name: string; official_email: string }> &
  Nullable<{ [K in Exclude<keyof PaymentRow, 'position_id'> as `payment_${K}`]: PaymentRow[K] }>

/** The position a row of POSITION_DETAIL columns describes, or undefined for a game without positions. */
function toPositionDetail(r: PositionDetailColumns): PositionDetailRow | undefined {
  if (r.position_id === null) return undefined
  return {
    position: {
      seq: r.position_seq!,
      id: r.position_id,
      game_id: r.position_game_id!,
      label: r.position_label!,
      pay_cents: r.position_pay_cents!,
      status: r.position_status!,
      created_at: r.position_created_at!,
      updated_at: r.position_updated_at!,
      min_level: r.position_min_level,
    },
    official:
      r.official_id === null ? null : { id: r.official_id, name: r.official_name!, email: r.official_email! },
    payment:
      r.payment_id === null
        ? null
        : {
            seq: r.payment_seq!,
            id: r.payment_id,
            position_id: r.position_id,
            official_id: r.payment_official_id!,
            league_id: r.payment_league_id!,
            amount_cents: r.payment_amount_cents!,
            currency: r.payment_currency!,
            mode: r.payment_mode!,
            status: r.payment_status!,
            paid_at: r.payment_paid_at,
            failure_code: r.payment_failure_code,
            failure_message: r.payment_failure_message,
            created_at: r.payment_created_at!,
            updated_at: r.payment_updated_at!,
          },
  }
}

const positionDetailsOfGame = prepared((db, p: { gameId: string }) =>
  db
    .selectFrom('positions')
    .leftJoin('claims', 'claims.position_id', 'positions.id')
    .leftJoin('users', 'users.id', 'claims.user_id')
    .leftJoin('payments', 'payments.position_id', 'positions.id')
    .select(POSITION_DETAIL)
    .where('positions.game_id', '=', p.gameId)
    .orderBy('positions.seq'),
)

export async function listPositionDetails(db: Kysely<Db>, gameId: string): Promise<PositionDetailRow[]> {
  return (await positionDetailsOfGame.execute(db, { gameId })).flatMap((r) => toPositionDetail(r) ?? [])
}

const gameDetailInScope = prepared((db, p: ScopeParams & { gameId: string }) =>
  db
    .selectFrom('games')
    .innerJoin('leagues', 'leagues.id', 'games.league_id')
    .leftJoin('positions', 'positions.game_id', 'games.id')
    .leftJoin('claims', 'claims.position_id', 'positions.id')
    .leftJoin('users', 'users.id', 'claims.user_id')
    .leftJoin('payments', 'payments.position_id', 'positions.id')
    .selectAll('games')
    .select(POSITION_DETAIL)
    .where('games.id', '=', p.gameId)
    .where(leagueInScope(p))
    .orderBy('positions.seq'),
)

/** A game in the caller's scope with its positions' details, in one query (GET /games/{id}). */
export async function findGameDetailInScope(
  db: Kysely<Db>,
  scope: Scope,
  gameId: string,
): Promise<{ game: GameRow; positions: PositionDetailRow[] } | undefined> {
  if (scope.kind !== 'partner') {
    const game = await findGameInScope(db, scope, gameId)
    return game && { game, positions: await listPositionDetails(db, gameId) }
  }
  const rows = await gameDetailInScope.execute(db, { ...scopeParams(scope), gameId })
  const [first] = rows
  if (!first) return undefined
  const game: GameRow = {
    seq: first.seq,
    id: first.id,
    league_id: first.league_id,
    source: first.source,
    external_id: first.external_id,
    sport: first.sport,
    starts_at: first.starts_at,
    location: first.location,
    venue: first.venue,
    latitude: first.latitude,
    longitude: first.longitude,
    status: first.status,
    created_at: first.created_at,
    updated_at: first.updated_at,
    duration_minutes: first.duration_minutes,
    ends_at: first.ends_at,
  }
  return { game, positions: rows.flatMap((r) => toPositionDetail(r) ?? []) }
}

/** Conditional status change of the given positions still in `from`; returns how many changed. */
export async function transitionPositions(
  db: Kysely<Db>,
  ids: readonly string[],
  from: PositionStatus,
  to: PositionStatus,
  at: string,
): Promise<number> {
  if (ids.length === 0) return 0
  const result = await db
    .updateTable('positions')
    .set({ status: to, updated_at: at })
    .where('id', 'in', ids)
    .where('status', '=', from)
    .executeTakeFirst()
  return Number(result.numUpdatedRows)
}

const POSITION_COLUMNS = [
  'id',
  'game_id',
  'label',
  'pay_cents',
  'status',
  'created_at',
  'updated_at',
  'min_level',
] as const

export async function insertPositions(
  db: Kysely<Db>,
  rows: readonly Omit<PositionRow, 'seq'>[],
): Promise<void> {
  await insertRows(db, 'positions', POSITION_COLUMNS, rows)
}

const claimSightInScope = prepared((db, p: ScopeParams & { gameId: string; userId: string }) =>
  db
    .selectFrom('games')
    .innerJoin('leagues', 'leagues.id', 'games.league_id')
    .innerJoin('memberships', (join) =>
      join.onRef('memberships.league_id', '=', 'games.league_id').on('memberships.user_id', '=', p.userId),
    )
    .innerJoin('positions', 'positions.game_id', 'games.id')
    .selectAll('positions')
    .select('memberships.level as official_level')
    .where('games.id', '=', p.gameId)
    .where(leagueInScope(p))
    .where(approvedOfficial)
    .orderBy('positions.seq'),
)

/**
 * What a partner's claim of the game would see, read in one statement without a transaction or lock: the
 * game's positions, if the game is in the key's scope and the user is an approved official of its league
 * (none otherwise), with the official's level.
 */
export async function findClaimSight(
  db: Kysely<Db>,
  scope: ScopeParams,
  gameId: string,
  userId: string,
): Promise<{ level: number | null; positions: PositionRow[] } | undefined> {
  const rows = await claimSightInScope.execute(db, { ...scopeParams(scope), gameId, userId })
  const first = rows[0]
  if (!first) return undefined
  return {
    level: first.official_level,
    positions: rows.map(({ official_level: _, ...position }) => position),
  }
}

const positionsLocked = prepared((db, p: { gameIds: readonly string[] }) => {
  const query = db.selectFrom('positions').selectAll().where('game_id', 'in', p.gameIds).orderBy('seq')
  return isPostgres(db) ? query.forUpdate() : query
})

/**
 * The games' positions in creation order, locked until the transaction ends (on PostgreSQL; SQLite's
 * IMMEDIATE transactions already hold the one writer lock). Whoever changes a game's positions takes
 * this first, so concurrent writers queue per game and each status rollup reads settled rows. Rows are
 * locked in `seq` order, the same for every caller, so two writers spanning several games never deadlock.
 */
export function lockPositions(trx: Transaction<Db>, gameIds: readonly string[]): Promise<PositionRow[]> {
  if (gameIds.length === 0) return Promise.resolve([])
  return positionsLocked.execute(trx, { gameIds })
}

const claimedIfOpen = prepared((db, p: { id: string; at: string }) =>
  db
    .updateTable('positions')
    .set({ status: 'claimed', updated_at: p.at })
    .where('id', '=', p.id)
    .where('status', '=', 'open')
    .returning('id'),
)

/** open → claimed only while still open; false means another claim got there first. */
export async function claimIfOpen(db: Kysely<Db>, id: string, at: string): Promise<boolean> {
  return (await claimedIfOpen.execute(db, { id, at })).length > 0
}

/** claimed → `to` only while still claimed; false means the position was not claimed. */
export async function releaseIfClaimed(
  db: Kysely<Db>,
  id: string,
  to: 'open' | 'cancelled',
  at: string,
): Promise<boolean> {
  const result = await db
    .updateTable('positions')
    .set({ status: to, updated_at: at })
    .where('id', '=', id)
    .where('status', '=', 'claimed')
    .executeTakeFirst()
  return result.numUpdatedRows > 0n
}
