// The app's sign-in over HTTP: the page, the link by mail, single use and expiry, cookies, sign-out, CSRF,
// security headers, and /api/v1 left untouched.
import { describe, expect, it } from 'vitest'
import { seedUser, uniqueEmail } from '../helpers/fixtures.js'
import { useWebApp } from './browser-like.js'

const MINUTE = 60_000

describe('app sign-in', () => {
  const t = useWebApp()

  it('the sign-in page has the Email field and the Send sign-in link button', async () => {
    const page = await t.visitor().get('/app/')
    expect(page.status).toBe(200)
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(page.body).toContain('<label for="email">Email</label>')
    expect(page.body).toMatch(/<input id="email" name="email" type="email"/)
    expect(page.body).toContain('<button type="submit" class="button">Send sign-in link</button>')
  })

  it('answers the same page whether or not the address has an account; mails a link only to an account', async () => {
    const sam = uniqueEmail('sam')
    await seedUser(t.runtime.deps.db, { email: sam })
    const ask = async (email: string) => {
      const visitor = t.visitor()
      await visitor.get('/app/')
      return visitor.post('/app/sign-in', { email })
    }
    const nobody = uniqueEmail('nobody')
    const known = await ask(sam.toUpperCase())
    const unknown = await ask(nobody)
    expect(known.status).toBe(200)
    expect(unknown.status).toBe(200)
    const strip = (body: string) =>
      body
        .replace(/value="[^"]+"/g, '')
        .replaceAll(sam, 'ADDRESS')
        .replaceAll(nobody, 'ADDRESS')
    expect(strip(known.body)).toBe(strip(unknown.body))
    expect(known.body).toContain('Check your email')
    expect(t.mail.map((m) => m.to)).toEqual([sam])
    expect(t.mail[0]!.subject).toBe('Your RefDesk sign-in link')
    expect(t.mail[0]!.text).toMatch(/http:\/\/refdesk\.test\/app\/sign-in\/link\?token=[\w-]{43}\n/)
  })

  it('a link signs in once: the cookie is HttpOnly, SameSite=Lax, scoped to /app; reuse is refused', async () => {
    const sam = uniqueEmail('sam')
    await seedUser(t.runtime.deps.db, { email: sam })
    const visitor = t.visitor()
    await visitor.get('/app/')
    await visitor.post('/app/sign-in', { email: sam })
    const token = t.linkTokenFor(sam)

    const confirm = await visitor.get(`/app/sign-in/link?token=${token}`)
    expect(confirm.status).toBe(200)
    expect(confirm.body).toContain('>Sign in</button>')
    const done = await visitor.post('/app/sign-in/link', { token })
    expect(done.status).toBe(303)
    expect(done.location).toBe('/app/')
    const cookie = [done.headers['set-cookie']].flat().find((c) => c!.startsWith('refdesk_session='))!
    expect(cookie).toMatch(/; Path=\/app; Expires=[^;]+; HttpOnly; SameSite=Lax$/)

    const home = await visitor.get('/app/')
    expect(home.body).toContain('<h1>Schedule</h1>')
    expect(home.body).toContain(`Signed in as ${sam}`)

    const again = t.visitor()
    await again
      .get(`/app/sign-in/link?token=${token}`)
      .then((p) => expect(p.body).toContain('no longer works'))
    await again.get('/app/')
    const reused = await again.post('/app/sign-in/link', { token })
    expect(reused.status).toBe(400)
    expect(reused.body).toContain('This link no longer works')
    expect(again.cookies.has('refdesk_session')).toBe(false)
  })

  it('an expired link is refused', async () => {
    const sam = uniqueEmail('sam')
    await seedUser(t.runtime.deps.db, { email: sam })
    const visitor = t.visitor()
    await visitor.get('/app/')
    await visitor.post('/app/sign-in', { email: sam })
    const token = t.linkTokenFor(sam)
    t.now = new Date(t.now.getTime() + 15 * MINUTE)
    const page = await visitor.get(`/app/sign-in/link?token=${token}`)
    expect(page.status).toBe(400)
    expect(page.body).toContain('This link no longer works')
    expect((await visitor.post('/app/sign-in/link', { token })).status).toBe(400)
  })

  it('mails at most 5 links per address in 15 minutes, answering the same page every time', async () => {
    const sam = uniqueEmail('sam')
    await seedUser(t.runtime.deps.db, { email: sam })
    const visitor = t.visitor()
    await visitor.get('/app/')
    const pages = []
    for (let i = 0; i < 6; i++) pages.push(await visitor.post('/app/sign-in', { email: sam }))
    expect(t.mail).toHaveLength(5)
    expect(pages.at(-1)!.body).toContain('Check your email')
    expect(pages.at(-1)!.status).toBe(200)
  })

  it('sign-out ends the session on the server: the old cookie no longer works', async () => {
    const sam = uniqueEmail('sam')
    await seedUser(t.runtime.deps.db, { email: sam })
    const visitor = await t.signIn(sam)
    const session = visitor.cookies.get('refdesk_session')!
    await visitor.get('/app/')
    const out = await visitor.post('/app/sign-out')
    expect(out.status).toBe(303)
    expect(visitor.cookies.has('refdesk_session')).toBe(false)

    const replay = t.visitor()
    replay.cookies.set('refdesk_session', session)
    expect((await replay.get('/app/')).body).toContain('Send sign-in link')
    expect((await replay.get('/app/open')).location).toBe('/app/')
  })

  it('a session expires after REFDESK_SESSION_DAYS', async () => {
    const sam = uniqueEmail('sam')
    await seedUser(t.runtime.deps.db, { email: sam })
    const visitor = await t.signIn(sam)
    // Used every two days, so the idle time-out (72 hours) never ends it first.
    const end = t.now.getTime() + 30 * 24 * 60 * MINUTE
    for (let at = t.now.getTime() + 48 * 60 * MINUTE; at < end; at += 48 * 60 * MINUTE) {
      t.now = new Date(at)
      expect((await visitor.get('/app/open')).status).toBe(200)
    }
    t.now = new Date(end - 1)
    expect((await visitor.get('/app/open')).status).toBe(200)
    t.now = new Date(t.now.getTime() + 1)
    expect((await visitor.get('/app/open')).location).toBe('/app/')
  })

  it('refuses every POST without the CSRF token of its form, and changes nothing', async () => {
    const sam = uniqueEmail('sam')
    await seedUser(t.runtime.deps.db, { email: sam })
    const visitor = await t.signIn(sam)
    await visitor.get('/app/')
    for (const token of ['', 'forged-token']) {
      const out = await visitor.post('/app/sign-out', { _csrf: token })
      expect(out.status).toBe(403)
      expect(out.body).toContain('This form has expired')
    }
    expect((await visitor.get('/app/open')).status).toBe(200)

    const stranger = t.visitor()
    const signIn = await stranger.post('/app/sign-in', { email: sam })
    expect(signIn.status).toBe(403)
    expect(t.mail).toHaveLength(1)
  })

  it('serves strict security headers on /app and leaves /api/v1 cookie-free and header-free', async () => {
    const page = await t.visitor().get('/app/')
    expect(page.headers['content-security-policy']).toBe(
      "default-src 'none';style-src 'self';img-src 'self';form-action 'self';frame-ancestors 'none';base-uri 'none'",
    )
    expect(page.headers['x-frame-options']).toBe('SAMEORIGIN')
    expect(page.headers['referrer-policy']).toBe('no-referrer')
    expect(page.headers['cache-control']).toBe('no-store')
    expect(page.headers['set-cookie']).toBeDefined()

    const api = await t.app.inject({
      method: 'GET',
      url: '/api/v1/',
      headers: { cookie: 'refdesk_session=x' },
    })
    expect(api.statusCode).toBe(401)
    expect(api.headers['set-cookie']).toBeUndefined()
    expect(api.headers['content-security-policy']).toBeUndefined()
    expect(api.headers['access-control-allow-origin']).toBeUndefined()
    expect(api.json()).toEqual({ error: 'unauthorized' })
  })

  it('serves the stylesheet with a content hash, cached for good', async () => {
    const page = await t.visitor().get('/app/')
    const href = /<link rel="stylesheet" href="([^"]+)">/.exec(page.body)![1]!
    const css = await t.visitor().get(href)
    expect(css.status).toBe(200)
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8')
    expect(css.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect((await t.visitor().get('/app/static/other.css')).status).toBe(404)
  })
})

