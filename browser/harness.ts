// What the browser suite stands on: the service listening on loopback (in process, on a fresh SQLite file)
// with a clock the suite can move, a real SMTP server (smtp-server) receiving its mail, partner API access,
// and Debian's chromium driven by playwright-core. Screenshots and axe results go to browser/artifacts/.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { AxeBuilder } from '@axe-core/playwright'
import type { Browser, Page } from 'playwright-core'
import { SMTPServer } from 'smtp-server'
import { buildHttp, openRuntime, type Runtime } from '../src/app.js'
import { appSettings } from '../src/config.js'
import { issueKey } from '../src/domain/partners/api-keys.js'
import type { App } from '../src/http/server.js'
import { DEFAULT_HTTP_SETTINGS } from '../src/http/settings.js'
import { TEST_WEBHOOK_POLICY } from '../test/helpers/app.js'
import { freePort, launchChromium } from './chromium.js'

export const ARTIFACTS = new URL('./artifacts/', import.meta.url).pathname

export interface Mail {
  to: string
  raw: string
}

/** A local SMTP server that keeps every message it receives. */
async function startSmtp(): Promise<{ port: number; inbox: Mail[]; close(): Promise<void> }> {
  const inbox: Mail[] = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      let raw = ''
      stream.setEncoding('utf8')
      stream.on('data', (chunk: string) => (raw += chunk))
      stream.on('end', () => {
        for (const to of session.envelope.rcptTo) inbox.push({ to: to.address, raw })
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.server.address() as { port: number }).port
  return { port, inbox, close: () => new Promise((resolve) => server.close(() => resolve())) }
}

/** Quoted-printable decoded, soft line breaks joined: the text part as the recipient reads it. */
function decodeQuotedPrintable(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
}

export interface Harness {
  origin: string
  runtime: Runtime
  browser: Browser
  /** Moves the service's clock (the browser's stays put). */
  advanceClock(ms: number): void
  /** A partner API call with the harness's key (organizer: organizer@example.com). */
  api<T = any>(method: string, path: string, body?: unknown): Promise<T>
  /** Waits for the next sign-in link mailed to `email` and returns it. */
  nextSignInLink(email: string): Promise<string>
  close(): Promise<void>
}

export async function startHarness(): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), 'refdesk-browser-'))
  mkdirSync(ARTIFACTS, { recursive: true })
  const smtp = await startSmtp()
  const port = await freePort()
  const origin = `http://127.0.0.1:${port}`
  let offsetMs = 0
  // The season's webhook receiver listens on 127.0.0.1, as the test dispatchers expect.
  const runtime = await openRuntime(`file:${join(dir, 'refdesk.sqlite')}`, {
    webhookPolicy: TEST_WEBHOOK_POLICY,
    clock: { now: () => Date.now() + offsetMs },
  })
  const app: App = await buildHttp(runtime, false, {
    // The suite seeds through the API at its own pace: the rate limit is not under test here.
    http: { ...DEFAULT_HTTP_SETTINGS, rateLimitPerSecond: 0 },
    web: {
      settings: appSettings({
        REFDESK_PUBLIC_URL: origin,
        REFDESK_SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
        REFDESK_MAIL_FROM: 'RefDesk <refdesk@example.test>',
      }),
    },
  })
  await app.listen({ port, host: '127.0.0.1' })
  const { key } = await issueKey(runtime.deps, { source: 'browser', organizerEmail: 'organizer@example.com' })
  const browser = await launchChromium()
  const seen = new Map<string, number>()
  return {
    origin,
    runtime,
    browser,
    advanceClock: (ms) => void (offsetMs += ms),
    async api(method, path, body) {
      const res = await fetch(`${origin}/api/v1${path}`, {
        method,
        headers: {
          authorization: `Bearer ${key}`,
          ...(body !== undefined && { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      const json = (await res.json()) as { data: any }
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`)
      return json.data
    },
    async nextSignInLink(email) {
      const already = seen.get(email) ?? 0
      for (let waited = 0; ; waited += 50) {
        const mine = smtp.inbox.filter((m) => m.to === email)
        if (mine.length > already) {
          seen.set(email, already + 1)
          const text = decodeQuotedPrintable(mine[already]!.raw)
          const link = /(http:\/\/\S+\/app\/sign-in\/link\?token=[\w-]+)/.exec(text)?.[1]
          if (!link) throw new Error(`no link in the mail to ${email}`)
          return link
        }
        if (waited > 10_000) throw new Error(`no mail to ${email}`)
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
    },
    async close() {
      await browser.close()
      await app.close()
      await runtime.close()
      await smtp.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

const DAY = 24 * 3_600_000

/** A start time `days` after the next UTC midnight, at `hour` UTC: always in the future, whole hours. */
export const soon = (days: number, hour: number): string =>
  new Date(Math.ceil(Date.now() / DAY) * DAY + days * DAY + hour * 3_600_000).toISOString()

/**
 * The leagues' games have been played: their start times move a week back, in the database. A game is
 * completed once it has started, and the clock cannot move instead: the webhook dispatcher keeps real time,
 * so events recorded on a clock days ahead would not be due until then.
 */
export async function playedAlready(h: Harness, leagueIds: readonly string[]): Promise<void> {
  const rows = await h.runtime.deps.db
    .selectFrom('games')
    .select(['id', 'starts_at'])
    .where('league_id', 'in', leagueIds)
    .execute()
  for (const row of rows) {
    const startsAt = new Date(Date.parse(row.starts_at) - 7 * DAY).toISOString()
    await h.runtime.deps.db
      .updateTable('games')
      .set({ starts_at: startsAt })
      .where('id', '=', row.id)
      .execute()
  }
}

export const PHONE = { width: 375, height: 812 }
export const DESKTOP = { width: 1280, height: 800 }

const axeResults: Record<string, { violations: string[]; serious: string[] }> = {}

/**
 * axe-core on the page as it stands: every serious or critical violation is returned (the suite asserts
 * none), and a summary is kept in artifacts/axe.json. Then a full-page screenshot at phone and desktop width.
 */
export async function checkPage(page: Page, name: string): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze()
  const serious = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
  axeResults[name] = { violations: results.violations.map((v) => `${v.id} (${v.impact})`), serious }
  writeFileSync(join(ARTIFACTS, 'axe.json'), `${JSON.stringify(axeResults, null, 2)}\n`)
  const size = page.viewportSize()
  for (const [label, viewport] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    await page.setViewportSize(viewport)
    await page.screenshot({ path: join(ARTIFACTS, `${name}-${label}.png`), fullPage: true })
  }
  if (size) await page.setViewportSize(size)
  return serious
}
