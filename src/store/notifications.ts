// The notification outbox's rows: written inside the transaction of the change that causes them, leased by
// one sender at a time and settled under that lease (notification-leases.ts). Reminders wait in the same
// table for their time; moving a game earlier brings them forward (the sender re-arms one whose game moved
// later), cancelling it drops them. The wake-up mirrors the webhook outbox's on a channel of its own, so a
// notification never wakes the webhook dispatcher and the reverse.
import { EventEmitter } from 'node:events'
import { sql, type ExpressionBuilder, type Kysely, type Transaction } from 'kysely'
import { insertRows } from './bulk.js'
import { isPostgres } from './dialect.js'
import { listenOnChannel, type Listener } from './outbox.js'
import type { Db } from './tables.js'
import type { NewNotification } from './app-tables.js'
import type { NotificationPayload } from '../schemas/notifications.js'
import { HOUR_MS, minutesBetween, SECOND_MS } from '../time.js'

const CHANNEL = 'refdesk_notifications'
const signal = new EventEmitter().setMaxListeners(0)

const COLUMNS = [
  'id',
  'kind',
  'email',
  'user_id',
  'league_id',
  'game_id',
  'position_id',
  'payload',
  'status',
  'attempts',
  'last_error',
  'created_at',
  'due_at',
  'unjoined',
] as const

export async function insertNotifications(
  trx: Transaction<Db>,
  rows: readonly NewNotification[],
): Promise<void> {
  if (rows.length === 0) return
  await insertRows(trx, 'notifications', COLUMNS, rows)
  if (isPostgres(trx)) await sql`select pg_notify(${CHANNEL}, '')`.execute(trx)
  signal.emit('notifications')
}

/** Wakes this process's senders; on PostgreSQL also `listenForNotifications` in other processes. */
export function onNotifications(listener: () => void): () => void {
  signal.on('notifications', listener)
  return () => signal.off('notifications', listener)
}

export function listenForNotifications(
  url: string,
  listener: () => void,
  onError: (error: unknown) => void,
): Listener {
  return listenOnChannel(url, CHANNEL, listener, onError)
}

/** A position's holder as a notification addresses them. */
export interface HolderRow {
  position_id: string
  game_id: string
  user_id: string
  starts_at: string
}

/** Who holds a claimed position in the games (cancelled games' too: their holders keep their claims). */
export async function listHolders(
  db: Kysely<Db>,
  gameIds: readonly string[],
  statuses: readonly ('claimed' | 'completed')[] = ['claimed'],
): Promise<HolderRow[]> {
  if (gameIds.length === 0) return []
  return db
    .selectFrom('claims')
    .innerJoin('positions', 'positions.id', 'claims.position_id')
    .innerJoin('games', 'games.id', 'positions.game_id')
    .select(['positions.id as position_id', 'positions.game_id', 'claims.user_id', 'games.starts_at'])
    .where('positions.game_id', 'in', gameIds)
    .where('positions.status', 'in', statuses)
    .orderBy('positions.seq')
    .execute()
}

/** What a notification says about its position, game and league, as the change left them. */
export interface PositionContextRow {
  position_id: string
  label: string
  pay_cents: number
  game_id: string
  sport: string
  starts_at: string
  ends_at: string
  location: string
  league_id: string
  league_name: string
  league_time_zone: string
  currency: string
  organizer_id: string
  league_source: string
}

/** What every mail says of its game: written into the payload when queued, read again for a reminder when sent. */
export type PayloadGame = Pick<
  NotificationPayload,
  'label' | 'sport' | 'startsAt' | 'durationMinutes' | 'location' | 'leagueName' | 'leagueTimeZone'
>

export function payloadGame(c: PositionContextRow): PayloadGame {
  return {
    label: c.label,
    sport: c.sport,
    startsAt: c.starts_at,
    durationMinutes: minutesBetween(c.starts_at, c.ends_at),
    location: c.location,
    leagueName: c.league_name,
    leagueTimeZone: c.league_time_zone,
  }
}

/**
 * The one rule of a reminder's time: `reminderHours` before its game starts (ms). The services queue and move
 * reminders by it, the sender re-arms one whose game moved later by it, and `moveReminders` says it in SQL.
 */
export const reminderAt = (startsAt: string, reminderHours: number): number =>
  Date.parse(startsAt) - reminderHours * HOUR_MS

const POSITION_CONTEXT = [
  'positions.id as position_id',
  'positions.label',
  'positions.pay_cents',
  'games.id as game_id',
  'games.sport',
  'games.starts_at',
  'games.ends_at',
  'games.location',
  'leagues.id as league_id',
  'leagues.name as league_name',
  'leagues.time_zone as league_time_zone',
  'leagues.currency',
  'leagues.organizer_id',
  'leagues.source as league_source',
] as const

export async function listPositionContext(
  db: Kysely<Db>,
  positionIds: readonly string[],
): Promise<PositionContextRow[]> {
  if (positionIds.length === 0) return []
  return db
    .selectFrom('positions')
    .innerJoin('games', 'games.id', 'positions.game_id')
    .innerJoin('leagues', 'leagues.id', 'games.league_id')
    .select(POSITION_CONTEXT)
    .where('positions.id', 'in', positionIds)
    .execute()
}

/** A holder with their mails' context, and their reminder: waiting, sent (a pending one wins), or none. */
export type HolderContextRow = PositionContextRow & { user_id: string; reminder: 'pending' | 'sent' | null }

/**
 * `listHolders` with each position's context and each holder's reminder, in one read: what a change's
 * notifications to the holders say (`listPositionContext`), and whether they still need a reminder.
 */
