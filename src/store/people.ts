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
    .values({ email, time_zone: timeZone, time_zone_chosen_at: at, created_at: at, updated_at: at })
    .onConflict((oc) =>
      oc.column('email').doUpdateSet({ time_zone: timeZone, time_zone_chosen_at: at, updated_at: at }),
    )
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

/**
 * Each address's time zone: the one chosen on Profile, else its first league's (first membership, else
 * first organized league); absent for an address in no league. The session's person reads the same rule
 * in its one query (sessions.ts).
 */
export async function findPersonZones(
  db: Kysely<Db>,
  emails: readonly string[],
): Promise<Map<string, string>> {
  const zones = new Map<string, string>()
  if (emails.length === 0) return zones
  const chosen = await db
    .selectFrom('profiles')
    .select(['email', 'time_zone'])
    .where('email', 'in', emails)
    .where('time_zone_chosen_at', 'is not', null)
    .execute()
  for (const r of chosen) zones.set(r.email, r.time_zone)
  const rest = emails.filter((e) => !zones.has(e))
  if (rest.length === 0) return zones
  const [members, organizers] = await Promise.all([
    db
      .selectFrom('memberships')
      .innerJoin('users', 'users.id', 'memberships.user_id')
      .innerJoin('leagues', 'leagues.id', 'memberships.league_id')
      .select(['users.email', 'leagues.time_zone'])
      .where('users.email', 'in', rest)
      .orderBy('memberships.seq')
      .execute(),
    db
      .selectFrom('leagues')
      .innerJoin('users', 'users.id', 'leagues.organizer_id')
      .select(['users.email', 'leagues.time_zone'])
      .where('users.email', 'in', rest)
      .orderBy('leagues.seq')
      .execute(),
  ])
  for (const r of [...members, ...organizers]) if (!zones.has(r.email)) zones.set(r.email, r.time_zone)
  return zones
}
