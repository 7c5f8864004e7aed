// The organizer's desk in chromium: a weekend run in the app alone. The organizer adds two officials, looks
// at the Assign tab and a draft plan, assigns on the game page (one conflict answered with Assign anyway),
// reschedules one game and cancels another behind its confirmation; after the games, completes them all at
// once from Needs completion and pays the offline league with Select all, each bulk action asked first. axe-core and phone/desktop screenshots of each page it passes.
import type { BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkPage, DESKTOP, playedAlready, soon, startHarness, type Harness } from './harness.js'

const ORGANIZER = 'organizer@example.com'

describe("the organizer's desk in chromium", () => {
  let h: Harness
  let context: BrowserContext
  let page: Page
  let league: { id: string }
  let games: { id: string; startsAt: string }[]

  const notice = () => page.locator('.notice').first().textContent()

  beforeAll(async () => {
    h = await startHarness()
    league = await h.api('POST', '/leagues', { name: 'Harbor Youth Soccer', externalId: 'harbor' })
    await h.api('POST', `/leagues/${league.id}/games`, {
      games: [1, 2, 3].map((d) => ({
        externalId: `harbor-${d}`,
        startsAt: soon(1, 12 + d),
        sport: 'Soccer',
        location: `Harbor Field ${d}`,
        payDollars: 40,
        label: 'Referee',
      })),
    })
    games = await h.api('GET', `/leagues/${league.id}/games`)
    context = await h.browser.newContext({ viewport: DESKTOP })
    page = await context.newPage()
    await page.goto(`${h.origin}/app/`)
    await page.getByLabel('Email').fill(ORGANIZER)
    await page.getByRole('button', { name: 'Send sign-in link' }).click()
    await page.getByRole('heading', { name: 'Check your email' }).waitFor()
    await page.goto(await h.nextSignInLink(ORGANIZER))
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    await page.getByRole('heading', { name: 'Schedule' }).waitFor()
  })

  afterAll(async () => {
    await context?.close()
    await h?.close()
  })

  it('adds two officials with their levels', async () => {
    await page.goto(`${h.origin}/app/organize/leagues/${league.id}/officials`)
    for (const [email, name, level] of [
      ['lou.line@example.com', 'Lou Line', '3'],
      ['kim.kick@example.com', 'Kim Kick', '2'],
    ] as const) {
      // The form is folded away once the league has officials.
      if (!(await page.getByLabel('Email').isVisible())) await page.locator('summary').click()
      await page.getByLabel('Email').fill(email)
      await page.getByLabel('Name').fill(name)
      await page.locator('#new-level').selectOption(level)
      await page.getByRole('button', { name: 'Add official' }).click()
      expect(await notice()).toContain('Official added and approved')
    }
    await expect(page.locator('.card', { hasText: 'Lou Line' }).textContent()).resolves.toContain('Approved')
    expect(await checkPage(page, 'desk-officials')).toEqual([])
  })

  it('shows the Assign tab with candidates and a draft plan from Fill automatically', async () => {
    await page.getByRole('link', { name: 'Assign', exact: true }).click()
    await page.getByRole('button', { name: 'Fill automatically' }).waitFor()
    expect(await page.getByRole('button', { name: 'Assign', exact: true }).count()).toBeGreaterThan(0)
    expect(await checkPage(page, 'desk-assign-tab')).toEqual([])
    // The window defaults to the coming weekend; the games are tomorrow.
    const day = games[0]!.startsAt.slice(0, 10)
    await page.getByLabel('First day').fill(day)
    await page.getByLabel('Last day').fill(day)
    await page.getByRole('button', { name: 'Fill automatically' }).click()
    await page.getByRole('heading', { name: 'Draft plan' }).waitFor()
    await page.getByRole('button', { name: 'Publish selected' }).waitFor()
    expect(await page.getByRole('button', { name: /^Remove / }).count()).toBeGreaterThan(0)
    expect(await checkPage(page, 'desk-plan')).toEqual([])
  })

  it('assigns on the game page, and Assign anyway after a schedule conflict', async () => {
    await page.goto(`${h.origin}/app/organize/leagues/${league.id}`)
    await page.getByRole('link', { name: 'Soccer' }).first().click()
    await page.getByRole('heading', { name: 'Positions' }).waitFor()
    await page.getByLabel('Official for Referee').selectOption({ label: 'Lou Line (level 3)' })
    await page.getByRole('button', { name: 'Assign', exact: true }).click()
    expect(await notice()).toBe('Assigned. The official is emailed the game.')
    expect(await checkPage(page, 'desk-game')).toEqual([])

    // Game 2 starts an hour later, inside the first game’s 90 minutes: Lou has a conflict.
    await page.goto(`${h.origin}/app/organize/games/${games[1]!.id}`)
    await page.getByLabel('Official for Referee').selectOption({ label: 'Lou Line (level 3)' })
    await page.getByRole('button', { name: 'Assign', exact: true }).click()
    expect(await notice()).toContain('holds another game at this time')
    expect(await checkPage(page, 'desk-assign-anyway')).toEqual([])
    await page.getByRole('button', { name: 'Assign anyway' }).click()
    expect(await notice()).toBe('Assigned. The official is emailed the game.')
  })

  it('reschedules one game and cancels another behind its confirmation', async () => {
    await page.goto(`${h.origin}/app/organize/games/${games[2]!.id}`)
    await page.getByLabel('Official for Referee').selectOption({ label: 'Kim Kick (level 2)' })
    await page.getByRole('button', { name: 'Assign', exact: true }).click()
    await page.getByLabel('Place').fill('Harbor Field 9')
    await page.getByLabel('Duration (minutes)').fill('60')
    await page.getByRole('button', { name: 'Save changes' }).click()
    expect(await notice()).toContain('Game updated')
    await expect(page.locator('.card').first().textContent()).resolves.toContain('Harbor Field 9')

    await page.goto(`${h.origin}/app/organize/games/${games[1]!.id}`)
    await page.getByRole('button', { name: 'Cancel game' }).click()
    await page.getByRole('heading', { name: 'Cancel this game?' }).waitFor()
    expect(await checkPage(page, 'desk-cancel')).toEqual([])
    await page.getByRole('button', { name: 'Cancel game' }).click()
    expect(await notice()).toContain('Game cancelled')
  })

  it('completes the played games at once, then pays them with Select all', async () => {
    await playedAlready(h, [league.id])
    await page.goto(`${h.origin}/app/organize/leagues/${league.id}`)
    await page.getByLabel('Status').selectOption('needs_completion')
    await page.getByRole('button', { name: 'Show games' }).click()
    const boxes = page.getByRole('checkbox')
    expect(await boxes.count()).toBe(2)
    for (const box of await boxes.all()) await box.check()
    expect(await checkPage(page, 'desk-needs-completion')).toEqual([])
    await page.getByRole('button', { name: 'Complete selected' }).click()
    await expect(page.locator('h1').textContent()).resolves.toBe('Complete 2 games?')
    expect(await checkPage(page, 'desk-complete-selected')).toEqual([])
    await page.getByRole('button', { name: 'Complete 2 games' }).click()
    await expect(page.locator('.notice').first().textContent()).resolves.toContain('2 games completed')
    expect(page.url()).toContain('status=needs_completion')

    await page.getByRole('link', { name: 'Payouts' }).click()
    await page.getByRole('link', { name: 'Select all' }).click()
    expect(await page.getByRole('checkbox', { checked: true }).count()).toBe(2)
    await expect(page.locator('.totals', { hasText: 'Per official' }).textContent()).resolves.toMatch(
      /Kim Kick.*\$40\.00.*Lou Line.*\$40\.00/s,
    )
    expect(await checkPage(page, 'desk-payouts')).toEqual([])
    await page.getByRole('button', { name: 'Mark selected paid' }).click()
    await expect(page.locator('.summary').textContent()).resolves.toBe('2 payments, $80.00 in all.')
    expect(await checkPage(page, 'desk-mark-selected-paid')).toEqual([])
    await page.getByRole('button', { name: 'Mark paid 2 payments' }).click()
    expect(await notice()).toBe('The selected payments are marked paid.')
  })
})
