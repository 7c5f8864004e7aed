// Rows written straight into the tables through Kysely, for states no endpoint reaches on its own (games with
// several positions, worked and no-show positions, claimed games, payments). One function per row kind, each
// with defaults a test overrides only where it matters.
import type { Kysely } from 'kysely'
import { isoNow, newId, systemClock } from '../../src/clock.js'
import type { Deps } from '../../src/domain/core/deps.js'
import { rollupStatus } from '../../src/domain/games/game-status.js'
import { joinersByEmail, joinLeague } from '../../src/domain/leagues/consent.js'
import type {
  Db,
  GameStatus,
  MembershipRole,
  MembershipStatus,
  PaymentMode,
  PaymentStatus,
  PositionStatus,
} from '../../src/store/tables.js'

export async function seedUser(
  db: Kysely<Db>,
  overrides: { name?: string; source?: string; externalId?: string; email?: string } = {},
): Promise<string> {
  const at = isoNow(systemClock)
  const id = newId()
  await db
    .insertInto('users')
    .values({
      id,
      source: overrides.source ?? 'app',
      external_id: overrides.externalId ?? null,
      email: overrides.email ?? `${id}@example.test`,
      name: overrides.name ?? 'Official',
      created_at: at,
      updated_at: at,
    })
    .execute()
  return id
}

/** A league (default source `app`) with its organizer's membership; a new organizer unless one is given. */
export async function seedLeague(
  db: Kysely<Db>,
  overrides: {
    name?: string
    source?: string
    externalId?: string
    paymentMode?: PaymentMode
    currency?: string
    organizerId?: string
  } = {},
): Promise<string> {
  const at = isoNow(systemClock)
  const id = newId()
  const organizerId = overrides.organizerId ?? (await seedUser(db, { name: 'Organizer' }))
  await db
    .insertInto('leagues')
    .values({
      id,
      source: overrides.source ?? 'app',
      external_id: overrides.externalId ?? null,
      name: overrides.name ?? 'League',
      payment_mode: overrides.paymentMode ?? 'offline',
      currency: overrides.currency ?? 'usd',
      organizer_id: organizerId,
      created_at: at,
      updated_at: at,
    })
    .execute()
  await seedMembership(db, id, organizerId, { role: 'organizer' })
  return id
}

/** Default: an approved official who has not joined the league (DESIGN "Consent"). */
export async function seedMembership(
  db: Kysely<Db>,
  leagueId: string,
  userId: string,
  overrides: { role?: MembershipRole; status?: MembershipStatus; joined?: boolean } = {},
): Promise<void> {
  const at = isoNow(systemClock)
  await db
    .insertInto('memberships')
    .values({
      id: newId(),
      league_id: leagueId,
      user_id: userId,
      role: overrides.role ?? 'official',
      status: overrides.status ?? 'approved',
      confirmed_at: overrides.joined === true || overrides.role === 'organizer' ? at : null,
      created_at: at,
      updated_at: at,
    })
    .execute()
}

export interface PositionFixture {
  label?: string
  payCents?: number
  /** Default: `claimed` when `officialId` is given, else `open`. */
  status?: PositionStatus
  /** The user holding a confirmed claim on the position; omitted → no claim. */
  officialId?: string
  minLevel?: number
}

export interface GameFixture {
  startsAt?: string
  /** Default: the rollup of the positions' statuses, as the services would store it. */
  status?: GameStatus
  externalId?: string
  /** The game's own length; default none: it lasts its league's gameMinutes. */
  durationMinutes?: number
  /** Default `Field 1`: seeded games share one place, so only overlap conflicts between them. */
  location?: string
  /** Default: one open position labelled `Official` paying 25.00. */
  positions?: readonly PositionFixture[]
}

export interface SeededGame {
  id: string
  positionIds: string[]
}

