import type { Kysely } from 'kysely'
import type { ApiKeyRow, Db } from './tables.js'

export function insertKey(db: Kysely<Db>, row: Omit<ApiKeyRow, 'seq'>): Promise<ApiKeyRow> {
  return db.insertInto('api_keys').values(row).returningAll().executeTakeFirstOrThrow()
}

export function findKeyByHash(db: Kysely<Db>, keyHash: string): Promise<ApiKeyRow | undefined> {
  return db.selectFrom('api_keys').selectAll().where('key_hash', '=', keyHash).executeTakeFirst()
}

export function findKey(db: Kysely<Db>, id: string): Promise<ApiKeyRow | undefined> {
  return db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst()
}

export function listKeys(db: Kysely<Db>): Promise<ApiKeyRow[]> {
  return db.selectFrom('api_keys').selectAll().orderBy('seq').execute()
}

export async function revokeKey(db: Kysely<Db>, id: string, at: string): Promise<void> {
  await db
    .updateTable('api_keys')
    .set({ revoked_at: at })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .execute()
}

export async function grantedLeagueIds(db: Kysely<Db>, keyId: string): Promise<string[]> {
  const rows = await db.selectFrom('key_grants').select('league_id').where('key_id', '=', keyId).execute()
  return rows.map((r) => r.league_id)
}

export async function listGrants(db: Kysely<Db>): Promise<{ key_id: string; league_id: string }[]> {
  return db.selectFrom('key_grants').select(['key_id', 'league_id']).orderBy('created_at').execute()
}

export async function insertGrant(
  db: Kysely<Db>,
  keyId: string,
  leagueId: string,
  at: string,
): Promise<void> {
  await db
    .insertInto('key_grants')
    .values({ key_id: keyId, league_id: leagueId, created_at: at })
    .onConflict((oc) => oc.columns(['key_id', 'league_id']).doNothing())
    .execute()
}

export async function deleteGrant(db: Kysely<Db>, keyId: string, leagueId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('key_grants')
    .where('key_id', '=', keyId)
    .where('league_id', '=', leagueId)
    .executeTakeFirst()
  return result.numDeletedRows > 0n
}