describe('app sign-in over https', () => {
  const t = useWebApp({ REFDESK_PUBLIC_URL: 'https://refdesk.example.org' })

  it('uses __Host- cookies, Secure, on path /', async () => {
    const sam = uniqueEmail('sam')
    await seedUser(t.runtime.deps.db, { email: sam })
    const visitor = t.visitor()
    const first = await visitor.get('/app/')
    expect([first.headers['set-cookie']].flat().join('\n')).toMatch(
      /^__Host-refdesk_csrf=[^;]+; Path=\/; HttpOnly; Secure; SameSite=Strict$/m,
    )
    await visitor.post('/app/sign-in', { email: sam })
    const token = t.linkTokenFor(sam)
    expect(t.mail[0]!.text).toContain(`https://refdesk.example.org/app/sign-in/link?token=${token}`)
    await visitor.get(`/app/sign-in/link?token=${token}`)
    const done = await visitor.post('/app/sign-in/link', { token })
    expect([done.headers['set-cookie']].flat().join('\n')).toMatch(
      /^__Host-refdesk_session=[^;]+; Path=\/; Expires=[^;]+; HttpOnly; Secure; SameSite=Lax$/m,
    )
    expect(done.headers['strict-transport-security']).toBeDefined()
  })
})

describe('app sign-in without SMTP', () => {
  it('says to ask the operator', async () => {
    const sam = uniqueEmail('sam')
    const { buildHttp, openRuntime } = await import('../../src/app.js')
    const { testDatabaseUrl, isPostgres } = await import('../helpers/app.js')
    const runtime = await openRuntime(await testDatabaseUrl(), { migrate: !isPostgres() })
    const app = await buildHttp(runtime)
    try {
      const { Visitor } = await import('./browser-like.js')
      const visitor = new Visitor(app)
      expect((await visitor.get('/app/')).body).toContain('ask your RefDesk operator for a sign-in link')
      const sent = await visitor.post('/app/sign-in', { email: sam })
      expect(sent.body).toContain('Ask your operator')
    } finally {
      await app.close()
      await runtime.close()
    }
  })
})
