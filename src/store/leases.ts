// Leases let any number of dispatchers share the deliveries table: a row is due when pending, its next
// attempt time has come and no live lease holds it. Attempts and their outcomes are recorded under the lease.
import { sql, type Kysely, type Transaction } from 'kysely'
import { insertRows } from './bulk.js'
import { isPostgres } from './dialect.js'
import type { Db, DeliveryRow, NewAttempt } from './tables.js'
import { recordHealth, type HealthCheck } from './webhook-endpoints.js'

const ATTEMPT_COLUMNS = ['delivery_id', 'attempted_at', 'status_code', 'error', 'duration_ms'] as const

export interface LeaseRequest {
  owner: string
  now: string
  until: string
  limit: number
  /** How many more rows this dispatcher takes per endpoint… */
  room: ReadonlyMap<string, number>
  /** …and for an endpoint not in `room`. */
  defaultRoom: number
  /**
   * How many more rows this dispatcher takes per source (the source owning the endpoint), and for a source
   * not in `sourceRoom`: one source's backlog never fills a lease, however many endpoints it has.
   */
  sourceRoom: ReadonlyMap<string, number>
  defaultSourceRoom: number
  /**
   * Rows this dispatcher still has an attempt out for, past their lease: leasing one again would send a
   * second copy and void the first one's record, round after round when answers outlast leases.
   */
  exclude: readonly string[]
}

/** Leases up to `limit` due deliveries, oldest due first; no two dispatchers get the same row. */
export async function leaseDue(db: Kysely<Db>, req: LeaseRequest): Promise<DeliveryRow[]> {
  if (req.limit <= 0) return []
  if (isPostgres(db)) {
    // The ranking subquery reads a snapshot; the conditions are checked again on the locked row version,
    // so a row another dispatcher leased meanwhile is passed over rather than leased twice.
    const locked = db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('id', 'in', dueIds(db, req))
      .where('status', '=', 'pending')
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', req.now)]))
      .forUpdate()
      .skipLocked()
    return db
      .updateTable('webhook_deliveries')
      .set({ lease_owner: req.owner, lease_until: req.until })
      .where('id', 'in', locked)
      .returningAll()
      .execute()
  }
  // SQLite transactions begin IMMEDIATE: the select and the conditional update run under the write lock.
  return db.transaction().execute(async (trx) => {
    const ids = (await dueIds(trx, req).execute()).map((r) => r.id)
    if (ids.length === 0) return []
    return trx
      .updateTable('webhook_deliveries')
      .set({ lease_owner: req.owner, lease_until: req.until })
      .where('id', 'in', ids)
      .where('status', '=', 'pending')
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', req.now)]))
      .returningAll()
      .execute()
  })
}

/** A room per key as SQL: `case when r.<column> = … then n … else default end`. */
function roomOf(column: 'endpoint_id' | 'source', rooms: readonly [string, number][], fallback: number) {
  if (rooms.length === 0) return sql.lit(fallback)
  return sql`case ${sql.join(
    rooms.map(([key, n]) => sql`when ${sql.ref(`r.${column}`)} = ${key} then ${sql.lit(n)}`),
    sql` `,
  )} else ${sql.lit(fallback)} end`
}

// Ranking due rows within each endpoint and within each source caps the lease at each one's room, so a
// busy endpoint's backlog is neither leased nor handed back, and one source's many endpoints take no more
// of a lease than its share.
function dueIds(db: Kysely<Db>, req: LeaseRequest) {
  const full = [...req.room].filter(([, n]) => n <= 0).map(([id]) => id)
  const partial = [...req.room].filter(([, n]) => n > 0)
  const fullSources = [...req.sourceRoom].filter(([, n]) => n <= 0).map(([source]) => source)
  const partialSources = [...req.sourceRoom].filter(([, n]) => n > 0)
  const room = roomOf('endpoint_id', partial, req.defaultRoom)
  const sourceRoom = roomOf('source', partialSources, req.defaultSourceRoom)
  let due = db
    .selectFrom('webhook_deliveries')
    .select(['id', 'endpoint_id', 'source', 'next_attempt_at', 'seq'])
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', req.now)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', req.now)]))
  if (full.length > 0) due = due.where('endpoint_id', 'not in', full)
  if (fullSources.length > 0) due = due.where('source', 'not in', fullSources)
  if (req.exclude.length > 0) due = due.where('id', 'not in', req.exclude)
  // Ranking only the earliest rows keeps the lease cheap under a large backlog; an endpoint that fills
  // them reaches its bound and is skipped next time, which lets the others through.
  const earliest = due
    .orderBy('next_attempt_at')
    .orderBy('seq')
    .limit(req.limit * 2)
  const ranked = db
    .selectFrom(earliest.as('e'))
    .selectAll()
    .select([
      sql<number>`row_number() over (partition by endpoint_id order by next_attempt_at, seq)`.as('rank'),
      sql<number>`row_number() over (partition by source order by next_attempt_at, seq)`.as('source_rank'),
    ])
  return db
    .selectFrom(ranked.as('r'))
    .select('r.id')
    .where(sql<boolean>`r.rank <= ${room}`)
    .where(sql<boolean>`r.source_rank <= ${sourceRoom}`)
    .orderBy('r.next_attempt_at')
    .orderBy('r.seq')
    .limit(req.limit)
}

