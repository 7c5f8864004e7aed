import type { Kysely, Transaction } from 'kysely'
import { isPostgres } from './dialect.js'
import { prepared } from './prepared.js'
import { approvedOfficial } from './scope.js'
import type { Db, MembershipRow, MembershipStatus, UserRow } from './tables.js'

export type OfficialRow = MembershipRow & Pick<UserRow, 'name' | 'email' | 'external_id' | 'source'>

const officialColumns = [
  'memberships.seq',
  'memberships.id',
  'memberships.league_id',
  'memberships.user_id',
  'memberships.role',
  'memberships.status',
  'memberships.created_at',
  'memberships.updated_at',
  'memberships.level',
  'memberships.confirmed_at',
  'users.name',
  'users.email',
  'users.external_id',
  'users.source',
] as const

/** Memberships with role `official`, any status, oldest first. */
export function listOfficials(db: Kysely<Db>, leagueId: string): Promise<OfficialRow[]> {
  return db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select(officialColumns)
    .where('memberships.league_id', '=', leagueId)
    .where('memberships.role', '=', 'official')
    .orderBy('memberships.seq')
    .execute()
}

export function findOfficial(
  db: Kysely<Db>,
  leagueId: string,
  userId: string,
): Promise<OfficialRow | undefined> {
  return db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select(officialColumns)
    .where('memberships.league_id', '=', leagueId)
    .where('memberships.user_id', '=', userId)
    .executeTakeFirst()
}

/** The first of the users (by membership age) that is an approved official of the league. */
export async function findApprovedOfficial(
  db: Kysely<Db>,
  leagueId: string,
  userIds: readonly string[],
): Promise<string | undefined> {
  if (userIds.length === 0) return undefined
  const row = await db
    .selectFrom('memberships')
    .select('memberships.user_id')
    .where('memberships.league_id', '=', leagueId)
    .where('memberships.user_id', 'in', userIds)
    .where(approvedOfficial)
    .orderBy('memberships.seq')
    .executeTakeFirst()
  return row?.user_id
}

export function findMembership(
  db: Kysely<Db>,
  leagueId: string,
  userId: string,
): Promise<MembershipRow | undefined> {
  return db
    .selectFrom('memberships')
    .selectAll()
    .where('league_id', '=', leagueId)
    .where('user_id', '=', userId)
    .executeTakeFirst()
}

export async function insertMembership(db: Kysely<Db>, row: Omit<MembershipRow, 'seq'>): Promise<void> {
  await db.insertInto('memberships').values(row).execute()
}

export async function setMembershipStatus(
  db: Kysely<Db>,
  id: string,
  status: MembershipStatus,
  at: string,
): Promise<void> {
  await db.updateTable('memberships').set({ status, updated_at: at }).where('id', '=', id).execute()
}

export async function setMembershipLevel(
  db: Kysely<Db>,
  id: string,
  level: number | null,
  at: string,
): Promise<void> {
  await db.updateTable('memberships').set({ level, updated_at: at }).where('id', '=', id).execute()
}

export async function deleteMembership(db: Kysely<Db>, id: string): Promise<void> {
  await db.deleteFrom('memberships').where('id', '=', id).execute()
}

const lockedMembership = (mode: 'share' | 'update') =>
  prepared((db, p: { leagueId: string; userId: string }) => {
    const query = db
      .selectFrom('memberships')
      .selectAll()
      .where('league_id', '=', p.leagueId)
      .where('user_id', '=', p.userId)
    if (!isPostgres(db)) return query
    return mode === 'share' ? query.forShare() : query.forUpdate()
  })
const membershipShared = lockedMembership('share')
const membershipForUpdate = lockedMembership('update')

/**
 * The membership read under a row lock (PostgreSQL): `share` for a claim that relies on it being approved,
 * `update` for a change to it. A claim and a removal or denial of the same official thus serialize, and
 * the later one sees the earlier one's outcome.
 */
export function lockMembership(
  trx: Transaction<Db>,
  leagueId: string,
  userId: string,
  mode: 'share' | 'update',
): Promise<MembershipRow | undefined> {
  return (mode === 'share' ? membershipShared : membershipForUpdate).takeFirst(trx, { leagueId, userId })
}

/**
 * Insert, or set the status of the existing (league, user) membership. Race-safe: the loser of two
 * concurrent first inserts updates the winner's row. The row was inserted iff its id is `row.id`.
 */
export function upsertMembership(
  db: Kysely<Db>,
  row: Omit<MembershipRow, 'seq'>,
  setLevel: boolean,
): Promise<MembershipRow> {
  return db
    .insertInto('memberships')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['league_id', 'user_id']).doUpdateSet({
        status: row.status,
        updated_at: row.updated_at,
        ...(setLevel && { level: row.level }),
      }),
    )
    .returningAll()
    .executeTakeFirstOrThrow()
}

/** The person's official memberships of the league (each of their user rows), under a row lock. */
export async function lockOfficialMembershipsOf(
  trx: Transaction<Db>,
  leagueId: string,
  userIds: readonly string[],
): Promise<MembershipRow[]> {
  if (userIds.length === 0) return []
  const query = trx
    .selectFrom('memberships')
    .selectAll()
    .where('league_id', '=', leagueId)
    .where('user_id', 'in', userIds)
    .where('role', '=', 'official')
    .orderBy('seq')
  return isPostgres(trx) ? query.forUpdate().execute() : query.execute()
}

/** Marks the memberships joined, keeping the time of a join already made. */
export async function confirmMemberships(db: Kysely<Db>, ids: readonly string[], at: string): Promise<void> {
  if (ids.length === 0) return
  await db
    .updateTable('memberships')
    .set({ confirmed_at: at, updated_at: at })
    .where('id', 'in', ids)
    .where('confirmed_at', 'is', null)
    .execute()
}

/** Whether any user row carrying the address joined the league. */
export async function hasJoined(db: Kysely<Db>, leagueId: string, email: string): Promise<boolean> {
  const row = await db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select('memberships.id')
    .where('memberships.league_id', '=', leagueId)
    .where('users.email', '=', email)
    .where('memberships.confirmed_at', 'is not', null)
    .executeTakeFirst()
  return row !== undefined
}
