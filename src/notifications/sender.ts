// The notification sender: runs in the dispatcher's process (`serve`, `refdesk worker`). It leases due
// notifications in batches, decides each (opted out → skipped, a reminder whose game has started →
// dropped, no SMTP → unsent), mails the rest over one pooled SMTP transport with bounded concurrency, and
// settles every outcome under the lease it was sent under. Several senders share one database: a row is
// leased by one at a time, so each notification is mailed at most once, except when a sender dies
// between the SMTP server's acceptance and the record (then the next holder mails it again with the
// same Message-ID, which mail clients collapse).
import { randomBytes } from 'node:crypto'
import { createHash } from 'node:crypto'
import { systemClock, type Clock } from '../clock.js'
import { iso } from '../time.js'
import { silentLog, startDuty, type Duty, type DutyLog, type DutyRun } from '../duty.js'
import { smtpTransport, type MailTransport } from '../net/smtp.js'
import type { NotificationKindName, NotificationPayload } from '../schemas/notifications.js'
import type { Database } from '../store/database.js'
import * as leases from '../store/notification-leases.js'
import type { NotificationOutcome } from '../store/notification-leases.js'
import * as store from '../store/notifications.js'
import * as permissions from '../store/mail-permissions.js'
import { payloadGame, reminderAt, type PositionContextRow } from '../store/notifications.js'
import type { Listener } from '../store/outbox.js'
import type { NotificationRow } from '../store/app-tables.js'
import { renderNotification, type RenderedMail } from './render.js'
import type { NotifierSettings } from './settings.js'

/** App paths (no origin) the mails link to; the composition root builds them from the app's paths. */
interface NotificationPaths {
  schedule(): string
  earnings(): string
  league(leagueId: string): string
  profile(): string
  /** The official's Leagues page, where an invitation is joined. */
  leagues(): string
  unsubscribe(token: string): string
}

export interface NotifierOptions {
  database: Pick<Database, 'db' | 'listenForNotifications'>
  settings: NotifierSettings
  paths: NotificationPaths
  /** Default: SMTP at `settings.smtpUrl`, else none (notifications are marked unsent). */
  transport?: MailTransport
  /** Hours before its game a reminder is due (`REFDESK_REMINDER_HOURS`). */
  reminderHours: number
  /** Decides what is due (reminders); tests move it. */
  clock?: Clock
  log?: DutyLog
  /** How long a lease holds; default enough for a batch at the timeout. */
  leaseMs?: number
}

export interface Notifier {
  readonly owner: string
  /** Look for due notifications now. */
  wake(): void
  /** Resolves once no round is running or asked for (tests: wake, then wait for the outcome). */
  idle(): Promise<void>
  stop(): Promise<void>
}

export function startNotifier(options: NotifierOptions): Notifier {
  const loop = new SendLoop(options)
  return { owner: loop.owner, wake: () => loop.wake(), idle: () => loop.idle(), stop: () => loop.stop() }
}

/** A row's outcome without an attempt: its due time and attempts unchanged. */
const settled = (
  row: NotificationRow,
  lease: NotificationOutcome['lease'],
  status: NotificationOutcome['status'],
  lastError: string | null,
): NotificationOutcome => ({
  id: row.id,
  lease,
  status,
  attempts: row.attempts,
  lastError,
  dueAt: row.due_at,
  sentAt: null,
})

class SendLoop {
  readonly owner: string
  private readonly db: NotifierOptions['database']['db']
  private readonly settings: NotifierSettings
  private readonly paths: NotificationPaths
  private readonly transport: MailTransport | undefined
  private readonly ownsTransport: boolean
  private readonly clock: Clock
  private readonly log: DutyLog
  private readonly batch: number
  private readonly leaseMs: number
  private readonly reminderHours: number
  private readonly listener: Listener
  /** One pass at a time, woken by queued notifications and its alarm (reminders, retries, polls). */
  private readonly duty: Duty

  constructor(options: NotifierOptions) {
    this.db = options.database.db
    this.settings = options.settings
    this.paths = options.paths
    const { smtpUrl, from, concurrency, timeoutMs } = options.settings
    this.transport =
      options.transport ??
      (smtpUrl === undefined
        ? undefined
        : smtpTransport(smtpUrl, from, { connections: concurrency, timeoutMs }))
    this.ownsTransport = options.transport === undefined
    this.clock = options.clock ?? systemClock
    this.log = options.log ?? silentLog
    this.batch = this.settings.concurrency * 4
    this.reminderHours = options.reminderHours
    // Each mail of a batch may take the whole timeout, `concurrency` at a time.
    this.leaseMs =
      options.leaseMs ?? (this.batch / this.settings.concurrency + 1) * this.settings.timeoutMs + 1000
    this.duty = startDuty(
      {
        name: 'notification sender scan',
        run: (duty) => this.pump(duty),
        pollMs: this.settings.pollIntervalMs,
      },
      { clock: this.clock, log: this.log },
    )
    this.owner = this.duty.owner
    this.listener = options.database.listenForNotifications(
      () => this.wake(),
      (err) => this.log.warn({ err }, 'notification LISTEN connection'),
    )
  }

