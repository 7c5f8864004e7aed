// The officials' app in a real browser: sign-in through the emailed link, refused links, claims and a lost
// race in two browser contexts, withdrawal, earnings after the organizer's completion and payment, scoping,
// CSRF, sign-out; axe-core on every page and screenshots at phone and desktop width.
import type { BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { completeGame, markPaid } from '../src/domain/payments/payments.js'
import { checkPage, DESKTOP, soon, startHarness, type Harness } from './harness.js'
import { CONSOLE_CALLER } from '../src/domain/core/caller.js'

const SAM = 'sam@example.com'
const ANN = 'ann@example.com'

describe('the RefDesk app in chromium', () => {
  let h: Harness
  let league: { id: string }
  let games: { id: string; startsAt: string; positions: { id: string }[] }[]
  let rivalGame: { id: string; positions: { id: string }[] }
  let zoeHeld: { id: string; positions: { id: string }[] }
  const contexts: BrowserContext[] = []
  /** Sam's browser, signed in by the first test and used by the others (links are rate-limited per address). */
  let sam: Page

  async function newPage(): Promise<Page> {
    const context = await h.browser.newContext({ viewport: DESKTOP })
    contexts.push(context)
    return context.newPage()
  }

  async function signIn(email: string): Promise<Page> {
    const page = await newPage()
    await page.goto(`${h.origin}/app/`)
    await page.getByLabel('Email').fill(email)
    await page.getByRole('button', { name: 'Send sign-in link' }).click()
    await page.getByRole('heading', { name: 'Check your email' }).waitFor()
    await page.goto(await h.nextSignInLink(email))
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    await page.getByRole('heading', { name: 'Schedule' }).waitFor()
    return page
  }

  const notice = (page: Page) => page.locator('.notice').textContent()

  beforeAll(async () => {
    h = await startHarness()
    // What a partner does: a league, its games and its officials, over the partner API.
    league = await h.api('POST', '/leagues', {
      name: 'Metro Youth Soccer',
      externalId: 'metro',
      currency: 'usd',
    })
    await h.api('POST', `/leagues/${league.id}/games`, {
      games: [1, 2, 3, 4].map((d) => ({
        externalId: `metro-${d}`,
        startsAt: soon(d, 15),
        sport: 'Soccer',
        location: `Riverside Park, Field ${d}`,
        payDollars: 40 + d * 5,
        label: 'Referee',
      })),
    })
    games = await h.api('GET', `/leagues/${league.id}/games`)
    for (const [externalId, email, name] of [
      ['sam', SAM, 'Sam Whistle'],
      ['ann', ANN, 'Ann Flag'],
    ]) {
      await h.api('POST', `/leagues/${league.id}/officials`, { externalId, email, name })
    }
    // Another league of the same partner, where Sam's membership is still pending and Zoe holds a game.
    const rival = await h.api('POST', '/leagues', { name: 'Rival Basketball', externalId: 'rival' })
    await h.api('POST', `/leagues/${rival.id}/games`, {
      games: [1, 2].map((d) => ({
        externalId: `rival-${d}`,
        startsAt: soon(d, 18),
        sport: 'Basketball',
        payDollars: 60,
      })),
    })
    ;[rivalGame, zoeHeld] = await h.api('GET', `/leagues/${rival.id}/games`)
    const zoe = await h.api('POST', `/leagues/${rival.id}/officials`, {
      externalId: 'zoe',
      email: 'zoe@example.com',
    })
    await h.api('POST', `/leagues/${rival.id}/officials`, {
      externalId: 'sam',
      email: SAM,
      status: 'pending',
    })
    await h.api('POST', `/games/${zoeHeld.id}/assign`, { userId: zoe.userId })
  })

  afterAll(async () => {
    for (const context of contexts) await context.close()
    await h?.close()
  })

  it('signs in through the link mailed by a real SMTP server', async () => {
    const page = await newPage()
    await page.goto(`${h.origin}/app/`)
    expect(await checkPage(page, 'sign-in')).toEqual([])
    await page.getByLabel('Email').fill('SAM@example.com')
    await page.getByRole('button', { name: 'Send sign-in link' }).click()
    await page.getByRole('heading', { name: 'Check your email' }).waitFor()
    expect(await checkPage(page, 'check-email')).toEqual([])

    const link = await h.nextSignInLink(SAM)
    await page.goto(link)
    expect(await checkPage(page, 'sign-in-link')).toEqual([])
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    await page.getByRole('heading', { name: 'Schedule' }).waitFor()
    expect(await page.locator('footer').textContent()).toContain(`Signed in as ${SAM}`)
    expect(await checkPage(page, 'schedule-empty')).toEqual([])
    sam = page

    // The same link, used: refused.
    const again = await newPage()
    await again.goto(link)
    await again.getByRole('heading', { name: 'This link no longer works' }).waitFor()
    expect(await checkPage(again, 'link-used')).toEqual([])
  })

  it('refuses an expired link', async () => {
    const page = await newPage()
    await page.goto(`${h.origin}/app/`)
    await page.getByLabel('Email').fill(SAM)
    await page.getByRole('button', { name: 'Send sign-in link' }).click()
    const link = await h.nextSignInLink(SAM)
    h.advanceClock(15 * 60_000 + 1000)
    await page.goto(link)
    await page.getByRole('heading', { name: 'This link no longer works' }).waitFor()
    expect(await page.getByRole('button', { name: 'Sign in', exact: true }).count()).toBe(0)
  })

  it('claims a game; a second official racing for it is told someone else took it; withdraws', async () => {
    const ann = await signIn(ANN)
    await sam.goto(`${h.origin}/app/open`)
    await ann.goto(`${h.origin}/app/open`)
    expect(await checkPage(sam, 'open-games')).toEqual([])
    expect(await sam.getByText('Rival Basketball').count()).toBe(0)

    // Both pages show the same first game; Sam claims it first, then Ann's stale page tries.
    await sam.getByRole('button', { name: 'Claim' }).first().click()
    expect(await notice(sam)).toBe('You claimed the game. It is on your schedule.')
    await ann.getByRole('button', { name: 'Claim' }).first().click()
    expect(ann.url()).toBe(`${h.origin}/app/open?notice=taken`)
    expect(await notice(ann)).toBe('Someone else took this game.')
    expect(await checkPage(ann, 'open-games-taken')).toEqual([])

    const card = sam.locator('.card', { hasText: 'Riverside Park, Field 1' })
    expect(await card.count()).toBe(1)
    expect(await checkPage(sam, 'schedule')).toEqual([])
    await card.getByRole('button', { name: 'Withdraw' }).click()
    await sam.getByRole('heading', { name: 'Withdraw from this game?' }).waitFor()
    expect(await checkPage(sam, 'withdraw')).toEqual([])
    await sam.getByRole('button', { name: 'Withdraw' }).click()
    expect(await notice(sam)).toBe('You withdrew from the game. It is open for other officials again.')
    expect(await sam.getByText('No upcoming games').count()).toBe(1)
    const detail = await h.api('GET', `/games/${games[0]!.id}`)
    expect(detail.positions[0].status).toBe('open')
  })

  it('sees earnings once the organizer completes the game and pays', async () => {
    await sam.goto(`${h.origin}/app/open`)
    await sam.getByRole('button', { name: 'Claim' }).first().click()
    await sam.goto(`${h.origin}/app/open`)
    await sam.getByRole('button', { name: 'Claim' }).first().click()
    expect(await notice(sam)).toBe('You claimed the game. It is on your schedule.')
    // The organizer's in-app actions, through the services `refdesk app complete` and `app pay` run, once
    // both games have been played (the later two stay upcoming).
    // Up to 87 hours, as the clock stands when the suite runs; an app session unused for 72 ends, so Sam
    // opens the app on the way, as an official does while games are ahead.
    const played = Date.parse(games[1]!.startsAt) - Date.now() + 60_000
    h.advanceClock(played / 2)
    await sam.goto(`${h.origin}/app/schedule`)
    h.advanceClock(played / 2)
    const first = await completeGame(h.runtime.deps, CONSOLE_CALLER, games[0]!.id)
    await completeGame(h.runtime.deps, CONSOLE_CALLER, games[1]!.id)
    await markPaid(h.runtime.deps, CONSOLE_CALLER, first.positions[0]!.payment!.id)

    await sam.getByRole('link', { name: 'Earnings' }).click()
    await sam.getByRole('heading', { name: 'Earnings' }).waitFor()
    expect(await sam.locator('.totals tbody tr').textContent()).toBe('USD$50.00$45.00')
    expect(await sam.locator('.card .status').allTextContents()).toEqual([
      'Pending',
      expect.stringMatching(/^Paid · /),
    ])
    expect(await checkPage(sam, 'earnings')).toEqual([])
    await sam.getByRole('link', { name: 'Schedule' }).click()
    expect(await sam.locator('.card .status').allTextContents()).toEqual(['Worked', 'Worked'])
  })

  it('leagues, calendar feed and time zone', async () => {
    await sam.getByRole('link', { name: 'Leagues' }).click()
    expect(await sam.locator('.card', { hasText: 'Rival Basketball' }).textContent()).toContain(
      'Awaits approval by the organizer',
    )
    expect(await checkPage(sam, 'leagues')).toEqual([])

    await sam.getByRole('link', { name: 'Calendar' }).click()
    expect(await checkPage(sam, 'calendar')).toEqual([])
    await sam.getByRole('button', { name: 'Make a calendar address' }).click()
    const feedUrl = await sam.getByLabel('Your calendar address').inputValue()
    expect(await checkPage(sam, 'calendar-address')).toEqual([])
    const ics = await (await fetch(feedUrl)).text()
    expect(ics).toContain('SUMMARY:Soccer · Metro Youth Soccer')
    expect(ics.match(/BEGIN:VEVENT/g)).toHaveLength(2)
    await sam.getByRole('button', { name: 'Make a new calendar address' }).click()
    expect((await fetch(feedUrl)).status).toBe(404)

    await sam.getByRole('link', { name: 'Profile' }).click()
    await sam.getByLabel('Time zone').selectOption('America/New_York')
    await sam.getByRole('button', { name: 'Save time zone' }).click()
    expect(await notice(sam)).toBe('Saved.')
    expect(await checkPage(sam, 'profile')).toEqual([])
    await sam.getByRole('link', { name: 'Open games' }).click()
    expect(await sam.locator('.zone').textContent()).toContain('Times in America/New_York')
    expect(await sam.locator('.when').first().textContent()).toMatch(/ (EST|EDT)$/)
  })

  it("cannot see or act on another league's games: tampered ids answer like missing ones", async () => {
    const claimWith = async (gameId: string, positionId: string) => {
      await sam.goto(`${h.origin}/app/open`)
      const form = sam.locator('form[action="/app/claim"]').first()
      await form
        .locator('input[name="gameId"]')
        .evaluate((el, v) => ((el as unknown as { value: string }).value = v), gameId)
      await form
        .locator('input[name="positionId"]')
        .evaluate((el, v) => ((el as unknown as { value: string }).value = v), positionId)
      await form.getByRole('button', { name: 'Claim' }).click()
      return { url: sam.url(), notice: await notice(sam) }
    }
    const tampered = await claimWith(rivalGame.id, rivalGame.positions[0]!.id)
    const missing = await claimWith('nosuchgame', 'nosuchposition')
    expect(tampered).toEqual(missing)
    expect(tampered.notice).toBe('That game is not open any more.')
    expect((await h.api('GET', `/games/${rivalGame.id}`)).positions[0].status).toBe('open')

    const theirs = await sam.goto(`${h.origin}/app/withdraw/${zoeHeld.positions[0]!.id}`)
    expect(theirs?.status()).toBe(404)
    const theirsText = await sam.locator('main').textContent()
    const nowhere = await sam.goto(`${h.origin}/app/withdraw/nosuchposition`)
    expect(nowhere?.status()).toBe(404)
    expect(await sam.locator('main').textContent()).toBe(theirsText)
    expect(await checkPage(sam, 'not-found')).toEqual([])
  })

  it('refuses a form posted without its CSRF token', async () => {
    await sam.goto(`${h.origin}/app/open`)
    const form = sam.locator('form[action="/app/claim"]').first()
    await form.locator('input[name="_csrf"]').evaluate((el) => el.remove())
    const response = sam.waitForResponse((r) => r.url().endsWith('/app/claim'))
    await form.getByRole('button', { name: 'Claim' }).click()
    expect((await response).status()).toBe(403)
    await sam.getByRole('heading', { name: 'This form has expired' }).waitFor()
    expect(await checkPage(sam, 'csrf-refused')).toEqual([])
    await sam.goto(`${h.origin}/app/`)
    expect(await sam.locator('.card').count()).toBe(2)
  })

  it('signs out: the session ends on the server', async () => {
    const cookies = await sam.context().cookies()
    await sam.getByRole('button', { name: 'Sign out' }).click()
    await sam.getByRole('button', { name: 'Send sign-in link' }).waitFor()
    await sam.goto(`${h.origin}/app/earnings`)
    expect(sam.url()).toBe(`${h.origin}/app/`)

    // The old cookie, replayed in another browser, signs nobody in.
    const replay = await newPage()
    await replay.context().addCookies(cookies)
    await replay.goto(`${h.origin}/app/earnings`)
    expect(replay.url()).toBe(`${h.origin}/app/`)
    await replay.getByRole('button', { name: 'Send sign-in link' }).waitFor()
  })
})
