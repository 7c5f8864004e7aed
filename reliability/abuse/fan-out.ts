// What both fan-out tests measure against: a source at the endpoint cap importing a full batch of games,
// and the delivery rows its endpoints got.
import type { Kysely } from 'kysely'
import type { Db } from '../../src/store/tables.js'

export const ENDPOINTS = 16
export const GAMES = 500

/** A full import of new games, their externalIds prefixed so batches never overlap. */
export const gamesBatch = (prefix: string) => ({
  games: Array.from({ length: GAMES }, (_, i) => ({
    externalId: `${prefix}-${i}`,
    startsAt: new Date(Date.UTC(2026, 8, 1) + i * 3_600_000).toISOString(),
  })),
})

/** Delivery rows of every endpoint of the source. */
export async function deliveriesOf(db: Kysely<Db>, source: string): Promise<number> {
  const row = await db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('e.source', '=', source)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}
