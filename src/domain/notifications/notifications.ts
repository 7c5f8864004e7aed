// Notifications are written like events: inside the transaction of the change that causes them, so a mail
// exists if and only if its change committed. `queueNotifications` is the one way in for every service
// (and for other helpers' services: the organizer's actions in the app, a published plan); the sender
// (src/notifications/) mails them afterwards. Reminders are rows due `reminderHours` before the game;
// moving the game moves them, cancelling it or losing the position drops them.
import type { Transaction } from 'kysely'
import type { NotificationKindName, NotificationPayload } from '../../schemas/notifications.js'
import * as store from '../../store/notifications.js'
import * as permissions from '../../store/mail-permissions.js'
import type { PositionContextRow } from '../../store/notifications.js'
import type { Db } from '../../store/tables.js'
import type { NewNotification } from '../../store/app-tables.js'
import { newId } from '../../clock.js'
import { DAY_MS, iso, minutesBetween } from '../../time.js'
import type { Deps } from '../core/deps.js'
import { inviterOf } from '../core/views.js'

/** @public Other services queue these (organizer actions in the app, a published plan). */
export type NotificationItem =
  | {
      /** `assigned`, `cancelled`, `unassigned`, `reminder` and `paid` go to `userId`. */
      readonly kind: Exclude<NotificationKindName, 'changed' | 'turnback' | 'paid'>
      readonly positionId: string
      readonly userId: string
    }
  | {
      readonly kind: 'changed'
      readonly positionId: string
      readonly userId: string
      readonly before: GameShape
    }
  | {
      /** Goes to the league's organizer; `userId` is the official who gave the position back. */
      readonly kind: 'turnback'
      readonly positionId: string
      readonly userId: string
    }
  | {
      readonly kind: 'paid'
      readonly positionId: string
      readonly userId: string
      readonly amount: { readonly cents: number; readonly currency: string }
    }

/** A game's time, length and place: what a `changed` mail compares. */
interface GameShape {
  readonly startsAt: string
  readonly durationMinutes: number
  readonly location: string
}

/** What queueing reads besides the transaction: the reminder lead time. */
export type NotifyDeps = Pick<Deps, 'limits'>

/** Mails a day (24 hours) to an address for leagues it has not joined (DESIGN "Consent"). */
const UNJOINED_MAILS_PER_DAY = 50

/** Placeholder addresses (`official-…@placeholder.refdesk.invalid`) are recorded, never mailed. */
const isPlaceholder = (email: string): boolean => /\.invalid$/i.test(email)

/**
 * @public The one way in for every service that causes mail (CONTRIBUTING.md, "Add a notification").
 * Queues the items' mails in the change's transaction, at `at` (the change's instant). Reads the
 * positions, games, leagues and recipients they name in two queries, whatever their number.
 */
export async function queueNotifications(
  trx: Transaction<Db>,
  deps: NotifyDeps,
  at: string,
  items: readonly NotificationItem[],
): Promise<void> {
  if (items.length === 0) return
  const positionIds = [...new Set(items.map((i) => i.positionId))]
  await queueWithContexts(trx, deps, at, items, await store.listPositionContext(trx, positionIds))
}

/** `queueNotifications` with the items' position contexts already read (the caller read them with more). */
async function queueWithContexts(
  trx: Transaction<Db>,
  deps: NotifyDeps,
  at: string,
  items: readonly NotificationItem[],
  contextRows: readonly PositionContextRow[],
): Promise<void> {
  if (items.length === 0) return
  const contexts = new Map(contextRows.map((c) => [c.position_id, c]))
  const userIds = new Set(items.map((i) => i.userId))
  for (const c of contexts.values()) userIds.add(c.organizer_id)
  const people = new Map((await store.listRecipients(trx, [...userIds])).map((u) => [u.id, u]))
  const { reminderHours } = deps.limits
  const rows: NewNotification[] = []
  for (const item of items) {
    const context = contexts.get(item.positionId)
    const recipientId = item.kind === 'turnback' ? context?.organizer_id : item.userId
    const recipient = recipientId === undefined ? undefined : people.get(recipientId)
    if (!context || !recipient) continue
    let due = at
    if (item.kind === 'reminder') {
      if (context.starts_at <= at) continue
      const before = iso(store.reminderAt(context.starts_at, reminderHours))
      due = before > at ? before : at
    }
    const placeholder = isPlaceholder(recipient.email)
    rows.push({
      id: newId(),
      kind: item.kind,
      email: recipient.email,
      user_id: recipient.id,
      league_id: context.league_id,
      game_id: context.game_id,
      position_id: context.position_id,
      payload: JSON.stringify(payloadOf(item, context, people.get(item.userId))),
      status: placeholder ? 'skipped' : 'pending',
      attempts: 0,
      last_error: placeholder ? 'placeholder_address' : null,
      created_at: at,
      due_at: due,
      unjoined: 0,
    })
  }
  await store.insertNotifications(trx, await withConsent(trx, at, rows, contexts, people))
}

