// The transactional outbox: event rows written in the same transaction as the change they describe, the
// dispatchers' claim on events still to expand into deliveries, and the wake-up that tells dispatchers
// there is work (events to expand, deliveries to send). In process the signal may fire before commit: on
// SQLite the dispatcher's next query queues behind the transaction's connection; on PostgreSQL the NOTIFY,
// delivered at commit, wakes every listening dispatcher (this process's included) again.
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

/** An example event for one endpoint: never expanded to others, its envelope marked `"test": true`. */
export async function insertTestEvent(trx: Transaction<Db>, row: NewOutboxEvent): Promise<void> {
  await trx
    .insertInto('outbox_events')
    .values({ ...row, test: 1, fanned_out_at: row.created_at })
    .execute()
}

export function listEvents(db: Kysely<Db>, leagueId?: string): Promise<OutboxEventRow[]> {
  let query = db.selectFrom('outbox_events').selectAll().orderBy('seq')
  if (leagueId !== undefined) query = query.where('league_id', '=', leagueId)
  return query.execute()
}

/**
 * The oldest events not yet expanded into deliveries, locked until the transaction ends (PostgreSQL skips
 * rows another dispatcher holds; SQLite's IMMEDIATE transaction already excludes every other writer).
 */
export function lockUnexpanded(trx: Transaction<Db>, limit: number): Promise<OutboxEventRow[]> {
  const query = trx
    .selectFrom('outbox_events')
    .selectAll()
    .where('fanned_out_at', 'is', null)
    .orderBy('seq')
    .limit(limit)
  return isPostgres(trx) ? query.forUpdate().skipLocked().execute() : query.execute()
}

/** How many committed events wait to be expanded (the partial index answers it). */
export async function countUnexpanded(db: Kysely<Db>): Promise<number> {
  const row = await db
    .selectFrom('outbox_events')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('fanned_out_at', 'is', null)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

export async function markExpanded(trx: Transaction<Db>, ids: readonly string[], at: string): Promise<void> {
  if (ids.length === 0) return
  await trx.updateTable('outbox_events').set({ fanned_out_at: at }).where('id', 'in', ids).execute()
}

/** Called inside a transaction that wrote events or deliveries. */
export async function announceWork(trx: Transaction<Db>): Promise<void> {
  if (isPostgres(trx)) await sql`select pg_notify(${CHANNEL}, '')`.execute(trx)
  signal.emit('deliveries')
}

export function onWork(listener: () => void): () => void {
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
export function listenForWork(url: string, listener: () => void, onError: (e: unknown) => void): Listener {
  return listenOnChannel(url, CHANNEL, listener, onError)
}

/** `listenForWork` on any channel (the notification outbox has its own). */
export function listenOnChannel(
  url: string,
  channel: string,
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
      await next.query(`listen ${channel}`)
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
