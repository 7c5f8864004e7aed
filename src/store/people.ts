// A person of the app is an email address: the user rows carrying it, their profile and calendar feed.
import { sql, type Kysely, type RawBuilder } from 'kysely'
import type { Db } from './tables.js'

/**
 * The one rule of a person's time zone, as SQL over the column holding their address: the zone chosen on
 * Profile, else their first league's (first membership, else first organized league); null in no league.
 * The session's person (sessions.ts) and `findPersonZones` both read it.
 */
export function personZone(emailColumn: string): RawBuilder<string | null> {
  const email = sql.ref(emailColumn)
  return sql<string | null>`coalesce(
    (select p.time_zone from profiles p where p.email = ${email} and p.time_zone_chosen_at is not null),
    (select l.time_zone from memberships m
      join users u on u.id = m.user_id join leagues l on l.id = m.league_id
      where u.email = ${email} order by m.seq limit 1),
    (select l.time_zone from leagues l join users u on u.id = l.organizer_id
      where u.email = ${email} order by l.seq limit 1))`
}

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

/** Each address's time zone by `personZone`; absent for an address in no league that chose none. */
export async function findPersonZones(
  db: Kysely<Db>,
  emails: readonly string[],
): Promise<Map<string, string>> {
  if (emails.length === 0) return new Map()
  const list = [...new Set(emails)]
  const rows = await db
    .selectFrom((eb) =>
      eb
        .selectFrom('users')
        .select('email')
        .where('email', 'in', list)
        .union(eb.selectFrom('profiles').select('email').where('email', 'in', list))
        .as('people'),
    )
    .select(['people.email', personZone('people.email').as('time_zone')])
    .execute()
  return new Map(rows.flatMap((r) => (r.time_zone === null ? [] : [[r.email, r.time_zone] as const])))
}
