// Turnbacks: who gave which game back, and how (`withdrew` from a position they held).
import type { Kysely } from 'kysely'
import type { Db } from './tables.js'
import type { TurnbackKind } from './app-tables.js'

export async function insertTurnback(
  db: Kysely<Db>,
  row: { id: string; game_id: string; user_id: string; kind: TurnbackKind; created_at: string },
): Promise<void> {
  await db.insertInto('turnbacks').values(row).execute()
}

/** The games' turnbacks, oldest first. */
export async function listTurnbacks(
  db: Kysely<Db>,
  gameIds: readonly string[],
): Promise<{ game_id: string; user_id: string; kind: TurnbackKind }[]> {
  if (gameIds.length === 0) return []
  const rows: { game_id: string; user_id: string; kind: TurnbackKind }[] = []
  for (let start = 0; start < gameIds.length; start += 500) {
    const ids = gameIds.slice(start, start + 500)
    rows.push(
      ...(await db
        .selectFrom('turnbacks')
        .select(['game_id', 'user_id', 'kind'])
        .where('game_id', 'in', ids)
        .orderBy('created_at')
        .execute()),
    )
  }
  return rows
}
