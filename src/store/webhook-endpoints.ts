// Webhook endpoints belong to a source; `key_id` remembers the registering key for its league grants.
import type { Kysely, Transaction } from 'kysely'
import type { Db, NewWebhookEndpoint, WebhookEndpointRow } from './tables.js'

export async function insertEndpoint(db: Kysely<Db>, row: NewWebhookEndpoint): Promise<WebhookEndpointRow> {
  return db.insertInto('webhook_endpoints').values(row).returningAll().executeTakeFirstOrThrow()
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

/** Endpoints that may see events of the league: same source, or the registering (live) key holds a grant. */
export function endpointsForLeague(
  trx: Transaction<Db>,
  league: { id: string; source: string },
): Promise<Pick<WebhookEndpointRow, 'id' | 'events'>[]> {
  return trx
    .selectFrom('webhook_endpoints as e')
    .select(['e.id', 'e.events'])
    .where((eb) =>
      eb.or([
        eb('e.source', '=', league.source),
        eb.exists(
          eb
            .selectFrom('key_grants as g')
            .innerJoin('api_keys as k', 'k.id', 'g.key_id')
            .select('g.key_id')
            .whereRef('g.key_id', '=', 'e.key_id')
            .where('g.league_id', '=', league.id)
            .where('k.revoked_at', 'is', null),
        ),
      ]),
    )
    .orderBy('e.seq')
    .execute()
}
