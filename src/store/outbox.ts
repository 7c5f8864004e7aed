// The transactional outbox: event rows written in the same transaction as the change they describe.
import type { Kysely, Transaction } from 'kysely'
import type { Db, NewOutboxEvent, OutboxEventRow } from './tables.js'

// Bounded so one statement stays under SQLite's and PostgreSQL's bind-parameter limits.
const INSERT_CHUNK = 500

export async function appendEvents(trx: Transaction<Db>, rows: readonly NewOutboxEvent[]): Promise<void> {
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    await trx
      .insertInto('outbox_events')
      .values(rows.slice(i, i + INSERT_CHUNK))
      .execute()
  }
}

export function listEvents(db: Kysely<Db>, leagueId?: string): Promise<OutboxEventRow[]> {
  let query = db.selectFrom('outbox_events').selectAll().orderBy('seq')
  if (leagueId !== undefined) query = query.where('league_id', '=', leagueId)
  return query.execute()
}
