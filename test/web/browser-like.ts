// A browser-like client over fastify.inject for the app's tests: it keeps cookies, reads the CSRF token off
// the page it was served and posts forms. The app is built with a fake mailer and a clock the test moves.
import type { LightMyRequestResponse } from 'fastify'
import { afterEach, beforeEach } from 'vitest'
import { buildHttp, openRuntime, type Runtime } from '../../src/app.js'
import { appSettings } from '../../src/config.js'
import type { App } from '../../src/http/server.js'
import { afterReplyQueue, type AfterReply } from '../../src/web/after-reply.js'
import type { Mail, MailTransport } from '../../src/net/smtp.js'
import { isPostgres, testDatabaseUrl } from '../helpers/app.js'

export interface Page {
  status: number
  body: string
  headers: LightMyRequestResponse['headers']
  location: string | undefined
}

export class Visitor {
  readonly cookies = new Map<string, string>()
  /** Sent with every request (a proxy's X-Forwarded-For). */
  readonly headers: Record<string, string> = {}
  csrf = ''

  /** `settle`: awaited after every answer (the app's deferred work, such as the sign-in mail). */
  constructor(
    private readonly app: App,
    private readonly settle: () => Promise<void> = async () => undefined,
  ) {}

  async get(url: string): Promise<Page> {
    return this.send('GET', url)
  }

  /** Posts a form; `_csrf` is the token of the last page served unless the fields say otherwise. */
  async post(url: string, fields: Record<string, string> = {}): Promise<Page> {
    return this.send('POST', url, new URLSearchParams({ _csrf: this.csrf, ...fields }).toString())
  }

  private async send(method: 'GET' | 'POST', url: string, payload?: string): Promise<Page> {
    const res = await this.app.inject({
      method,
      url,
      headers: {
        ...this.headers,
        ...(this.cookies.size > 0 && {
          cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        }),
        ...(payload !== undefined && { 'content-type': 'application/x-www-form-urlencoded' }),
      },
      ...(payload !== undefined && { payload }),
    })
    await this.settle()
    for (const cookie of res.cookies as { name: string; value: string; expires?: Date }[]) {
      if (cookie.value === '' || (cookie.expires && cookie.expires.getTime() <= Date.now())) {
        this.cookies.delete(cookie.name)
      } else this.cookies.set(cookie.name, cookie.value)
    }
    const csrf = /name="_csrf" value="([^"]+)"/.exec(res.body)?.[1]
    if (csrf) this.csrf = csrf
    const location = res.headers.location
    return {
      status: res.statusCode,
      body: res.body,
      headers: res.headers,
      location: typeof location === 'string' ? location : undefined,
    }
  }
}

export interface WebTest {
  app: App
  runtime: Runtime
  mail: Mail[]
  /** Work the app does after answering (the sign-in mail); visitors wait for it after every answer. */
  afterReply: AfterReply
  /** The services' clock; tests set it. */
  now: Date
  visitor(): Visitor
  /** Signs a new visitor in as `email` through the emailed link. */
  signIn(email: string): Promise<Visitor>
  /** The token of the last sign-in link mailed to `email`. */
  linkTokenFor(email: string): string
}

export function useWebApp(settings: Parameters<typeof appSettings>[0] = {}): WebTest {
  const t = { mail: [] as Mail[] } as unknown as WebTest
  beforeEach(async () => {
    t.mail = []
    t.now = new Date('2030-01-01T12:00:00.000Z')
    const mailer: MailTransport = {
      send: async (message) => {
        t.mail.push(message)
      },
      close: () => undefined,
    }
    t.afterReply = afterReplyQueue((error) => {
      throw error
    })
    t.runtime = await openRuntime(await testDatabaseUrl(), {
      migrate: !isPostgres(),
      clock: { now: () => t.now.getTime() },
    })
    t.app = await buildHttp(t.runtime, undefined, {
      web: {
        // Every injected request comes from 127.0.0.1, and a PostgreSQL run shares one database among a file's
        // tests: the per-client limit is tested in the domain, not here.
        settings: appSettings({
          REFDESK_PUBLIC_URL: 'http://refdesk.test',
          REFDESK_SIGN_IN_LIMIT_PER_CLIENT: '1000000',
          ...settings,
        }),
        mailer,
        afterReply: t.afterReply,
      },
    })
    await t.app.ready()
  })
  afterEach(async () => {
    await t.app.close()
    await t.runtime.close()
  })
  t.visitor = () => new Visitor(t.app, () => t.afterReply.idle())
  t.linkTokenFor = (email) => {
    const message = t.mail.filter((m) => m.to === email).at(-1)
    const token = message && /token=([A-Za-z0-9_-]+)/.exec(message.text)?.[1]
    if (!token) throw new Error(`no sign-in link mailed to ${email}`)
    return token
  }
  t.signIn = async (email) => {
    const visitor = t.visitor()
    await visitor.get('/app/')
    await visitor.post('/app/sign-in', { email })
    const token = t.linkTokenFor(email)
    await visitor.get(`/app/sign-in/link?token=${token}`)
    const done = await visitor.post('/app/sign-in/link', { token })
    if (done.status !== 303) throw new Error(`sign-in failed: ${done.status}`)
    return visitor
  }
  return t
}
