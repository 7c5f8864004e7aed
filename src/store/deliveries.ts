// Delivery rows and their attempts. Leases let any number of dispatchers share the table: a row is due
// when pending, its next attempt time has come and no live lease holds it.
import { sql, type ExpressionBuilder, type Kysely, type Transaction } from 'kysely'
import { insertRows } from './bulk.js'
import { isPostgres } from './dialect.js'
import type {
  Db,
  DeliveryRow,
  DeliveryStatus,
  NewAttempt,
  NewDelivery,
  WebhookEndpointRow,
} from './tables.js'
import { recordHealth, type HealthCheck } from './webhook-endpoints.js'

const DELIVERY_COLUMNS = [
  'id',
  'endpoint_id',
  'event_id',
  'event',
  'status',
  'attempts',
  'last_error',
  'created_at',
  'next_attempt_at',
] as const

export async function insertDeliveries(trx: Transaction<Db>, rows: readonly NewDelivery[]): Promise<void> {
  await insertRows(trx, 'webhook_deliveries', DELIVERY_COLUMNS, rows)
}

const ATTEMPT_COLUMNS = ['delivery_id', 'attempted_at', 'status_code', 'error', 'duration_ms'] as const

/** The endpoint whose deliveries a query reads: the source that owns it and the key that registered it. */
export type EndpointScope = Pick<WebhookEndpointRow, 'id' | 'source' | 'key_id'>

/**
 * Deliveries whose event the endpoint may see now: its own test examples, events of its source's leagues,
 * and events of leagues its registering key holds a grant on while the key is live. A grant withdrawn or a
 * key revoked takes another tenant's deliveries out of every listing, retry and recovery at once, though
 * the rows stay (the history is the endpoint's, the events are not).
 */
function eventInScope(endpoint: EndpointScope) {
  return (eb: ExpressionBuilder<Db, 'webhook_deliveries'>) =>
    eb.exists(
      eb
        .selectFrom('outbox_events as o')
        .leftJoin('leagues as l', 'l.id', 'o.league_id')
        .select(sql.lit(1).as('one'))
        .whereRef('o.id', '=', 'webhook_deliveries.event_id')
        .where((e) =>
          e.or([
            e('o.test', '=', 1),
            e('l.source', '=', endpoint.source),
            e(
              'o.league_id',
              'in',
              e
                .selectFrom('key_grants as g')
                .innerJoin('api_keys as k', 'k.id', 'g.key_id')
                .select('g.league_id')
                .where('g.key_id', '=', endpoint.key_id)
                .where('k.revoked_at', 'is', null),
            ),
          ]),
        ),
    )
}

export interface DeliveriesPageQuery {
  limit: number
  status?: DeliveryStatus | undefined
  /** Only deliveries older than this one, in the listing's order. */
  before?: { createdAt: string; seq: number } | undefined
}

/**
 * Newest first by (created_at, seq): a key no row ever changes, so paging by it never repeats or skips a
 * row, whatever is inserted meanwhile.
 */
export function listDeliveries(
  db: Kysely<Db>,
  endpoint: EndpointScope,
  query: DeliveriesPageQuery,
): Promise<DeliveryRow[]> {
  let rows = db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('endpoint_id', '=', endpoint.id)
    .where(eventInScope(endpoint))
  if (query.status !== undefined) rows = rows.where('status', '=', query.status)
  const before = query.before
  // A row-value comparison, which both databases answer with one range scan of the paging index (an OR
  // of the two conditions made 200-row pages of a 100,000-delivery endpoint 2× (PostgreSQL) to 8× slower).
  if (before !== undefined)
    rows = rows.where(sql<boolean>`(created_at, seq) < (${before.createdAt}, ${before.seq})`)
  return rows.orderBy('created_at', 'desc').orderBy('seq', 'desc').limit(query.limit).execute()
}