export interface DeliveryJob {
  id: string
  endpointId: string
  /** The source that owns the endpoint: attempts are shared fairly between sources. */
  source: string
  attempts: number
  leaseUntil: string
  url: string
  secret: string
  eventId: string
  event: string
  createdAt: string
  data: string
  /** 1 for an example sent by `POST /webhooks/{webhookId}/test`. */
  test?: number
}

export async function loadJobs(db: Kysely<Db>, ids: readonly string[]): Promise<DeliveryJob[]> {
  if (ids.length === 0) return []
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .innerJoin('outbox_events as o', 'o.id', 'd.event_id')
    .select([
      'd.id',
      'd.endpoint_id as endpointId',
      'd.source',
      'd.attempts',
      sql<string>`d.lease_until`.as('leaseUntil'),
      'e.url',
      'e.secret',
      'o.id as eventId',
      'o.event',
      'o.created_at as createdAt',
      'o.data',
      'o.test',
    ])
    .where('d.id', 'in', ids)
    .execute()
}

/** A lease: who holds it and until when. A dispatcher's later lease of the same row is another lease. */
export interface Lease {
  owner: string
  until: string
}

export interface AttemptOutcome {
  lease: Lease
  attempt: NewAttempt
  status: DeliveryRow['status']
  attempts: number
  nextAttemptAt: string | null
  deliveredAt: string | null
}

/** A lease to extend: a row whose attempt is still out, held until `until` from now on. */
export interface LeaseRenewal {
  id: string
  lease: Lease
  until: string
}

export interface LeasedWrites {
  renewals: readonly LeaseRenewal[]
  outcomes: readonly AttemptOutcome[]
}

/**
 * Renews leases and records finished attempts in one transaction (group commit), each only while its
 * lease still holds, and with them the health of their endpoints when `health` is given. Answers, per
 * renewal and per outcome, whether it was written. An outcome whose lease is renewed in the same batch is
 * recorded under the renewed lease. The caller updates its leases (`lease.until`) once this resolves.
 */
export async function recordAttempts(
  db: Kysely<Db>,
  { renewals, outcomes }: LeasedWrites,
  health?: HealthCheck,
): Promise<{ renewed: boolean[]; recorded: boolean[] }> {
  if (outcomes.length === 0 && renewals.length === 0) return { renewed: [], recorded: [] }
  return db.transaction().execute(async (trx) => {
    const renewedIds = new Set(await renewLeased(trx, renewals))
    const renewedUntil = new Map<Lease, string>()
    for (const r of renewals) if (renewedIds.has(r.id)) renewedUntil.set(r.lease, r.until)
    const untilOf = (o: AttemptOutcome) => renewedUntil.get(o.lease) ?? o.lease.until
    const recorded = new Set<AttemptOutcome>()
    // Per endpoint, whether its latest recorded attempt in this batch succeeded.
    const latest = new Map<string, { at: string; ok: boolean }>()
    for (const statement of distinctDeliveryBatches(outcomes)) {
      const settled = new Map((await settleLeased(trx, statement, untilOf)).map((r) => [r.id, r.endpoint_id]))
      for (const outcome of statement) {
        const endpointId = settled.get(outcome.attempt.delivery_id)
        if (endpointId === undefined) continue
        recorded.add(outcome)
        const at = outcome.attempt.attempted_at
        const seen = latest.get(endpointId)
        if (!seen || seen.at <= at) latest.set(endpointId, { at, ok: outcome.deliveredAt !== null })
      }
    }
    const attempts = outcomes.filter((o) => recorded.has(o)).map((o) => o.attempt)
    await insertRows(trx, 'webhook_attempts', ATTEMPT_COLUMNS, attempts)
    if (health) {
      const ids = (ok: boolean) => [...latest].filter(([, l]) => l.ok === ok).map(([id]) => id)
      await recordHealth(trx, { succeeded: ids(true), failed: ids(false) }, health)
    }
    return {
      renewed: renewals.map((r) => renewedIds.has(r.id)),
      recorded: outcomes.map((o) => recorded.has(o)),
    }
  })
}

/** Extends each lease that still holds (same owner, same end); answers the ids extended. */
async function renewLeased(trx: Transaction<Db>, renewals: readonly LeaseRenewal[]): Promise<string[]> {
  const extended: string[] = []
  for (let i = 0; i < renewals.length; i += RECORD_CHUNK) {
    const values = sql.join(
      renewals
        .slice(i, i + RECORD_CHUNK)
        .map((r) => sql`(${r.id}, ${r.lease.owner}, ${r.lease.until}, ${r.until})`),
    )
    const { rows } = await sql<{ id: string }>`
      with v (id, owner, lease_until, renewed_until) as (values ${values})
      update webhook_deliveries set lease_until = v.renewed_until
      from v
      where webhook_deliveries.id = v.id and webhook_deliveries.lease_owner = v.owner
        and webhook_deliveries.lease_until = v.lease_until and webhook_deliveries.status = 'pending'
      returning webhook_deliveries.id`.execute(trx)
    extended.push(...rows.map((r) => r.id))
  }
  return extended
}

