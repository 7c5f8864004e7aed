// Issue 21, item 4: asking for a sign-in link answers before anything depends on the address (the account
// lookup, the link, the mail all run after the answer is out), and nobody can lock a person out of sign-in.
import Fastify from 'fastify'
import { describe, expect, it } from 'vitest'
import { buildHttp, openRuntime } from '../../src/app.js'
import { appSettings, loadConfig } from '../../src/config.js'
import { afterReplyQueue, type AfterReply } from '../../src/web/after-reply.js'
import type { Mail } from '../../src/net/smtp.js'
import { isPostgres, testDatabaseUrl } from '../helpers/app.js'
import { seedUser, uniqueEmail } from '../helpers/fixtures.js'
import { useWebApp, Visitor } from './browser-like.js'

describe('sign-in answers before it looks the address up', () => {
  it('known and unknown addresses: the same answer, one task queued, no link and no mail until it runs', async () => {
    const held: (() => Promise<void>)[] = []
    const holding: AfterReply = { defer: (_reply, task) => void held.push(task), idle: async () => undefined }
    const mail: Mail[] = []
    const runtime = await openRuntime(await testDatabaseUrl(), { migrate: !isPostgres() })
    const app = await buildHttp(runtime, undefined, {
      web: {
        settings: appSettings({ REFDESK_PUBLIC_URL: 'http://refdesk.test' }),
        mailer: { send: async (m) => void mail.push(m), close: () => undefined },
        afterReply: holding,
      },
    })
    try {
      const sam = uniqueEmail('sam')
      const nobody = uniqueEmail('nobody')
      await seedUser(runtime.deps.db, { email: sam })
      const links = () =>
        runtime.deps.db
          .selectFrom('sign_in_links')
          .select('email')
          .where('email', 'in', [sam, nobody])
          .execute()
      const answers = []
      for (const email of [sam, nobody]) {
        const visitor = new Visitor(app)
        await visitor.get('/app/')
        answers.push(await visitor.post('/app/sign-in', { email }))
      }
      const strip = (body: string) =>
        body.replace(/value="[^"]+"/g, '').replace(/[\w.+-]+@[\w.-]+/g, 'ADDRESS')
      expect(answers.map((a) => a.status)).toEqual([200, 200])
      expect(strip(answers[0]!.body)).toBe(strip(answers[1]!.body))
      expect(held).toHaveLength(2)
      expect(await links()).toEqual([])
      expect(mail).toEqual([])

      for (const task of held) await task()
      expect(await links()).toEqual([{ email: sam }])
      expect(mail.map((m) => m.to)).toEqual([sam])
    } finally {
      await app.close()
      await runtime.close()
    }
  })

  it('the queue starts a task only once the reply is out, and idle() waits for it', async () => {
    const queue = afterReplyQueue((error) => {
      throw error
    })
    const seen: boolean[] = []
    const app = Fastify()
    app.get('/', async (_request, reply) => {
      queue.defer(reply, async () => {
        seen.push(reply.raw.writableFinished)
      })
      return reply.send('answered')
    })
    const res = await app.inject('/')
    expect(res.body).toBe('answered')
    await queue.idle()
    expect(seen).toEqual([true])
    await app.close()
  })
})