/** A game of the league's source with its positions (and their claims, where a position names an official). */
export async function seedGame(
  db: Kysely<Db>,
  leagueId: string,
  overrides: GameFixture = {},
): Promise<SeededGame> {
  const league = await db
    .selectFrom('leagues')
    .select(['source', 'game_minutes'])
    .where('id', '=', leagueId)
    .executeTakeFirstOrThrow()
  const positions = overrides.positions ?? [{}]
  const at = isoNow(systemClock)
  const id = newId()
  const startsAt = overrides.startsAt ?? '2030-05-01T18:00:00.000Z'
  const minutes = overrides.durationMinutes ?? league.game_minutes
  await db
    .insertInto('games')
    .values({
      id,
      league_id: leagueId,
      source: league.source,
      external_id: overrides.externalId ?? null,
      sport: 'soccer',
      starts_at: startsAt,
      duration_minutes: overrides.durationMinutes ?? null,
      ends_at: new Date(Date.parse(startsAt) + minutes * 60_000).toISOString(),
      location: overrides.location ?? 'Field 1',
      venue: null,
      latitude: null,
      longitude: null,
      status: overrides.status ?? rollupStatus('open', positions.map(positionStatus)),
      created_at: at,
      updated_at: at,
    })
    .execute()
  const positionIds: string[] = []
  for (const position of positions) positionIds.push(await seedPosition(db, id, position))
  return { id, positionIds }
}

const positionStatus = (p: PositionFixture): PositionStatus => p.status ?? (p.officialId ? 'claimed' : 'open')

/** A position of an existing game, claimed by `officialId` when given; the game's status is left as it is. */
export async function seedPosition(
  db: Kysely<Db>,
  gameId: string,
  overrides: PositionFixture = {},
): Promise<string> {
  const at = isoNow(systemClock)
  const id = newId()
  await db
    .insertInto('positions')
    .values({
      id,
      game_id: gameId,
      label: overrides.label ?? 'Official',
      pay_cents: overrides.payCents ?? 2500,
      status: positionStatus(overrides),
      min_level: overrides.minLevel ?? null,
      created_at: at,
      updated_at: at,
    })
    .execute()
  if (overrides.officialId) await seedClaim(db, id, overrides.officialId)
  return id
}

/** A confirmed claim row alone; the position's status is the caller's business. */
export async function seedClaim(db: Kysely<Db>, positionId: string, userId: string): Promise<void> {
  await db
    .insertInto('claims')
    .values({
      id: newId(),
      position_id: positionId,
      user_id: userId,
      status: 'confirmed',
      created_at: isoNow(systemClock),
    })
    .execute()
}

/** Default: a pending offline payment in usd. */
export async function seedPayment(
  db: Kysely<Db>,
  input: {
    positionId: string
    officialId: string
    leagueId: string
    amountCents: number
    currency?: string
    mode?: PaymentMode
    status?: PaymentStatus
  },
): Promise<string> {
  const at = isoNow(systemClock)
  const id = newId()
  await db
    .insertInto('payments')
    .values({
      id,
      position_id: input.positionId,
      official_id: input.officialId,
      league_id: input.leagueId,
      amount_cents: input.amountCents,
      currency: input.currency ?? 'usd',
      mode: input.mode ?? 'offline',
      status: input.status ?? 'pending',
      paid_at: null,
      failure_code: null,
      failure_message: null,
      created_at: at,
      updated_at: at,
    })
    .execute()
  return id
}

/**
 * The usual starting point of a payment test, built from the seeds above: a new official of the league
 * holding the claim of a one-position game.
 */
export async function seedClaimedGame(
  db: Kysely<Db>,
  leagueId: string,
  payCents = 4500,
  startsAt?: string,
): Promise<{ gameId: string; positionIds: string[]; officialId: string }> {
  const officialId = await seedUser(db)
  await seedMembership(db, leagueId, officialId)
  const game = await seedGame(db, leagueId, {
    positions: [{ payCents, officialId }],
    ...(startsAt !== undefined && { startsAt }),
  })
  return { gameId: game.id, positionIds: game.positionIds, officialId }
}

/** The league's outbox events in order, with `data` parsed. */
export async function eventsOf(db: Kysely<Db>, leagueId: string): Promise<{ event: string; data: any }[]> {
  const rows = await db
    .selectFrom('outbox_events')
    .select(['event', 'data'])
    .where('league_id', '=', leagueId)
    .orderBy('seq')
    .execute()
  return rows.map((r) => ({ event: r.event, data: JSON.parse(r.data) }))
}

/** An address no other test uses: a PostgreSQL run shares one database among a file's tests. */
export const uniqueEmail = (name: string): string => `${name}-${newId().slice(0, 8)}@example.com`

/** The persons with these addresses join the league (DESIGN "Consent"), as `refdesk app join` does. */
export async function joinLeagueAs(deps: Deps, leagueId: string, ...emails: string[]): Promise<void> {
  await joinLeague(deps, await joinersByEmail(deps, emails), leagueId)
}
