// The transactional outbox: event rows written in the same transaction as the change they describe, and
// the wake-up that tells dispatchers new deliveries exist. In process the signal may fire before commit:
// on SQLite the dispatcher's next query queues behind the transaction's connection; on PostgreSQL the
// NOTIFY, delivered at commit, wakes every listening dispatcher (this process's included) again.
import { EventEmitter } from 'node:events'
import { sql, type Kysely, type Transaction } from 'kysely'
import pg from 'pg'
import { insertRows } from './bulk.js'
import { isPostgres } from './dialect.js'
import type { Db, NewOutboxEvent, OutboxEventRow } from './tables.js'

const CHANNEL = 'refdesk_deliveries'

const signal = new EventEmitter().setMaxListeners(0)

export async function appendEvents(trx: Transaction<Db>, rows: readonly NewOutboxEvent[]): Promise<void> {
  await insertRows(trx, 'outbox_events', ['id', 'event', 'league_id', 'data', 'created_at'], rows)
}

export function listEvents(db: Kysely<Db>, leagueId?: string): Promise<OutboxEventRow[]> {
  let query = db.selectFrom('outbox_events').selectAll().orderBy('seq')
  if (leagueId !== undefined) query = query.where('league_id', '=', leagueId)
  return query.execute()
}

/** Called inside the transaction that created deliveries. */
export async function announceDeliveries(trx: Transaction<Db>): Promise<void> {
  if (isPostgres(trx)) await sql`select pg_notify(${CHANNEL}, '')`.execute(trx)
  signal.emit('deliveries')
}

export function onDeliveries(listener: () => void): () => void {
  signal.on('deliveries', listener)
  return () => signal.off('deliveries', listener)
}

export interface Listener {
  close(): Promise<void>
}

/**
 * LISTENs on a dedicated PostgreSQL connection; reconnects after a drop (calling `listener` then too,
 * since notifications may have been missed).
 */
export function listenForDeliveries(
  url: string,
  listener: () => void,
  onError: (e: unknown) => void,
): Listener {
  let client: pg.Client | undefined
  let closed = false
  let retry: NodeJS.Timeout | undefined
  const connect = async () => {
    const next = new pg.Client({ connectionString: url })
    next.on('notification', listener)
    next.on('error', (error) => {
      onError(error)
      void next.end().catch(() => undefined)
      if (!closed) retry = setTimeout(() => void connect(), 1000)
    })
    try {
      await next.connect()
      await next.query(`listen ${CHANNEL}`)
      client = next
      if (closed) await next.end()
      else listener()
    } catch (error) {
      onError(error)
      await next.end().catch(() => undefined)
      if (!closed) retry = setTimeout(() => void connect(), 1000)
    }
  }
  void connect()
  return {
    async close() {
      closed = true
      clearTimeout(retry)
      await client?.end().catch(() => undefined)
    },
  }
}
