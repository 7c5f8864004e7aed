// A person of the app is an email address: the user rows carrying it, their profile and calendar feed.
import type { Kysely } from 'kysely'
import type { Db } from './tables.js'

export async function hasUserWithEmail(db: Kysely<Db>, email: string): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()
  return row !== undefined
}

export async function upsertTimeZone(
  db: Kysely<Db>,
  email: string,
  timeZone: string,
  at: string,
): Promise<void> {
  await db
    .insertInto('profiles')
    .values({ email, time_zone: timeZone, created_at: at, updated_at: at })
    .onConflict((oc) => oc.column('email').doUpdateSet({ time_zone: timeZone, updated_at: at }))
    .execute()
}

/** Sets the address's one feed token; the previous token, if any, stops matching at once. */
export async function replaceCalendarFeed(
  db: Kysely<Db>,
  email: string,
  tokenHash: string,
  at: string,
): Promise<void> {
  await db
    .insertInto('calendar_feeds')
    .values({ email, token_hash: tokenHash, created_at: at })
    .onConflict((oc) => oc.column('email').doUpdateSet({ token_hash: tokenHash, created_at: at }))
    .execute()
}

export async function findCalendarFeed(
  db: Kysely<Db>,
  by: { email: string } | { tokenHash: string },
): Promise<{ email: string; created_at: string } | undefined> {
  const query = db.selectFrom('calendar_feeds').select(['email', 'created_at'])
  return (
    'email' in by ? query.where('email', '=', by.email) : query.where('token_hash', '=', by.tokenHash)
  ).executeTakeFirst()
}

/** The user ids carrying the address, oldest first. */
export async function listUserIdsByEmail(db: Kysely<Db>, email: string): Promise<string[]> {
  const rows = await db.selectFrom('users').select('id').where('email', '=', email).orderBy('seq').execute()
  return rows.map((r) => r.id)
}