/**
 * Mail to an address for a league it has not joined (DESIGN "Consent"): an `invited` mail goes first, once
 * per address and league; each counts towards UNJOINED_MAILS_PER_DAY, past which the rest are recorded,
 * never sent. Three reads, whatever the number of rows.
 */
async function withConsent(
  trx: Transaction<Db>,
  at: string,
  rows: readonly NewNotification[],
  contexts: ReadonlyMap<string | null, PositionContextRow>,
  people: ReadonlyMap<string, { name: string }>,
): Promise<NewNotification[]> {
  const mailed = rows.filter((r) => r.status === 'pending')
  const emails = [...new Set(mailed.map((r) => r.email))]
  const leagueIds = [...new Set(mailed.map((r) => r.league_id))]
  const pair = (email: string, leagueId: string) => `${email}\n${leagueId}`
  const [joined, invited, counts] = await Promise.all([
    permissions.listJoinedPairs(trx, emails, leagueIds),
    permissions.listInvitedPairs(trx, emails, leagueIds),
    permissions.countUnjoinedSince(trx, emails, iso(Date.parse(at) - DAY_MS)),
  ])
  const isJoined = new Set(joined.map((j) => pair(j.email, j.league_id)))
  const wasInvited = new Set(invited.map((i) => pair(i.email, i.league_id)))
  const out: NewNotification[] = []
  const count = (row: NewNotification): NewNotification => {
    const n = (counts.get(row.email) ?? 0) + 1
    counts.set(row.email, n)
    const over = n > UNJOINED_MAILS_PER_DAY
    return { ...row, unjoined: 1, ...(over && { status: 'skipped', last_error: 'daily_limit_reached' }) }
  }
  for (const row of rows) {
    const key = pair(row.email, row.league_id)
    if (row.status !== 'pending' || isJoined.has(key)) {
      out.push(row)
      continue
    }
    if (!wasInvited.has(key)) {
      wasInvited.add(key)
      const context = contexts.get(row.position_id ?? null)
      out.push(count(inviteOf(row, at, context, people)))
    }
    out.push(count(row))
  }
  return out
}

/** The `invited` mail before a league's first mail to an address: who added it, the league, Join. */
function inviteOf(
  row: NewNotification,
  at: string,
  context: PositionContextRow | undefined,
  people: ReadonlyMap<string, { name: string }>,
): NewNotification {
  const payload = JSON.parse(row.payload) as NotificationPayload
  const organizer = context ? people.get(context.organizer_id)?.name : undefined
  const invitedBy = inviterOf(organizer, context?.league_source ?? 'app')
  return {
    ...row,
    id: newId(),
    kind: 'invited',
    payload: JSON.stringify({ ...payload, invitedBy }),
    due_at: at,
  }
}

function payloadOf(
  item: NotificationItem,
  c: PositionContextRow,
  official: { name: string; email: string } | undefined,
): NotificationPayload {
  const game = store.payloadGame(c)
  return {
    ...game,
    ...(item.kind === 'changed' && {
      before: item.before,
      changes: [
        ...(item.before.startsAt !== c.starts_at ? (['time'] as const) : []),
        ...(item.before.durationMinutes !== game.durationMinutes ? (['length'] as const) : []),
        ...(item.before.location !== c.location ? (['place'] as const) : []),
      ],
    }),
    ...(item.kind === 'turnback' && official && { official: { name: official.name, email: official.email } }),
    ...(item.kind === 'paid' && { amount: item.amount }),
  }
}