export function findDelivery(
  db: Kysely<Db>,
  endpoint: EndpointScope,
  id: string,
): Promise<DeliveryRow | undefined> {
  return db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('endpoint_id', '=', endpoint.id)
    .where('id', '=', id)
    .where(eventInScope(endpoint))
    .executeTakeFirst()
}

// Due now, under no lease: an attempt still in flight under the old lease is no longer recorded, the one
// sent now is.
const REQUEUED = { status: 'pending', lease_owner: null, lease_until: null } as const

/** Makes the delivery due at `now`, whatever its status. */
export function requeueDelivery(trx: Transaction<Db>, id: string, now: string): Promise<DeliveryRow> {
  return trx
    .updateTable('webhook_deliveries')
    .set({ ...REQUEUED, next_attempt_at: now })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow()
}

/** Makes the endpoint's failed deliveries created at or after `since` due at `now`; answers how many. */
export async function requeueFailed(
  trx: Transaction<Db>,
  endpoint: EndpointScope,
  since: string,
  now: string,
): Promise<number> {
  const result = await trx
    .updateTable('webhook_deliveries')
    .set({ ...REQUEUED, next_attempt_at: now })
    .where('endpoint_id', '=', endpoint.id)
    .where(eventInScope(endpoint))
    .where('status', '=', 'failed')
    .where('created_at', '>=', since)
    .executeTakeFirst()
  return Number(result.numUpdatedRows)
}

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

// Ranking due rows within each endpoint caps the lease at each endpoint's room, so a busy endpoint's
// backlog is neither leased nor handed back.
function dueIds(db: Kysely<Db>, req: LeaseRequest) {
  const full = [...req.room].filter(([, n]) => n <= 0).map(([id]) => id)
  const partial = [...req.room].filter(([, n]) => n > 0)
  const room =
    partial.length === 0
      ? sql.lit(req.defaultRoom)
      : sql`case ${sql.join(
          partial.map(([id, n]) => sql`when r.endpoint_id = ${id} then ${sql.lit(n)}`),
          sql` `,
        )} else ${sql.lit(req.defaultRoom)} end`
  let due = db
    .selectFrom('webhook_deliveries')
    .select(['id', 'endpoint_id', 'next_attempt_at', 'seq'])
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', req.now)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', req.now)]))
  if (full.length > 0) due = due.where('endpoint_id', 'not in', full)
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
    .select(
      sql<number>`row_number() over (partition by endpoint_id order by next_attempt_at, seq)`.as('rank'),
    )
  return db
    .selectFrom(ranked.as('r'))
    .select('r.id')
    .where(sql<boolean>`r.rank <= ${room}`)
    .orderBy('r.next_attempt_at')
    .orderBy('r.seq')
    .limit(req.limit)
}

export interface DeliveryJob {
  id: string
  endpointId: string
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

/**
 * Records finished attempts in one transaction (group commit), each outcome only while its lease still
 * holds, and with them the health of their endpoints when `health` is given. Answers, per outcome, whether
 * it was recorded.
 */
export async function recordAttempts(
  db: Kysely<Db>,
  outcomes: readonly AttemptOutcome[],
  health?: HealthCheck,
): Promise<boolean[]> {
  if (outcomes.length === 0) return []
  return db.transaction().execute(async (trx) => {
    const recorded = new Set<AttemptOutcome>()
    // Per endpoint, whether its latest recorded attempt in this batch succeeded.
    const latest = new Map<string, { at: string; ok: boolean }>()
    for (const statement of distinctDeliveryBatches(outcomes)) {
      const settled = new Map((await settleLeased(trx, statement)).map((r) => [r.id, r.endpoint_id]))
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
    return outcomes.map((o) => recorded.has(o))
  })
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
): Promise<{ id: string; endpoint_id: string }[]> {
  const values = sql.join(
    outcomes.map(
      (o) =>
        sql`(${o.attempt.delivery_id}, ${o.lease.owner}, ${o.lease.until}, ${o.status},
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