  wake(): void {
    this.duty.wake()
  }

  /** Rounds while a batch comes back full or a wake-up came; answers when the next reminder or retry is due. */
  private async pump(duty: DutyRun): Promise<number | undefined> {
    let leased: number
    let again: boolean
    do {
      leased = await this.round()
      again = duty.again()
    } while ((again || leased === this.batch) && !duty.stopped)
    if (duty.stopped) return undefined
    const due = await leases.nextNotificationDueAt(this.db)
    return due === null ? undefined : Date.parse(due)
  }

  /** One batch: leased, decided, sent, settled. Answers how many rows it leased. */
  private async round(): Promise<number> {
    const now = this.clock.now()
    const lease = { owner: this.owner, until: iso(now + this.leaseMs) }
    const rows = await leases.leaseDueNotifications(this.db, { ...lease, now: iso(now), limit: this.batch })
    if (rows.length === 0) return 0
    const emails = rows.map((r) => r.email)
    const [optouts, zones, stopped] = await Promise.all([
      permissions.listOptouts(this.db, emails),
      permissions.listProfileZones(this.db, emails),
      permissions.listMailStops(this.db, emails),
    ])
    const off = new Set(optouts.map((o) => `${o.email}\n${o.kind}`))
    const zoneOf = new Map(zones.map((z) => [z.email, z.time_zone]))
    const outcomes: NotificationOutcome[] = []
    const toSend: { row: NotificationRow; payload: NotificationPayload }[] = []
    const settle = (row: NotificationRow, status: NotificationOutcome['status'], lastError: string | null) =>
      outcomes.push(settled(row, lease, status, lastError))
    const games = await this.reminderGames(rows)
    for (const row of rows) {
      const game = row.kind === 'reminder' ? games.get(row.position_id) : undefined
      // A reminder says its game as it stands now.
      const written = JSON.parse(row.payload) as NotificationPayload
      const payload = game ? { ...written, ...payloadGame(game) } : written
      const startsAt = Date.parse(payload.startsAt)
      const remindAt = reminderAt(payload.startsAt, this.reminderHours)
      if (stopped.has(row.email)) settle(row, 'skipped', 'mail_stopped')
      else if (off.has(`${row.email}\n${row.kind}`)) settle(row, 'skipped', 'opted_out')
      else if (row.kind === 'reminder' && startsAt <= now) settle(row, 'dropped', 'game_started')
      else if (row.kind === 'reminder' && remindAt > now)
        // Its game moved later since the reminder was written: it waits for the new time.
        outcomes.push({ ...settled(row, lease, 'pending', row.last_error), dueAt: iso(remindAt) })
      else if (!this.transport) settle(row, 'unsent', 'smtp_not_configured')
      else toSend.push({ row, payload })
    }
    outcomes.push(...(await this.sendAll(toSend, zoneOf, lease)))
    const recorded = await leases.recordOutcomes(this.db, outcomes)
    for (const o of outcomes)
      if (!recorded.has(o.id))
        this.log.warn({ notificationId: o.id }, 'notification lease lost before its outcome was recorded')
    return rows.length
  }

  /** The games of the batch's reminders as they stand now, by position: a reminder says its game as it is. */
  private async reminderGames(
    rows: readonly NotificationRow[],
  ): Promise<Map<string | null, PositionContextRow>> {
    const positionIds = rows.flatMap((r) => (r.kind === 'reminder' && r.position_id ? [r.position_id] : []))
    return new Map((await store.listPositionContext(this.db, positionIds)).map((c) => [c.position_id, c]))
  }

