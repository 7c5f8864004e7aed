// Who may be mailed what: the kinds a person turned off, their unsubscribe tokens, the zone they chose for
// their mail, and consent's bounds (the leagues an address joined, its Invited mails, its daily count,
// and a stop of all mail until its owner signs in).
import type { Kysely } from 'kysely'
import { insertRows } from './bulk.js'
import type { NotificationKind } from './app-tables.js'
import type { Db } from './tables.js'

/** The opted-out (address, kind) pairs among these addresses. */
export async function listOptouts(
  db: Kysely<Db>,
  emails: readonly string[],
): Promise<{ email: string; kind: NotificationKind }[]> {
  if (emails.length === 0) return []
  return db
    .selectFrom('notification_optouts')
    .select(['email', 'kind'])
    .where('email', 'in', [...new Set(emails)])
    .execute()
}

export async function listProfileZones(
  db: Kysely<Db>,
  emails: readonly string[],
): Promise<{ email: string; time_zone: string }[]> {
  if (emails.length === 0) return []
  return (
    db
      .selectFrom('profiles')
      .select(['email', 'time_zone'])
      .where('email', 'in', [...new Set(emails)])
      // A zone nobody chose is no one's: the mail shows the game's league's.
      .where('time_zone_chosen_at', 'is not', null)
      .execute()
  )
}

export async function insertUnsubscribeTokens(
  db: Kysely<Db>,
  rows: readonly { token_hash: string; email: string; kind: NotificationKind | 'all'; created_at: string }[],
): Promise<void> {
  if (rows.length === 0) return
  await insertRows(db, 'unsubscribe_tokens', ['token_hash', 'email', 'kind', 'created_at'], rows)
}

/** The address and kind an unsubscribe token was issued for. */
export function findUnsubscribeToken(
  db: Kysely<Db>,
  tokenHash: string,
): Promise<{ email: string; kind: NotificationKind | 'all' } | undefined> {
  return db
    .selectFrom('unsubscribe_tokens')
    .select(['email', 'kind'])
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst()
}

/** The address gets no more mail of these kinds (already off stays off). */
export async function addOptouts(
  db: Kysely<Db>,
  email: string,
  kinds: readonly NotificationKind[],
  at: string,
): Promise<void> {
  if (kinds.length === 0) return
  await db
    .insertInto('notification_optouts')
    .values(kinds.map((kind) => ({ email, kind, created_at: at })))
    .onConflict((oc) => oc.columns(['email', 'kind']).doNothing())
    .execute()
}

export async function removeOptouts(
  db: Kysely<Db>,
  email: string,
  kinds: readonly NotificationKind[],
): Promise<void> {
  if (kinds.length === 0) return
  await db.deleteFrom('notification_optouts').where('email', '=', email).where('kind', 'in', kinds).execute()
}

/** Which (address, league) pairs among these are joined: a confirmed membership of a user carrying it. */
export async function listJoinedPairs(
  db: Kysely<Db>,
  emails: readonly string[],
  leagueIds: readonly string[],
): Promise<{ email: string; league_id: string }[]> {
  if (emails.length === 0 || leagueIds.length === 0) return []
  return db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select(['users.email', 'memberships.league_id'])
    .where('users.email', 'in', emails)
    .where('memberships.league_id', 'in', leagueIds)
    .where('memberships.confirmed_at', 'is not', null)
    .execute()
}

/** Which (address, league) pairs among these already have their `invited` mail. */
export async function listInvitedPairs(
  db: Kysely<Db>,
  emails: readonly string[],
  leagueIds: readonly string[],
): Promise<{ email: string; league_id: string }[]> {
  if (emails.length === 0 || leagueIds.length === 0) return []
  return db
    .selectFrom('notifications')
    .select(['email', 'league_id'])
    .where('kind', '=', 'invited')
    .where('email', 'in', emails)
    .where('league_id', 'in', leagueIds)
    .execute()
}

/** How many notifications each address was queued for leagues it had not joined since `since`. */
export async function countUnjoinedSince(
  db: Kysely<Db>,
  emails: readonly string[],
  since: string,
): Promise<Map<string, number>> {
  if (emails.length === 0) return new Map()
  const rows = await db
    .selectFrom('notifications')
    .select(['email', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('email', 'in', emails)
    .where('unjoined', '=', 1)
    .where('created_at', '>', since)
    .groupBy('email')
    .execute()
  return new Map(rows.map((r) => [r.email, Number(r.n)]))
}

/** The addresses among these whose owner stopped all mail. */
export async function listMailStops(db: Kysely<Db>, emails: readonly string[]): Promise<Set<string>> {
  if (emails.length === 0) return new Set()
  const rows = await db.selectFrom('mail_stops').select('email').where('email', 'in', emails).execute()
  return new Set(rows.map((r) => r.email))
}

export async function addMailStop(db: Kysely<Db>, email: string, at: string): Promise<void> {
  await db
    .insertInto('mail_stops')
    .values({ email, created_at: at })
    .onConflict((oc) => oc.column('email').doNothing())
    .execute()
}

export async function removeMailStop(db: Kysely<Db>, email: string): Promise<void> {
  await db.deleteFrom('mail_stops').where('email', '=', email).execute()
}