describe('nobody can lock a person out of sign-in', () => {
  const t = useWebApp()

  it('after a stranger asked for their address many times, the person still gets the same page and signs in', async () => {
    const sam = uniqueEmail('sam')
    await seedUser(t.runtime.deps.db, { email: sam })
    const stranger = t.visitor()
    await stranger.get('/app/')
    for (let i = 0; i < 12; i++) await stranger.post('/app/sign-in', { email: sam })

    const person = t.visitor()
    await person.get('/app/')
    const page = await person.post('/app/sign-in', { email: sam })
    expect(page.body).toContain('Check your email')
    expect(page.body).not.toContain('Too many')
    // Every link in their inbox is theirs, and the latest still works.
    const token = t.linkTokenFor(sam)
    await person.get(`/app/sign-in/link?token=${token}`)
    expect((await person.post('/app/sign-in/link', { token })).location).toBe('/app/')
    expect((await person.get('/app/')).body).toContain(`Signed in as ${sam}`)
  })

  it('asking for an address before it has an account costs its owner nothing', async () => {
    const ann = uniqueEmail('ann')
    const stranger = t.visitor()
    await stranger.get('/app/')
    for (let i = 0; i < 12; i++) await stranger.post('/app/sign-in', { email: ann })
    expect(t.mail).toEqual([])

    await seedUser(t.runtime.deps.db, { email: ann })
    const visitor = await t.signIn(ann)
    expect((await visitor.get('/app/')).body).toContain(`Signed in as ${ann}`)
  })
})

describe('the per-client limit', () => {
  const t = useWebApp({ REFDESK_SIGN_IN_LIMIT_PER_CLIENT: '2' })

  it('says so on the page, for every address alike', async () => {
    t.now = new Date('2031-06-01T12:00:00.000Z') // a window of its own, whatever ran before in this database
    const visitor = t.visitor()
    await visitor.get('/app/')
    const pages = []
    for (const email of [uniqueEmail('a'), uniqueEmail('b'), uniqueEmail('c')]) {
      pages.push(await visitor.post('/app/sign-in', { email }))
    }
    expect(pages.map((p) => p.body.includes('Too many requests'))).toEqual([false, false, true])
  })
})

describe('behind a reverse proxy', () => {
  async function signInAnswers(trustProxy: string | undefined): Promise<boolean[]> {
    const runtime = await openRuntime(await testDatabaseUrl(), {
      migrate: !isPostgres(),
      // A window of its own, whatever else ran in this database.
      clock: { now: () => Date.parse('2032-02-01T12:00:00.000Z') + (trustProxy ? 3_600_000 : 0) },
    })
    const app = await buildHttp(runtime, undefined, {
      ...(trustProxy !== undefined && {
        trustProxy: loadConfig({ env: { REFDESK_TRUST_PROXY: trustProxy } }).trustProxy,
      }),
      web: {
        settings: appSettings({ REFDESK_SIGN_IN_LIMIT_PER_CLIENT: '2' }),
        mailer: { send: async () => undefined, close: () => undefined },
      },
    })
    try {
      const limited = []
      // Three people behind one proxy, each asking once, then the first one twice more.
      for (const client of ['203.0.113.7', '198.51.100.8', '192.0.2.9', '203.0.113.7', '203.0.113.7']) {
        const visitor = new Visitor(app)
        visitor.headers['x-forwarded-for'] = client
        await visitor.get('/app/')
        const page = await visitor.post('/app/sign-in', { email: uniqueEmail('p') })
        limited.push(page.body.includes('Too many requests'))
      }
      return limited
    } finally {
      await app.close()
      await runtime.close()
    }
  }

  it('REFDESK_TRUST_PROXY makes the per-client limit count each client, not the proxy', async () => {
    expect(await signInAnswers(undefined)).toEqual([false, false, true, true, true])
    expect(await signInAnswers('127.0.0.1')).toEqual([false, false, false, false, true])
  })

  it('REFDESK_TRUST_PROXY takes true or proxy addresses and CIDRs, and refuses anything else', () => {
    const trust = (value: string) => loadConfig({ env: { REFDESK_TRUST_PROXY: value } }).trustProxy
    expect(loadConfig({ env: {} }).trustProxy).toBe(false)
    expect(trust('true')).toBe(true)
    expect(trust('10.0.0.0/8, 127.0.0.1,::1')).toBe('10.0.0.0/8,127.0.0.1,::1')
    for (const bad of ['proxy.internal', '10.0.0.0/8/1', '2', ','])
      expect(() => trust(bad)).toThrow(/REFDESK_TRUST_PROXY/)
  })
})
