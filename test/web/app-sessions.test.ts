// Issue 21, item 8: claims and withdrawals limited per person, CSRF tokens bound to their session, the idle
// time-out of sessions (REFDESK_SESSION_IDLE_HOURS) and Sign out everywhere on Profile.
import { describe, expect, it } from 'vitest'
import { seedGame, seedLeague, seedMembership, seedUser, uniqueEmail } from '../helpers/fixtures.js'
import { useWebApp, type Visitor } from './browser-like.js'

const HOUR = 3_600_000

describe('app actions, sessions and CSRF', () => {
  const t = useWebApp()

  async function official() {
    const db = t.runtime.deps.db
    const league = await seedLeague(db)
    const email = uniqueEmail('sam')
    await seedMembership(db, league, await seedUser(db, { email }))
    const game = await seedGame(db, league, { startsAt: new Date(t.now.getTime() + 48 * HOUR).toISOString() })
    return { db, email, game }
  }

  const positionStatus = async (db: typeof t.runtime.deps.db, id: string) =>
    (await db.selectFrom('positions').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status

  it('limits claims and withdrawals to 30 a minute per person, across their sessions, with a plain 429 page', async () => {
    const { db, email, game } = await official()
    const [phone, laptop] = [await t.signIn(email), await t.signIn(email)]
    for (const visitor of [phone, laptop]) await visitor.get('/app/open')
    for (let i = 0; i < 15; i++) {
      for (const visitor of [phone, laptop]) {
        const page = await visitor.post('/app/claim', { gameId: 'nosuchgame', positionId: 'nosuchposition' })
        expect(page.location).toBe('/app/open?notice=gone')
      }
    }
    const claim = { gameId: game.id, positionId: game.positionIds[0]! }
    const refused = await phone.post('/app/claim', claim)
    expect(refused.status).toBe(429)
    expect(refused.headers['retry-after']).toBe('60')
    expect(refused.body).toContain('Too many actions')
    expect(refused.body).toContain('Wait a minute, then try again.')
    expect((await laptop.post('/app/withdraw', { positionId: game.positionIds[0]! })).status).toBe(429)
    expect(await positionStatus(db, game.positionIds[0]!)).toBe('open')

    // Someone else is not slowed down, and a minute later the person may act again.
    const other = await official()
    const visitor = await t.signIn(other.email)
    await visitor.get('/app/open')
    const theirs = { gameId: other.game.id, positionId: other.game.positionIds[0]! }
    expect((await visitor.post('/app/claim', theirs)).location).toBe('/app/?notice=claimed')
    t.now = new Date(t.now.getTime() + 60_000)
    expect((await phone.post('/app/claim', claim)).location).toBe('/app/?notice=claimed')
  })

  it('refuses a CSRF token of one session in another, even in the same browser', async () => {
    const { email } = await official()
    const browser = await t.signIn(email)
    await browser.get('/app/profile')
    const oldToken = browser.csrf
    // A new session in the same browser (its CSRF secret cookie is kept).
    const csrfCookie = browser.cookies.get('refdesk_csrf')
    await browser.post('/app/sign-in', { email })
    const token = t.linkTokenFor(email)
    await browser.get(`/app/sign-in/link?token=${token}`)
    expect((await browser.post('/app/sign-in/link', { token })).status).toBe(303)
    expect(browser.cookies.get('refdesk_csrf')).toBe(csrfCookie)

    const stale = await browser.post('/app/profile', { _csrf: oldToken, timeZone: 'Europe/Paris' })
    expect(stale.status).toBe(403)
    expect(stale.body).toContain('This form has expired')
    await browser.get('/app/profile')
    expect((await browser.post('/app/profile', { timeZone: 'Europe/Paris' })).status).toBe(303)

    // Another person's token and secret cookie, sent with this person's session: refused too.
    const stranger = await t.signIn((await official()).email)
    await stranger.get('/app/profile')
    const forged = t.visitor()
    forged.cookies.set('refdesk_session', browser.cookies.get('refdesk_session')!)
    forged.cookies.set('refdesk_csrf', stranger.cookies.get('refdesk_csrf')!)
    const crossed = await forged.post('/app/profile', { _csrf: stranger.csrf, timeZone: 'Asia/Tokyo' })
    expect(crossed.status).toBe(403)
  })

  it('ends a session unused for 72 hours; using it keeps it alive', async () => {
    const { email } = await official()
    const idle = await t.signIn(email)
    const used = await t.signIn(email)
    const start = t.now.getTime()
    t.now = new Date(start + 71 * HOUR)
    expect((await used.get('/app/open')).status).toBe(200)
    t.now = new Date(start + 72 * HOUR)
    expect((await idle.get('/app/open')).location).toBe('/app/')
    t.now = new Date(start + 142 * HOUR)
    expect((await used.get('/app/open')).status).toBe(200)
  })

  it('Sign out everywhere on Profile ends every session of the person, and no one else’s', async () => {
    const { email } = await official()
    const [phone, laptop] = [await t.signIn(email), await t.signIn(email)]
    const bystander = await t.signIn((await official()).email)
    const profile = await phone.get('/app/profile')
    expect(profile.body).toContain('<button type="submit" class="button">Sign out everywhere</button>')
    const out = await phone.post('/app/sign-out/everywhere')
    expect([out.status, out.location]).toEqual([303, '/app/'])
    expect(phone.cookies.has('refdesk_session')).toBe(false)
    for (const visitor of [laptop, phone] as Visitor[]) {
      expect((await visitor.get('/app/open')).location).toBe('/app/')
    }
    expect((await bystander.get('/app/open')).status).toBe(200)
    expect(
      await t.runtime.deps.db.selectFrom('sessions').select('seq').where('email', '=', email).execute(),
    ).toEqual([])
  })
})

describe('REFDESK_SESSION_IDLE_HOURS', () => {
  const t = useWebApp({ REFDESK_SESSION_IDLE_HOURS: '2' })

  it('sets the idle time-out', async () => {
    const email = uniqueEmail('sam')
    await seedUser(t.runtime.deps.db, { email })
    const visitor = await t.signIn(email)
    t.now = new Date(t.now.getTime() + 2 * HOUR - 1)
    expect((await visitor.get('/app/open')).status).toBe(200)
    t.now = new Date(t.now.getTime() + 2 * HOUR)
    expect((await visitor.get('/app/open')).location).toBe('/app/')
  })
})
