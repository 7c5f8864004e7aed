// A real SMTP server (smtp-server) on loopback that keeps what it receives, parsed as a mail client would
// (mailparser), and in-process notification senders over the test app's database with a clock the test
// moves. Senders are stopped and the server closed after each test.
import { simpleParser, type ParsedMail } from 'mailparser'
import { SMTPServer } from 'smtp-server'
import { afterEach, beforeEach } from 'vitest'
import { startNotifications, type Runtime } from '../../src/app.js'
import type { Notifier } from '../../src/notifications/sender.js'
import type { NotifierSettings } from '../../src/notifications/settings.js'
import type { TestApp } from '../helpers/app.js'

export interface Received {
  to: string
  raw: string
}

export interface MailRig {
  /** Everything received so far, in order. */
  readonly received: Received[]
  /** The received mails, parsed. */
  mails(): Promise<(ParsedMail & { to: string; raw: string })[]>
  /** The senders' clock: `now` is real time plus what the test added. */
  readonly clock: { now(): number; advance(ms: number): void; set(iso: string): void }
  /**
   * A sender (its settings overridden); `smtp: false` runs one without SMTP; `runtime` one over another
   * connection pool to the same database, as another process's.
   */
  start(overrides?: Partial<NotifierSettings> & { smtp?: boolean; runtime?: Runtime }): Notifier
  /** Every sender wakes and finishes what is due now. */
  flush(): Promise<void>
  /** Makes the SMTP server answer the next `n` messages with `code` (e.g. 451, 550). */
  refuseNext(n: number, code: number): void
  readonly port: () => number
}

export function useMail(t: TestApp): MailRig {
  const received: Received[] = []
  const running: Notifier[] = []
  let server: SMTPServer | undefined
  let port = 0
  let offset = 0
  let refusals: { left: number; code: number } = { left: 0, code: 0 }
  const clock = {
    now: () => Date.now() + offset,
    advance: (ms: number) => void (offset += ms),
    set: (iso: string) => void (offset = Date.parse(iso) - Date.now()),
  }
  beforeEach(async () => {
    received.length = 0
    offset = 0
    refusals = { left: 0, code: 0 }
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, session, callback) {
        let raw = ''
        stream.setEncoding('utf8')
        stream.on('data', (chunk: string) => (raw += chunk))
        stream.on('end', () => {
          if (refusals.left > 0) {
            refusals.left--
            const error = Object.assign(new Error('refused'), { responseCode: refusals.code })
            return callback(error)
          }
          for (const to of session.envelope.rcptTo) received.push({ to: to.address, raw })
          callback()
        })
      },
    })
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
    port = (server.server.address() as { port: number }).port
  })
  afterEach(async () => {
    await Promise.all(running.splice(0).map((n) => n.stop()))
    await new Promise<void>((resolve) => server!.close(() => resolve()))
  })
  return {
    received,
    async mails() {
      return Promise.all(
        received.map(async (r) => Object.assign(await simpleParser(r.raw), { to: r.to, raw: r.raw })),
      )
    },
    clock,
    port: () => port,
    start(overrides = {}) {
      const { smtp = true, runtime = t.runtime, ...settings } = overrides
      const notifier = startNotifications(
        runtime,
        {
          smtpUrl: smtp ? `smtp://127.0.0.1:${port}` : undefined,
          from: 'RefDesk <refdesk@example.test>',
          publicUrl: 'https://refdesk.example.test',
          retrySchedule: [0, 60_000, 300_000],
          concurrency: 4,
          pollIntervalMs: 60_000,
          timeoutMs: 5000,
          ...settings,
        },
        {
          clock,
          log: { info: () => {}, warn: (o, m) => console.warn(m, o), error: (o, m) => console.error(m, o) },
        },
      )
      running.push(notifier)
      return notifier
    },
    async flush() {
      for (const n of running) n.wake()
      await Promise.all(running.map((n) => n.idle()))
    },
    refuseNext(n, code) {
      refusals = { left: n, code }
    },
  }
}
