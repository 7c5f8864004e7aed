// Test data for payments, written straight into the tables: leagues, officials, and games whose positions
// are already claimed, without going through the game and assignment services.
import type { Kysely } from 'kysely'
import { newId, nowIso } from '../../src/domain/clock.js'
import { rollupStatus } from '../../src/domain/game-status.js'
import type { Db, PaymentMode, PositionStatus } from '../../src/store/tables.js'

export async function seedUser(db: Kysely<Db>, name = 'Official'): Promise<string> {
  const at = nowIso()
  const id = newId()
  await db
    .insertInto('users')
    .values({
      id,
      source: 'app',
      external_id: null,
      email: `${id}@example.test`,
      name,
      created_at: at,
      updated_at: at,
    })
    .execute()
  return id
}

/** A league of the given source (default `app`) with its organizer membership. */
export async function seedLeague(
  db: Kysely<Db>,
  options: { source?: string; paymentMode?: PaymentMode; currency?: string } = {},
): Promise<string> {
  const at = nowIso()
  const id = newId()
  const organizer = await seedUser(db, 'Organizer')
  await db
    .insertInto('leagues')
    .values({
      id,
      source: options.source ?? 'app',
      external_id: null,
      name: 'League',
      payment_mode: options.paymentMode ?? 'offline',
      currency: options.currency ?? 'usd',
      organizer_id: organizer,
      created_at: at,
      updated_at: at,
    })
    .execute()
  await addMember(db, id, organizer, 'organizer')
  return id
}

export async function addMember(
  db: Kysely<Db>,
  leagueId: string,
  userId: string,
  role: 'organizer' | 'official' = 'official',
): Promise<void> {
  const at = nowIso()
  await db
    .insertInto('memberships')
    .values({
      id: newId(),
      league_id: leagueId,
      user_id: userId,
      role,
      status: 'approved',
      created_at: at,
      updated_at: at,
    })
    .execute()
}

export interface Slot {
  payCents?: number
  /** The user holding the claim; omitted → an open position (unless `status` says otherwise). */
  officialId?: string
  status?: PositionStatus
}

export interface SeededGame {
  gameId: string
  positionIds: string[]
}

/** A game with one position per slot; the game's status is the rollup of the slots. */
export async function seedGame(
  db: Kysely<Db>,
  leagueId: string,
  slots: readonly Slot[],
  startsAt = '2026-05-01T18:00:00.000Z',
): Promise<SeededGame> {
  const at = nowIso()
  const gameId = newId()
  const statuses = slots.map((s) => s.status ?? (s.officialId ? 'claimed' : 'open'))
  const league = await db
    .selectFrom('leagues')
    .select('source')
    .where('id', '=', leagueId)
    .executeTakeFirstOrThrow()
  await db
    .insertInto('games')
    .values({
      id: gameId,
      league_id: leagueId,
      source: league.source,
      external_id: null,
      sport: 'soccer',
      starts_at: startsAt,
      location: 'Field 1',
      latitude: null,
      longitude: null,
      status: rollupStatus('open', statuses),
      created_at: at,
      updated_at: at,
    })
    .execute()
  const positionIds: string[] = []
  for (const [i, slot] of slots.entries()) {
    const positionId = newId()
    positionIds.push(positionId)
    await db
      .insertInto('positions')
      .values({
        id: positionId,
        game_id: gameId,
        label: `Official ${i + 1}`,
        pay_cents: slot.payCents ?? 0,
        status: statuses[i]!,
        created_at: at,
        updated_at: at,
      })
      .execute()
    if (slot.officialId) {
      await db
        .insertInto('claims')
        .values({
          id: newId(),
          position_id: positionId,
          user_id: slot.officialId,
          status: 'confirmed',
          created_at: at,
        })
        .execute()
    }
  }
  return { gameId, positionIds }
}

/** A league member holding the claims of a one-position game: the usual starting point of a payment test. */
export async function seedClaimedGame(
  db: Kysely<Db>,
  leagueId: string,
  payCents = 4500,
): Promise<SeededGame & { officialId: string }> {
  const officialId = await seedUser(db)
  await addMember(db, leagueId, officialId)
  return { ...(await seedGame(db, leagueId, [{ payCents, officialId }])), officialId }
}

export async function eventsOf(db: Kysely<Db>, leagueId: string): Promise<{ event: string; data: any }[]> {
  const rows = await db
    .selectFrom('outbox_events')
    .select(['event', 'data'])
    .where('league_id', '=', leagueId)
    .orderBy('seq')
    .execute()
  return rows.map((r) => ({ event: r.event, data: JSON.parse(r.data) }))
}