  /** Mails the batch, `concurrency` at a time, each with a fresh unsubscribe token for its kind. */
  private async sendAll(
    batch: readonly { row: NotificationRow; payload: NotificationPayload }[],
    zoneOf: ReadonlyMap<string, string>,
    lease: { owner: string; until: string },
  ): Promise<NotificationOutcome[]> {
    if (batch.length === 0 || !this.transport) return []
    const jobs = [
      ...batch.filter(({ row }) => row.kind === 'invited'),
      ...batch.filter(({ row }) => row.kind !== 'invited'),
    ]
    const transport = this.transport
    const at = iso(this.clock.now())
    const tokens = jobs.map(() => randomBytes(32).toString('base64url'))
    // An Invited mail also carries "Not you? Stop all mail": a token of its own, good for that alone.
    const stopTokens = jobs.map(({ row }) =>
      row.kind === 'invited' ? randomBytes(32).toString('base64url') : undefined,
    )
    await permissions.insertUnsubscribeTokens(this.db, [
      ...jobs.map(({ row }, i) => ({
        token_hash: sha256(tokens[i]!),
        email: row.email,
        kind: row.kind,
        created_at: at,
      })),
      ...jobs.flatMap(({ row }, i) => {
        const stop = stopTokens[i]
        return stop === undefined
          ? []
          : [{ token_hash: sha256(stop), email: row.email, kind: 'all' as const, created_at: at }]
      }),
    ])
    const outcomes: NotificationOutcome[] = []
    let next = 0
    let end = jobs.length
    const worker = async () => {
      while (next < end) {
        const i = next++
        const { row, payload } = jobs[i]!
        const zone = zoneOf.get(row.email) ?? payload.leagueTimeZone
        let mail: ReturnType<SendLoop['render']>
        try {
          mail = this.render(row, payload, zone, tokens[i]!, stopTokens[i])
        } catch (err) {
          // A mail that cannot be rendered never will be: recorded, not retried.
          this.log.error({ err, notificationId: row.id }, 'notification could not be rendered')
          outcomes.push({
            id: row.id,
            lease,
            status: 'failed',
            attempts: row.attempts,
            lastError: 'render_error',
            dueAt: row.due_at,
            sentAt: null,
          })
          continue
        }
        outcomes.push(await this.sendOne(transport, row, mail, lease))
      }
    }
    // Invited mails go out before the others, so an address hears who added it before what follows.
    const invitesEnd = jobs.findIndex(({ row }) => row.kind !== 'invited')
    const split = invitesEnd === -1 ? jobs.length : invitesEnd
    for (const [from, to] of [
      [0, split],
      [split, jobs.length],
    ] as const) {
      next = from
      end = to
      await Promise.all(Array.from({ length: Math.min(this.settings.concurrency, to - from) }, worker))
    }
    return outcomes
  }

  private render(
    row: NotificationRow,
    payload: NotificationPayload,
    zone: string,
    token: string,
    stopToken: string | undefined,
  ): RenderedMail & { unsubscribe: string } {
    const origin = this.settings.publicUrl
    const action =
      row.kind === 'turnback'
        ? this.paths.league(row.league_id)
        : row.kind === 'paid'
          ? this.paths.earnings()
          : row.kind === 'invited'
            ? this.paths.leagues()
            : this.paths.schedule()
    const unsubscribe = origin + this.paths.unsubscribe(token)
    const mail = renderNotification(row.kind as NotificationKindName, payload, zone, {
      action: origin + action,
      unsubscribe,
      preferences: origin + this.paths.profile(),
      ...(stopToken !== undefined && { stopAll: origin + this.paths.unsubscribe(stopToken) }),
    })
    return { ...mail, unsubscribe }
  }

  private async sendOne(
    transport: MailTransport,
    row: NotificationRow,
    mail: RenderedMail & { unsubscribe: string },
    lease: { owner: string; until: string },
  ): Promise<NotificationOutcome> {
    const attempts = row.attempts + 1
    const base = { id: row.id, lease, attempts }
    // An attempt that could outlive its lease is not started: the next holder sends it.
    if (Date.parse(lease.until) - this.clock.now() < this.settings.timeoutMs)
      return {
        ...base,
        attempts: row.attempts,
        status: 'pending',
        lastError: row.last_error,
        dueAt: row.due_at,
        sentAt: null,
      }
    try {
      await transport.send({
        to: row.email,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        messageId: `<${row.id}@refdesk>`,
        headers: {
          'List-Unsubscribe': `<${mail.unsubscribe}>`,
          'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
          'X-RefDesk-Notification': row.kind,
        },
      })
      const now = iso(this.clock.now())
      this.log.info({ notificationId: row.id, kind: row.kind, attempt: attempts }, 'notification sent')
      return { ...base, status: 'sent', lastError: null, dueAt: row.due_at, sentAt: now }
    } catch (err) {
      const error = classify(err)
      const delay = error.permanent ? undefined : this.settings.retrySchedule[attempts]
      const status = delay === undefined ? 'failed' : 'pending'
      this.log.warn(
        { notificationId: row.id, kind: row.kind, attempt: attempts, error: error.code, status },
        'notification attempt failed',
      )
      const dueAt = delay === undefined ? row.due_at : iso(this.clock.now() + delay)
      return { ...base, status, lastError: error.code, dueAt, sentAt: null }
    }
  }

  idle(): Promise<void> {
    return this.duty.idle()
  }

  async stop(): Promise<void> {
    const stopped = this.duty.stop()
    await this.listener.close()
    await stopped
    if (this.ownsTransport) this.transport?.close()
  }
}

const sha256 = (token: string): string => createHash('sha256').update(token).digest('hex')

/** An SMTP refusal (5xx) is final; a 4xx, a time-out or a lost connection is tried again. */
function classify(err: unknown): { code: string; permanent: boolean } {
  const e = err as { responseCode?: number; code?: string }
  if (typeof e.responseCode === 'number')
    return { code: `smtp_${e.responseCode}`, permanent: e.responseCode >= 500 }
  if (e.code === 'ETIMEDOUT') return { code: 'timeout', permanent: false }
  if (e.code === 'ECONNECTION' || e.code === 'ECONNREFUSED')
    return { code: 'connection_refused', permanent: false }
  return { code: 'smtp_error', permanent: false }
}
