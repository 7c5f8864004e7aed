// The assignor's reads (the open positions of a window, the league's approved officials with their levels
// and home points) and its plans, stored as drafts with their JSON parts.
import { sql, type Kysely } from 'kysely'
import { approvedOfficial } from './scope.js'
import type { Db } from './tables.js'
import type { AssignmentPlanRow } from './app-tables.js'

export interface OpenSlotRow {
  position_id: string
  position_seq: number
  label: string
  min_level: number | null
  game_id: string
  starts_at: string
  ends_at: string
  location: string
  venue: string | null
  sport: string
  latitude: number | null
  longitude: number | null
  /** 1 (or true) when the position is its game's lead: no position created before it is cancelled. */
  is_lead: number | boolean
}

/**
 * Open positions of the league's games that are neither cancelled nor completed, starting in [from, to),
 * each with whether it is its game's lead (DESIGN "The centre first": the first position, in creation
 * order, that is not cancelled).
 */
export function listOpenSlots(
  db: Kysely<Db>,
  leagueId: string,
  window: { from: string; to: string },
): Promise<OpenSlotRow[]> {
  return slots(db)
    .where('games.league_id', '=', leagueId)
    .where('games.status', 'in', ['open', 'claimed'])
    .where('positions.status', '=', 'open')
    .where('games.starts_at', '>=', window.from)
    .where('games.starts_at', '<', window.to)
    .orderBy('games.starts_at')
    .orderBy('games.seq')
    .orderBy('positions.seq')
    .execute()
}

/** The positions of a plan as slots, whatever their status now: what an edit of the plan checks. */
export function listPlanSlots(
  db: Kysely<Db>,
  leagueId: string,
  positionIds: readonly string[],
): Promise<OpenSlotRow[]> {
  if (positionIds.length === 0) return Promise.resolve([])
  return slots(db)
    .where('games.league_id', '=', leagueId)
    .where('positions.id', 'in', positionIds)
    .orderBy('games.starts_at')
    .orderBy('games.seq')
    .orderBy('positions.seq')
    .execute()
}

function slots(db: Kysely<Db>) {
  return db
    .selectFrom('positions')
    .innerJoin('games', 'games.id', 'positions.game_id')
    .select([
      'positions.id as position_id',
      'positions.seq as position_seq',
      'positions.label',
      'positions.min_level',
      'games.id as game_id',
      'games.starts_at',
      'games.ends_at',
      'games.location',
      'games.venue',
      'games.sport',
      'games.latitude',
      'games.longitude',
      sql<number | boolean>`not exists (
        select 1 from positions earlier
        where earlier.game_id = positions.game_id
          and earlier.status <> 'cancelled'
          and earlier.seq < positions.seq
      )`.as('is_lead'),
    ])
}

export interface PoolOfficialRow {
  user_id: string
  name: string
  email: string
  level: number | null
  home_latitude: number | null
  home_longitude: number | null
  /** When they joined the league; null: unconfirmed (DESIGN "Consent"). */
  confirmed_at: string | null
}

/** The league's approved officials, oldest membership first, with their level and their person's home point. */
export function listPool(db: Kysely<Db>, leagueId: string): Promise<PoolOfficialRow[]> {
  return db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .leftJoin('profiles', 'profiles.email', 'users.email')
    .select([
      'users.id as user_id',
      'users.name',
      'users.email',
      'memberships.level',
      'profiles.home_latitude',
      'profiles.home_longitude',
      'memberships.confirmed_at',
    ])
    .where('memberships.league_id', '=', leagueId)
    .where(approvedOfficial)
    .orderBy('memberships.seq')
    .execute()
}

export async function insertPlan(db: Kysely<Db>, row: Omit<AssignmentPlanRow, 'seq'>): Promise<void> {
  await db.insertInto('assignment_plans').values(row).execute()
}

export function findPlan(db: Kysely<Db>, id: string): Promise<AssignmentPlanRow | undefined> {
  return db.selectFrom('assignment_plans').selectAll().where('id', '=', id).executeTakeFirst()
}

/** Deletes the league's drafts but the newest `kept`; published plans stay (the record of what was assigned). */
export async function pruneDrafts(db: Kysely<Db>, leagueId: string, kept: number): Promise<void> {
  const newest = db
    .selectFrom('assignment_plans')
    .select('seq')
    .where('league_id', '=', leagueId)
    .where('status', '=', 'draft')
    .orderBy('seq', 'desc')
    .limit(kept)
  await db
    .deleteFrom('assignment_plans')
    .where('league_id', '=', leagueId)
    .where('status', '=', 'draft')
    .where('seq', 'not in', newest)
    .execute()
}

/**
 * A draft's new proposals, unfilled positions and stats, if it is still the draft `was` read (its
 * proposals unchanged): false when a publish or another edit got there first.
 */
export async function updateDraft(
  db: Kysely<Db>,
  id: string,
  was: string,
  parts: { proposals: string; unfilled: string; stats: string },
): Promise<boolean> {
  const result = await db
    .updateTable('assignment_plans')
    .set(parts)
    .where('id', '=', id)
    .where('status', '=', 'draft')
    .where('proposals', '=', was)
    .executeTakeFirst()
  return result.numUpdatedRows > 0n
}

/** draft → published, once: false when another publish got there first. */
export async function markPublished(db: Kysely<Db>, id: string, at: string): Promise<boolean> {
  const result = await db
    .updateTable('assignment_plans')
    .set({ status: 'published', published_at: at })
    .where('id', '=', id)
    .where('status', '=', 'draft')
    .executeTakeFirst()
  return result.numUpdatedRows > 0n
}

export async function setOutcome(db: Kysely<Db>, id: string, outcome: string): Promise<void> {
  await db.updateTable('assignment_plans').set({ outcome }).where('id', '=', id).execute()
}

export async function findHomePoint(
  db: Kysely<Db>,
  email: string,
): Promise<{ home_latitude: number | null; home_longitude: number | null } | undefined> {
  return db
    .selectFrom('profiles')
    .select(['home_latitude', 'home_longitude'])
    .where('email', '=', email)
    .executeTakeFirst()
}

export async function setHomePoint(
  db: Kysely<Db>,
  email: string,
  point: { latitude: number | null; longitude: number | null },
  defaults: { timeZone: string; at: string },
): Promise<void> {
  const home = { home_latitude: point.latitude, home_longitude: point.longitude }
  await db
    .insertInto('profiles')
    .values({
      email,
      time_zone: defaults.timeZone,
      created_at: defaults.at,
      updated_at: defaults.at,
      ...home,
    })
    .onConflict((oc) => oc.column('email').doUpdateSet({ ...home, updated_at: defaults.at }))
    .execute()
}
