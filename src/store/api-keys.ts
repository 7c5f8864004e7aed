import type { Kysely } from 'kysely'
import { changeStamp } from './database.js'
import { prepared } from './prepared.js'
import type { ApiKeyRow, Db } from './tables.js'

export function insertKey(db: Kysely<Db>, row: Omit<ApiKeyRow, 'seq'>): Promise<ApiKeyRow> {
  return db.insertInto('api_keys').values(row).returningAll().executeTakeFirstOrThrow()
}

const keyWithGrants = prepared((db, p: { keyHash: string }) =>
  db
    .selectFrom('api_keys')
    .leftJoin('key_grants', 'key_grants.key_id', 'api_keys.id')
    .selectAll('api_keys')
    .select('key_grants.league_id')
    .where('api_keys.key_hash', '=', p.keyHash),
)

type KeyWithGrants = ApiKeyRow & { readonly grantedLeagueIds: readonly string[] }

/**
 * Keys read while the database stayed unchanged (`changeStamp`), by hash: a request of a key already seen
 * skips its lookup. Any write at all (a revocation, a grant, the last-use note, by this process or any
 * other) changes the stamp and empties the cache, so a revoked key is refused from the revocation's
 * commit on, exactly as without it. Only keys that exist are kept, so a stranger's guesses cannot fill
 * it; past MAX_CACHED_KEYS the rest are simply read each time.
 */
const keyCaches = new WeakMap<Kysely<Db>, { stamp: string; keys: Map<string, KeyWithGrants> }>()
const MAX_CACHED_KEYS = 10_000

/** The key with this hash and the leagues granted to it, in one round trip: every request starts here. */
export async function findKeyByHash(db: Kysely<Db>, keyHash: string): Promise<KeyWithGrants | undefined> {
  const stamp = changeStamp(db)
  if (stamp === undefined) return readKeyByHash(db, keyHash)
  let cache = keyCaches.get(db)
  if (cache?.stamp === stamp) {
    const hit = cache.keys.get(keyHash)
    if (hit) return hit
  } else keyCaches.set(db, (cache = { stamp, keys: new Map() }))
  // The stamp was read before the key: a write in between leaves this entry under a stale stamp.
  const key = await readKeyByHash(db, keyHash)
  if (key && cache.keys.size < MAX_CACHED_KEYS) cache.keys.set(keyHash, key)
  return key
}

async function readKeyByHash(db: Kysely<Db>, keyHash: string): Promise<KeyWithGrants | undefined> {
  const rows = await keyWithGrants.execute(db, { keyHash })
  const [first] = rows
  if (!first) return undefined
  const { league_id: _, ...key } = first
  const grantedLeagueIds = rows.flatMap((r) => (r.league_id === null ? [] : [r.league_id]))
  return Object.freeze({ ...key, grantedLeagueIds: Object.freeze(grantedLeagueIds) })
}

export function findKey(db: Kysely<Db>, id: string): Promise<ApiKeyRow | undefined> {
  return db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst()
}

export function listKeys(db: Kysely<Db>): Promise<ApiKeyRow[]> {
  return db.selectFrom('api_keys').selectAll().orderBy('seq').execute()
}

/** Sets the last use, unless another request of the same key did so after `staleBefore`. */
export async function noteUse(db: Kysely<Db>, id: string, at: string, staleBefore: string): Promise<void> {
  await db
    .updateTable('api_keys')
    .set({ last_used_at: at })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<=', staleBefore)]))
    .execute()
}

export async function revokeKey(db: Kysely<Db>, id: string, at: string): Promise<void> {
  await db
    .updateTable('api_keys')
    .set({ revoked_at: at })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .execute()
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
