// The notification outbox's leases: one sender at a time holds a row (FOR UPDATE SKIP LOCKED on PostgreSQL, a
// conditional update inside an IMMEDIATE transaction on SQLite), and its outcome is settled only under the
// lease it was sent under, so a row whose lease ran out and was taken again is settled by its new holder.
import { sql, type Kysely } from 'kysely'
import { isPostgres } from './dialect.js'
import type { Db } from './tables.js'
import type { NotificationRow, NotificationStatus } from './app-tables.js'

export interface NotificationLeaseRequest {
  owner: string
  now: string
  until: string
  limit: number
}

/** Leases up to `limit` due notifications, oldest due first; no two senders get the same row. */
export async function leaseDueNotifications(
  db: Kysely<Db>,
  req: NotificationLeaseRequest,
): Promise<NotificationRow[]> {
  if (req.limit <= 0) return []
  const due = (handle: Kysely<Db>) =>
    handle
      .selectFrom('notifications')
      .select('id')
      .where('status', '=', 'pending')
      .where('due_at', '<=', req.now)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', req.now)]))
      .orderBy('due_at')
      .orderBy('seq')
      .limit(req.limit)
  const take = (handle: Kysely<Db>, ids: ReturnType<typeof due> | string[]) =>
    handle
      .updateTable('notifications')
      .set({ lease_owner: req.owner, lease_until: req.until })
      .where('id', 'in', ids)
      .where('status', '=', 'pending')
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', req.now)]))
      .returningAll()
      .execute()
  // PostgreSQL checks the conditions again on the locked row version: a row another sender leased meanwhile
  // is passed over, never leased twice.
  if (isPostgres(db)) return take(db, due(db).forUpdate().skipLocked())
  return db.transaction().execute(async (trx) => {
    const ids = (await due(trx).execute()).map((r) => r.id)
    return ids.length === 0 ? [] : take(trx, ids)
  })
}

/** A finished attempt, or a decision not to send, for one leased notification. */
export interface NotificationOutcome {
  id: string
  lease: { owner: string; until: string }
  status: NotificationStatus
  attempts: number
  lastError: string | null
  dueAt: string
  sentAt: string | null
}

/**
 * Settles outcomes in one statement, each only while the lease it was sent under still holds; answers the
 * ids recorded.
 */
export async function recordOutcomes(
  db: Kysely<Db>,
  outcomes: readonly NotificationOutcome[],
): Promise<Set<string>> {
  const recorded = new Set<string>()
  for (let start = 0; start < outcomes.length; start += 500) {
    const chunk = outcomes.slice(start, start + 500)
    const values = sql.join(
      chunk.map(
        (o) =>
          sql`(${o.id}, ${o.lease.owner}, ${o.lease.until}, ${o.status}, cast(${o.attempts} as integer),
            ${o.lastError}, ${o.dueAt}, ${o.sentAt})`,
      ),
    )
    const { rows } = await sql<{ id: string }>`
      with v (id, owner, lease_until, status, attempts, last_error, due_at, sent_at) as (values ${values})
      update notifications
      set status = v.status, attempts = v.attempts, last_error = v.last_error, due_at = v.due_at,
        sent_at = v.sent_at, lease_owner = null, lease_until = null
      from v
      where notifications.id = v.id and notifications.lease_owner = v.owner
        and notifications.lease_until = v.lease_until
      returning notifications.id`.execute(db)
    for (const row of rows) recorded.add(row.id)
  }
  return recorded
}

/** When the next pending notification falls due (a reminder, a retry, an expired lease). */
export async function nextNotificationDueAt(db: Kysely<Db>): Promise<string | null> {
  const row = await db
    .selectFrom('notifications')
    .select(sql<string | null>`min(coalesce(lease_until, due_at))`.as('at'))
    .where('status', '=', 'pending')
    .executeTakeFirst()
  return row?.at ?? null
}
