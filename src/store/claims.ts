// Claims: who holds a position. The unique claim per position is the backstop behind the conditional
// position UPDATE that decides a race.
import type { Kysely } from 'kysely'
import type { ClaimWithUser } from './positions.js'
import type { ClaimRow, Db, GameRow, PositionRow, UserRow } from './tables.js'

export async function insertClaim(db: Kysely<Db>, row: Omit<ClaimRow, 'seq'>): Promise<void> {
  await db.insertInto('claims').values(row).execute()
}

export async function findClaim(db: Kysely<Db>, positionId: string): Promise<ClaimWithUser | undefined> {
  const row = await db
    .selectFrom('claims')
    .innerJoin('users', 'users.id', 'claims.user_id')
    .selectAll('claims')
    .select(['users.name as user_name', 'users.email as user_email'])
    .where('claims.position_id', '=', positionId)
    .executeTakeFirst()
  if (!row) return undefined
  const { user_name, user_email, ...claim } = row
  return { ...claim, user: { id: claim.user_id, name: user_name, email: user_email } }
}

export async function deleteClaim(db: Kysely<Db>, positionId: string): Promise<void> {
  await db.deleteFrom('claims').where('position_id', '=', positionId).execute()
}

/** Whether the user holds a position of the game other than `positionId`. */
export async function holdsAnotherPosition(
  db: Kysely<Db>,
  taking: { gameId: string; userId: string; positionId: string },
): Promise<boolean> {
  const row = await db
    .selectFrom('claims')
    .innerJoin('positions', 'positions.id', 'claims.position_id')
    .select('claims.id')
    .where('positions.game_id', '=', taking.gameId)
    .where('claims.user_id', '=', taking.userId)
    .where('claims.position_id', '!=', taking.positionId)
    .executeTakeFirst()
  return row !== undefined
}

/** Positions of the league in status `claimed` whose claim is the user's, in creation order. */
export function listClaimedPositions(
  db: Kysely<Db>,
  leagueId: string,
  userId: string,
): Promise<PositionRow[]> {
  return db
    .selectFrom('positions')
    .innerJoin('claims', 'claims.position_id', 'positions.id')
    .innerJoin('games', 'games.id', 'positions.game_id')
    .selectAll('positions')
    .where('games.league_id', '=', leagueId)
    .where('claims.user_id', '=', userId)
    .where('positions.status', '=', 'claimed')
    .orderBy('positions.seq')
    .execute()
}

export interface LeagueClaim {
  game: GameRow
  position: PositionRow
  claim: Pick<ClaimWithUser, 'user'>
}

type LeagueClaimRow = GameRow & {
  position_seq: number
  position_id: string
  position_label: string
  position_pay_cents: number
  position_status: PositionRow['status']
  position_created_at: string
  position_updated_at: string
  position_min_level: PositionRow['min_level']
  user_id: string
  user_name: UserRow['name']
  user_email: string
}

/** A row of the claims ⋈ positions ⋈ games ⋈ users read, as a LeagueClaim. */
export const toLeagueClaim = ({
  position_seq,
  position_id,
  position_label,
  position_pay_cents,
  position_status,
  position_created_at,
  position_updated_at,
  position_min_level,
  user_id,
  user_name,
  user_email,
  ...game
}: LeagueClaimRow): LeagueClaim => ({
  game,
  position: {
    seq: position_seq,
    id: position_id,
    game_id: game.id,
    label: position_label,
    pay_cents: position_pay_cents,
    status: position_status,
    created_at: position_created_at,
    updated_at: position_updated_at,
    min_level: position_min_level,
  },
  claim: { user: { id: user_id, name: user_name, email: user_email } },
})
