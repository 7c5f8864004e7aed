// Single-use sign-in links and the counters that rate-limit asking for them.
import { sql, type Kysely } from 'kysely'
import type { Db } from './tables.js'

export async function insertLink(
  db: Kysely<Db>,
  row: { token_hash: string; email: string; created_at: string; expires_at: string },
): Promise<void> {
  await db
    .insertInto('sign_in_links')
    .values({ ...row, used_at: null })
    .execute()
}

/** The address of a link that is unused and unexpired at `at`. */
export async function findLiveLink(
  db: Kysely<Db>,
  tokenHash: string,
  at: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('sign_in_links')
    .select('email')
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', at)
    .executeTakeFirst()
  return row?.email
}

/**
 * Marks the link used if it is unused and unexpired: a conditional UPDATE, so of two redemptions of one link
 * racing on any number of processes exactly one gets the address.
 */
export async function consumeLink(
  db: Kysely<Db>,
  tokenHash: string,
  at: string,
): Promise<string | undefined> {
  const row = await db
    .updateTable('sign_in_links')
    .set({ used_at: at })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', at)
    .returning('email')
    .executeTakeFirst()
  return row?.email
}

export async function deleteLinksExpiredBefore(db: Kysely<Db>, at: string): Promise<void> {
  await db.deleteFrom('sign_in_links').where('expires_at', '<=', at).execute()
}

/**
 * Counts one hit on `key` in its fixed window and returns the window's count. A window that started before
 * `windowStartedAfter` is restarted at `at`. One statement, atomic on both databases.
 */
export async function countHit(
  db: Kysely<Db>,
  key: string,
  at: string,
  windowStartedAfter: string,
): Promise<number> {
  const stale = sql<boolean>`sign_in_limits.window_started_at <= ${windowStartedAfter}`
  const row = await db
    .insertInto('sign_in_limits')
    .values({ key, window_started_at: at, hits: 1 })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        hits: sql<number>`case when ${stale} then 1 else sign_in_limits.hits + 1 end`,
        window_started_at: sql<string>`case when ${stale} then ${at} else sign_in_limits.window_started_at end`,
      }),
    )
    .returning('hits')
    .executeTakeFirstOrThrow()
  return Number(row.hits)
}

export async function deleteLimitsStartedBefore(db: Kysely<Db>, at: string): Promise<void> {
  await db.deleteFrom('sign_in_limits').where('window_started_at', '<=', at).execute()
}