export async function listHolderContexts(
  db: Kysely<Db>,
  gameIds: readonly string[],
): Promise<HolderContextRow[]> {
  if (gameIds.length === 0) return []
  return db
    .selectFrom('claims')
    .innerJoin('positions', 'positions.id', 'claims.position_id')
    .innerJoin('games', 'games.id', 'positions.game_id')
    .innerJoin('leagues', 'leagues.id', 'games.league_id')
    .select([...POSITION_CONTEXT, 'claims.user_id'])
    .select((eb) =>
      eb
        .selectFrom('notifications')
        // 'pending' sorts before 'sent'.
        .select((r) => r.fn.min<'pending' | 'sent'>('notifications.status').as('status'))
        .whereRef('notifications.game_id', '=', 'games.id')
        .where('notifications.kind', '=', 'reminder')
        .whereRef('notifications.position_id', '=', 'positions.id')
        .whereRef('notifications.user_id', '=', 'claims.user_id')
        .where('notifications.status', 'in', ['pending', 'sent'])
        .as('reminder'),
    )
    .where('positions.game_id', 'in', gameIds)
    .where('positions.status', '=', 'claimed')
    .orderBy('positions.seq')
    .execute()
}

export async function listRecipients(
  db: Kysely<Db>,
  userIds: readonly string[],
): Promise<{ id: string; email: string; name: string }[]> {
  if (userIds.length === 0) return []
  return db.selectFrom('users').select(['id', 'email', 'name']).where('id', 'in', userIds).execute()
}

/**
 * The notifications of these positions, found through their games' index: there is no index by position
 * (migration 0019), so that a queued mail costs one random index entry fewer.
 */
const ofPositions = (positionIds: readonly string[]) => (eb: ExpressionBuilder<Db, 'notifications'>) =>
  eb.and([
    eb(
      'notifications.game_id',
      'in',
      eb.selectFrom('positions').select('positions.game_id').where('positions.id', 'in', positionIds),
    ),
    eb('notifications.position_id', 'in', positionIds),
  ])

/** Waiting reminders of these games (or of these positions only) will not be sent. */
export async function dropReminders(
  trx: Transaction<Db>,
  by: { gameIds: readonly string[] } | { positionIds: readonly string[] },
): Promise<void> {
  const ids = 'gameIds' in by ? by.gameIds : by.positionIds
  if (ids.length === 0) return
  await trx
    .updateTable('notifications')
    .set({ status: 'dropped', lease_owner: null, lease_until: null })
    .where('gameIds' in by ? (eb) => eb('game_id', 'in', ids) : ofPositions(ids))
    .where('kind', '=', 'reminder')
    .where('status', '=', 'pending')
    .execute()
}

/**
 * Brings the waiting reminders of these games (already rewritten) forward: due `reminderAt` the game's new
 * start, or at `at` when that has passed, their lease released so a send in flight settles nothing. One
 * statement per 500 games, the due times computed from the games themselves: on SQLite, 500 single-game
 * statements or an UPDATE … FROM a VALUES list cost more than the reminders they move.
 */
export async function moveReminders(
  trx: Transaction<Db>,
  gameIds: readonly string[],
  move: { at: string; reminderHours: number },
): Promise<void> {
  const seconds = (move.reminderHours * HOUR_MS) / SECOND_MS
  // The same instants JavaScript's toISOString gives.
  const dueAt = isPostgres(trx)
    ? sql`greatest(to_char((g.starts_at::timestamptz - make_interval(secs => ${seconds})) at time zone 'UTC',
        'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), ${move.at})`
    : sql`max(strftime('%Y-%m-%dT%H:%M:%fZ', g.starts_at, ${`-${seconds} seconds`}), ${move.at})`
  for (let start = 0; start < gameIds.length; start += 500) {
    const ids = gameIds.slice(start, start + 500)
    await sql`
      update notifications
      set due_at = ${dueAt}, lease_owner = null, lease_until = null
      from games g
      where g.id = notifications.game_id and notifications.game_id in (${sql.join(ids)})
        and notifications.kind = 'reminder' and notifications.status = 'pending'`.execute(trx)
  }
}

/** A `changed` notification as the Schedule's marks read it. */
export interface ChangedRow {
  position_id: string
  user_id: string | null
  created_at: string
  payload: string
}

/** The `changed` notifications written for the positions, oldest first (their holders then and now). */
export async function listChanged(db: Kysely<Db>, positionIds: readonly string[]): Promise<ChangedRow[]> {
  if (positionIds.length === 0) return []
  return db
    .selectFrom('notifications')
    .select(['position_id', 'user_id', 'created_at', 'payload'])
    .where(ofPositions(positionIds))
    .where('kind', '=', 'changed')
    .orderBy('seq')
    .$narrowType<{ position_id: string }>()
    .execute()
}

/** A `turnback` notification: which position, when, and the payload naming who gave it back. */
export interface TurnbackRow {
  position_id: string
  created_at: string
  payload: string
}

/** The positions' turnbacks, oldest first (one per withdrawal: its organizer's mail). */
export async function listTurnbacks(db: Kysely<Db>, positionIds: readonly string[]): Promise<TurnbackRow[]> {
  if (positionIds.length === 0) return []
  return db
    .selectFrom('notifications')
    .select(['position_id', 'created_at', 'payload'])
    .where(ofPositions(positionIds))
    .where('kind', '=', 'turnback')
    .orderBy('seq')
    .$narrowType<{ position_id: string }>()
    .execute()
}