/** A position became `userId`'s: their reminder, and an `assigned` mail unless they took it themselves. */
export async function notifyTaken(
  trx: Transaction<Db>,
  deps: NotifyDeps,
  at: string,
  taken: { positionId: string; userId: string; byThemselves: boolean },
): Promise<void> {
  const { positionId, userId } = taken
  await queueNotifications(trx, deps, at, [
    ...(taken.byThemselves ? [] : [{ kind: 'assigned' as const, positionId, userId }]),
    { kind: 'reminder', positionId, userId },
  ])
}

/** The positions left their holders (unassign, removal, withdrawal): their reminders are dropped. */
export async function notifyReleased(
  trx: Transaction<Db>,
  deps: NotifyDeps,
  at: string,
  released: readonly { positionId: string; userId: string }[],
  how: 'unassigned' | 'turnback',
): Promise<void> {
  await store.dropReminders(trx, { positionIds: released.map((r) => r.positionId) })
  await queueNotifications(
    trx,
    deps,
    at,
    released.map((r) => ({ kind: how, ...r })),
  )
}

/** The games were cancelled: each holder hears it, and no reminder follows. */
export async function notifyCancelled(
  trx: Transaction<Db>,
  deps: NotifyDeps,
  at: string,
  gameIds: readonly string[],
): Promise<void> {
  await store.dropReminders(trx, { gameIds })
  const holders = await store.listHolders(trx, gameIds)
  await queueNotifications(
    trx,
    deps,
    at,
    holders.map((h) => ({ kind: 'cancelled', positionId: h.position_id, userId: h.user_id })),
  )
}

/** A game's start, end and place as they were before a change. */
interface GameBefore {
  readonly gameId: string
  readonly startsAt: string
  readonly endsAt: string
  readonly location: string
}

/**
 * Games whose start, length or place changed (already written): each holder gets `changed`. A waiting reminder
 * is written again only when its game moved earlier, so that it comes sooner; one of a game moved later stays
 * where it is, and the sender, finding it due before its game's window, re-arms it. Every reminder says its
 * game as it stands when sent. Reminders of a game that has started are dropped. A holder already reminded
 * gets a new reminder only if the new one is still ahead: otherwise their `changed` mail already says when the
 * game is.
 */
export async function notifyChanged(
  trx: Transaction<Db>,
  deps: NotifyDeps,
  at: string,
  changed: readonly GameBefore[],
): Promise<void> {
  if (changed.length === 0) return
  const byGame = new Map(changed.map((c) => [c.gameId, c]))
  // The holders, what their mails say about their positions, and their reminders: one read.
  const holders = await store.listHolderContexts(trx, [...byGame.keys()])
  if (holders.length === 0) return
  const { reminderHours } = deps.limits
  const remindAtOf = (h: { starts_at: string }) => iso(store.reminderAt(h.starts_at, reminderHours))
  // Only held games have waiting reminders; each holder's row says how its game now stands.
  const games = [...new Map(holders.map((h) => [h.game_id, h])).values()]
  await store.dropReminders(trx, {
    gameIds: games.filter((g) => g.starts_at <= at).map((g) => g.game_id),
  })
  const upcoming = games.filter((g) => g.starts_at > at)
  await store.moveReminders(
    trx,
    upcoming.filter((g) => g.starts_at < byGame.get(g.game_id)!.startsAt).map((g) => g.game_id),
    { at, reminderHours },
  )
  const items: NotificationItem[] = []
  for (const h of holders) {
    const before = byGame.get(h.game_id)
    if (!before) continue
    const ref = { positionId: h.position_id, userId: h.user_id }
    items.push({
      kind: 'changed',
      ...ref,
      before: {
        startsAt: before.startsAt,
        durationMinutes: minutesBetween(before.startsAt, before.endsAt),
        location: before.location,
      },
    })
    if (h.reminder === null || (h.reminder === 'sent' && remindAtOf(h) > at))
      items.push({ kind: 'reminder', ...ref })
  }
  await queueWithContexts(trx, deps, at, items, holders)
}

/** A payment reached `paid`: its official hears how much, for which game. */
export async function notifyPaid(
  trx: Transaction<Db>,
  deps: NotifyDeps,
  at: string,
  payment: { position_id: string; official_id: string; amount_cents: number; currency: string },
): Promise<void> {
  await queueNotifications(trx, deps, at, [
    {
      kind: 'paid',
      positionId: payment.position_id,
      userId: payment.official_id,
      amount: { cents: payment.amount_cents, currency: payment.currency },
    },
  ])
}