/**
 * The outcomes split into statements of at most RECORD_CHUNK, none naming a delivery twice. One delivery
 * can finish twice in a batch (an attempt that outlived its lease, and the one sent under the next
 * lease); in separate statements, an id the UPDATE returns names exactly one outcome.
 */
function distinctDeliveryBatches(outcomes: readonly AttemptOutcome[]): AttemptOutcome[][] {
  const batches: { ids: Set<string>; outcomes: AttemptOutcome[] }[] = []
  for (const outcome of outcomes) {
    const id = outcome.attempt.delivery_id
    let batch = batches.find((b) => b.outcomes.length < RECORD_CHUNK && !b.ids.has(id))
    if (!batch) batches.push((batch = { ids: new Set(), outcomes: [] }))
    batch.ids.add(id)
    batch.outcomes.push(outcome)
  }
  return batches.map((b) => b.outcomes)
}

// Ten parameters per outcome, well under both databases' bind-parameter limits.
const RECORD_CHUNK = 500

/** One UPDATE … FROM a VALUES list for the whole batch; answers the deliveries whose lease still held. */
async function settleLeased(
  trx: Transaction<Db>,
  outcomes: readonly AttemptOutcome[],
  untilOf: (outcome: AttemptOutcome) => string,
): Promise<{ id: string; endpoint_id: string }[]> {
  const values = sql.join(
    outcomes.map(
      (o) =>
        sql`(${o.attempt.delivery_id}, ${o.lease.owner}, ${untilOf(o)}, ${o.status},
          cast(${o.attempts} as integer), cast(${o.attempt.status_code ?? null} as integer), ${o.attempt.error ?? null},
          ${o.attempt.attempted_at}, ${o.nextAttemptAt}, ${o.deliveredAt})`,
    ),
  )
  // A CTE names the VALUES columns on both SQLite and PostgreSQL.
  const { rows } = await sql<{ id: string; endpoint_id: string }>`
    with v (id, owner, lease_until, status, attempts, status_code, error, attempted_at, next_attempt_at,
      delivered_at) as (values ${values})
    update webhook_deliveries
    set status = v.status, attempts = v.attempts, last_status_code = v.status_code, last_error = v.error,
      last_attempt_at = v.attempted_at, next_attempt_at = v.next_attempt_at, delivered_at = v.delivered_at,
      lease_owner = null, lease_until = null
    from v
    where webhook_deliveries.id = v.id and webhook_deliveries.lease_owner = v.owner
      and webhook_deliveries.lease_until = v.lease_until
    returning webhook_deliveries.id, webhook_deliveries.endpoint_id`.execute(trx)
  return rows
}

/** Gives leased rows back untouched (shutdown, a lease too near its end), each only under its own lease. */
export async function releaseLeases(
  db: Kysely<Db>,
  owner: string,
  jobs: readonly { id: string; leaseUntil: string }[],
): Promise<void> {
  const byLease = new Map<string, string[]>()
  for (const job of jobs) {
    const ids = byLease.get(job.leaseUntil)
    if (ids) ids.push(job.id)
    else byLease.set(job.leaseUntil, [job.id])
  }
  for (const [until, ids] of byLease) {
    await db
      .updateTable('webhook_deliveries')
      .set({ lease_owner: null, lease_until: null })
      .where('id', 'in', ids)
      .where('lease_owner', '=', owner)
      .where('lease_until', '=', until)
      .execute()
  }
}

/** Pushes a leased, not yet attempted delivery to a later time (the schedule's first delay). */
export async function postpone(db: Kysely<Db>, lease: Lease, id: string, at: string): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ next_attempt_at: at, lease_owner: null, lease_until: null })
    .where('id', '=', id)
    .where('lease_owner', '=', lease.owner)
    .where('lease_until', '=', lease.until)
    .execute()
}

/** How many deliveries are pending, and when the oldest of them was created (the metrics' backlog). */
export async function backlog(db: Kysely<Db>): Promise<{ pending: number; oldestCreatedAt: string | null }> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select([sql<number>`count(*)`.as('pending'), sql<string | null>`min(created_at)`.as('oldest')])
    .where('status', '=', 'pending')
    .executeTakeFirst()
  return { pending: Number(row?.pending ?? 0), oldestCreatedAt: row?.oldest ?? null }
}

/** The earliest time a pending delivery becomes due, to time the next wake-up. */
export async function nextDueAt(db: Kysely<Db>): Promise<string | null> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select(sql<string | null>`min(next_attempt_at)`.as('at'))
    .where('status', '=', 'pending')
    .where('lease_until', 'is', null)
    .executeTakeFirst()
  return row?.at ?? null
}
