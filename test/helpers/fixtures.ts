// Rows inserted straight through the store, for states no partner endpoint reaches on its own (games
// with several positions, worked and no-show positions, payments).
import { newId, nowIso } from '../../src/domain/clock.js'
import type { Deps } from '../../src/domain/deps.js'
import type { GameStatus, PaymentStatus, PositionStatus } from '../../src/store/tables.js'

export interface GameFixture {
  startsAt?: string
  status?: GameStatus
  externalId?: string
  /** Default: one open position labelled `Official` paying 25.00. */
  positions?: { label?: string; payCents?: number; status?: PositionStatus }[]
}

export interface CreatedGame {
  id: string
  positionIds: string[]
}

export async function createGame(
  deps: Deps,
  leagueId: string,
  fixture: GameFixture = {},
): Promise<CreatedGame> {
  const league = await deps.db
    .selectFrom('leagues')
    .select('source')
    .where('id', '=', leagueId)
    .executeTakeFirstOrThrow()
  const at = nowIso()
  const id = newId()
  await deps.db
    .insertInto('games')
    .values({
      id,
      league_id: leagueId,
      source: league.source,
      external_id: fixture.externalId ?? null,
      sport: 'soccer',
      starts_at: fixture.startsAt ?? '2030-05-01T18:00:00.000Z',
      location: 'Field 1',
      latitude: null,
      longitude: null,
      status: fixture.status ?? 'open',
      created_at: at,
      updated_at: at,
    })
    .execute()
  const positionIds: string[] = []
  for (const position of fixture.positions ?? [{}]) {
    const positionId = newId()
    await deps.db
      .insertInto('positions')
      .values({
        id: positionId,
        game_id: id,
        label: position.label ?? 'Official',
        pay_cents: position.payCents ?? 2500,
        status: position.status ?? 'open',
        created_at: at,
        updated_at: at,
      })
      .execute()
    positionIds.push(positionId)
  }
  return { id, positionIds }
}

/** A claim row alone; the position's status is the fixture's business. */
export async function insertClaim(deps: Deps, positionId: string, userId: string): Promise<void> {
  await deps.db
    .insertInto('claims')
    .values({
      id: newId(),
      position_id: positionId,
      user_id: userId,
      status: 'confirmed',
      created_at: nowIso(),
    })
    .execute()
}

export async function insertPayment(
  deps: Deps,
  input: {
    positionId: string
    officialId: string
    leagueId: string
    amountCents: number
    status?: PaymentStatus
  },
): Promise<string> {
  const id = newId()
  const at = nowIso()
  await deps.db
    .insertInto('payments')
    .values({
      id,
      position_id: input.positionId,
      official_id: input.officialId,
      league_id: input.leagueId,
      amount_cents: input.amountCents,
      currency: 'usd',
      mode: 'offline',
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
