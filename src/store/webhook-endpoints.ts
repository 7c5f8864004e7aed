// Webhook endpoints belong to a source; `key_id` remembers the registering key for its league grants.
import { sql, type Kysely, type Transaction } from 'kysely'
import { isPostgres } from './dialect.js'
import type { Db, NewWebhookEndpoint, WebhookEndpointRow } from './tables.js'

export async function insertEndpoint(db: Kysely<Db>, row: NewWebhookEndpoint): Promise<WebhookEndpointRow> {
  return db.insertInto('webhook_endpoints').values(row).returningAll().executeTakeFirstOrThrow()
}

/**
 * How many endpoints the source has, counted under a lock on the source held until the transaction ends
 * (a PostgreSQL advisory lock; SQLite's IMMEDIATE transaction already excludes every other writer).
 */
export async function lockAndCountEndpoints(trx: Transaction<Db>, source: string): Promise<number> {
  if (isPostgres(trx))
    await sql`select pg_advisory_xact_lock(hashtextextended(${`webhook_endpoints:${source}`}, 0))`.execute(
      trx,
    )
  const row = await trx
    .selectFrom('webhook_endpoints')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('source', '=', source)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

export function listEndpoints(db: Kysely<Db>, source: string): Promise<WebhookEndpointRow[]> {
  return db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('source', '=', source)
    .orderBy('seq', 'desc')
    .execute()
}

export function findEndpoint(
  db: Kysely<Db>,
  source: string,
  id: string,
): Promise<WebhookEndpointRow | undefined> {
  return db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('source', '=', source)
    .where('id', '=', id)
    .executeTakeFirst()
}

export async function deleteEndpoint(db: Kysely<Db>, source: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('webhook_endpoints')
    .where('source', '=', source)
    .where('id', '=', id)
    .executeTakeFirst()
  return result.numDeletedRows > 0n
}

/** Makes a disabled endpoint take events again; its failed deliveries stay failed (recover sends them). */
export function enableEndpoint(
  db: Kysely<Db>,
  source: string,
  id: string,
): Promise<WebhookEndpointRow | undefined> {
  return db
    .updateTable('webhook_endpoints')
    .set({ disabled_at: null, failing_since: null })
    .where('source', '=', source)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst()
}

/** The health clock's reading for one group commit. */
export interface HealthCheck {
  now: string
  /** An endpoint failing since this time or earlier is disabled. */
  disableFailingSince: string
}

/**
 * Endpoints whose latest attempt succeeded are healthy again; those whose latest failed are failing since
 * their first failure, and disabled once that is old enough. A disabled endpoint's pending deliveries fail
 * with `endpoint_disabled`, those an attempt in flight elsewhere just put back included.
 */
export async function recordHealth(
  trx: Transaction<Db>,
  endpoints: { succeeded: readonly string[]; failed: readonly string[] },
  check: HealthCheck,
): Promise<void> {
  if (endpoints.succeeded.length > 0)
    await trx
      .updateTable('webhook_endpoints')
      .set({ failing_since: null })
      .where('id', 'in', endpoints.succeeded)
      .where('failing_since', 'is not', null)
      .execute()
  if (endpoints.failed.length === 0) return
  await trx
    .updateTable('webhook_endpoints')
    .set({ failing_since: check.now })
    .where('id', 'in', endpoints.failed)
    .where('failing_since', 'is', null)
    .execute()
  await trx
    .updateTable('webhook_endpoints')
    .set({ disabled_at: check.now })
    .where('id', 'in', endpoints.failed)
    .where('disabled_at', 'is', null)
    .where('failing_since', '<=', check.disableFailingSince)
    .execute()
  const disabled = trx
    .selectFrom('webhook_endpoints')
    .select('id')
    .where('id', 'in', endpoints.failed)
    .where('disabled_at', 'is not', null)
  await trx
    .updateTable('webhook_deliveries')
    .set({ status: 'failed', next_attempt_at: null, last_error: 'endpoint_disabled' })
    .where('endpoint_id', 'in', disabled)
    .where('status', '=', 'pending')
    .execute()
}

export interface LeagueEndpoint extends Pick<
  WebhookEndpointRow,
  'id' | 'events' | 'created_at' | 'disabled_at' | 'source'
> {
  /** Since when the endpoint sees the league: its registration, or its key's grant if that came later. */
  sees_since: string
}

/**
 * Endpoints that may see events of the league: same source, or the registering (live) key holds a grant
 * on it. Each comes with the time from which it does.
 */
export async function endpointsForLeague(
  trx: Transaction<Db>,
  league: { id: string; source: string },
): Promise<LeagueEndpoint[]> {
  const rows = await trx
    .selectFrom('webhook_endpoints as e')
    .leftJoin('key_grants as g', (join) =>
      join.onRef('g.key_id', '=', 'e.key_id').on('g.league_id', '=', league.id),
    )
    .leftJoin('api_keys as k', 'k.id', 'g.key_id')
    .select([
      'e.id',
      'e.events',
      'e.created_at',
      'e.disabled_at',
      'e.source',
      'g.created_at as granted_at',
      'k.revoked_at',
    ])
    .where((eb) =>
      eb.or([
        eb('e.source', '=', league.source),
        eb.and([eb('g.key_id', 'is not', null), eb('k.revoked_at', 'is', null)]),
      ]),
    )
    .orderBy('e.seq')
    .execute()
  return rows.map((r) => ({
    id: r.id,
    events: r.events,
    created_at: r.created_at,
    disabled_at: r.disabled_at,
    source: r.source,
    sees_since:
      r.source === league.source || r.granted_at === null || r.granted_at < r.created_at
        ? r.created_at
        : r.granted_at,
  }))
}
