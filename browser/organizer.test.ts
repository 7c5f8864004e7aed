// A season run by the organizer in chromium: the partner imports games and officials over the API, two
// officials claim in their own browsers, the organizer approves a pending official, completes games (one
// that two officials worked), records a no-show, marks offline payments paid (one, then a selection) and
// charges platform ones with each simulated outcome. A local HTTPS receiver, trusted by the dispatcher
// through its own self-signed certificate, must get every event signed and exactly once. axe-core and
// phone/desktop screenshots on every organizer page; authorisation probes from an official's browser.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:https'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { parseAllowPrivate } from '../src/net/address-guard.js'
import { startDispatcher, type Dispatcher } from '../src/webhooks/dispatcher.js'
import { parseRetrySchedule } from '../src/webhooks/retry-schedule.js'
import { seedPosition } from '../test/helpers/fixtures.js'
import { ARTIFACTS, checkPage, DESKTOP, playedAlready, soon, startHarness, type Harness } from './harness.js'

/** The width the accessibility review used: a common phone's, a little wider than PHONE's. */
const PHONE_390 = { width: 390, height: 844 }

const ORGANIZER = 'organizer@example.com'
const SAM = 'sam.whistle@example.com'
const ANN = 'ann.flag@example.com'

interface Delivery {
  id: string
  event: string
  body: string
  headers: Record<string, string>
}

/** An HTTPS receiver on loopback with a certificate made for this run by openssl. */
async function startReceiver(): Promise<{
  url: string
  ca: Buffer
  received: Delivery[]
  close(): Promise<void>
}> {
  const dir = mkdtempSync(join(tmpdir(), 'refdesk-receiver-'))
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1',
    '-addext', 'subjectAltName=IP:127.0.0.1',
    '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
  ], { stdio: 'ignore' }) // prettier-ignore
  const key = readFileSync(join(dir, 'key.pem'))
  const cert = readFileSync(join(dir, 'cert.pem'))
  rmSync(dir, { recursive: true, force: true })
  const received: Delivery[] = []
  const server: Server = createServer({ key, cert }, (req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      const json = JSON.parse(body) as { id: string; event: string }
      received.push({ id: json.id, event: json.event, body, headers: req.headers as Record<string, string> })
      res.writeHead(204).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  return {
    url: `https://127.0.0.1:${port}/refdesk`,
    ca: cert,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

describe('an organizer runs a season in chromium', () => {
  let h: Harness
  let receiver: Awaited<ReturnType<typeof startReceiver>>
  let dispatcher: Dispatcher
  let secret: string
  let riverside: { id: string }
  let valley: { id: string }
  let riversideGames: { id: string; positions: { id: string }[] }[]
  const contexts: BrowserContext[] = []
  let organizer: Page
  let sam: Page
  let ann: Page

  async function signIn(email: string, home: string): Promise<Page> {
    const context = await h.browser.newContext({ viewport: DESKTOP })
    contexts.push(context)
    const page = await context.newPage()
    await page.goto(`${h.origin}/app/`)
    await page.getByLabel('Email').fill(email)
    await page.getByRole('button', { name: 'Send sign-in link' }).click()
    await page.getByRole('heading', { name: 'Check your email' }).waitFor()
    await page.goto(await h.nextSignInLink(email))
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    await page.getByRole('heading', { name: home }).waitFor()
    return page
  }

  const notice = (page: Page) => page.locator('.notice').textContent()

  beforeAll(async () => {
    h = await startHarness()
    receiver = await startReceiver()
    dispatcher = startDispatcher({
      database: h.runtime.database,
      settings: {
        retrySchedule: parseRetrySchedule('0s,200ms,1s'),
        timeoutMs: 5000,
        policy: parseAllowPrivate('127.0.0.0/8'),
        concurrency: 8,
        perEndpointConcurrency: 4,
        pollIntervalMs: 200,
      },
      ca: receiver.ca,
    })
    ;({ secret } = await h.api('POST', '/webhooks', { url: receiver.url }))

    riverside = await h.api('POST', '/leagues', { name: 'Riverside Youth Soccer', externalId: 'riverside' })
    valley = await h.api('POST', '/leagues', {
      name: 'Valley Basketball',
      externalId: 'valley',
      paymentMode: 'platform',
      currency: 'usd',
    })
    await h.api('POST', `/leagues/${riverside.id}/games`, {
      games: [1, 2, 3, 4].map((d) => ({
        externalId: `riverside-${d}`,
        startsAt: soon(d, 15),
        sport: 'Soccer',
        location: `Riverside Park, Field ${d}`,
        payDollars: 45,
        label: 'Referee',
      })),
    })
    await h.api('POST', `/leagues/${valley.id}/games`, {
      games: [1, 2, 3].map((d) => ({
        externalId: `valley-${d}`,
        startsAt: soon(d, 18),
        sport: 'Basketball',
        location: 'Valley High Gym',
        payDollars: 60,
        label: 'Crew chief',
      })),
    })
    riversideGames = await h.api('GET', `/leagues/${riverside.id}/games`)
    // The partner API makes one position per game; the first game gets an assistant referee as well, so
    // that two officials work it.
    await seedPosition(h.runtime.deps.db, riversideGames[0]!.id, {
      label: 'Assistant referee',
      payCents: 3000,
    })
    for (const league of [riverside, valley]) {
      for (const [externalId, email, name] of [
        ['sam', SAM, 'Sam Whistle'],
        ['ann', ANN, 'Ann Flag'],
      ]) {
        await h.api('POST', `/leagues/${league.id}/officials`, { externalId, email, name })
      }
    }
    await h.api('POST', `/leagues/${riverside.id}/officials`, {
      externalId: 'pat',
      email: 'pat@example.com',
      name: 'Pat Pending',
      status: 'pending',
    })
  })

  afterAll(async () => {
    for (const context of contexts) await context.close()
    await dispatcher?.stop(0)
    await receiver?.close()
    await h?.close()
  })

  it('My leagues: counts per status, pending officials, payment mode and currency', async () => {
    organizer = await signIn(ORGANIZER, 'Schedule')
    await organizer.getByRole('link', { name: 'Organize' }).click()
    await organizer.getByRole('heading', { name: 'My leagues' }).waitFor()
    const card = organizer.locator('.card', { hasText: 'Riverside Youth Soccer' })
    await expect(card.textContent()).resolves.toMatch(
      /Paid offline · USD.*Open4.*Claimed0.*Pending officials1/s,
    )
    await expect(organizer.locator('.card', { hasText: 'Valley Basketball' }).textContent()).resolves.toMatch(
      /Paid through RefDesk · USD/,
    )
    expect(await checkPage(organizer, 'organizer-leagues')).toEqual([])
  })

  it('approves the pending official', async () => {
    await organizer
      .locator('.card', { hasText: 'Riverside' })
      .getByRole('link', { name: '1', exact: true })
      .click()
    await organizer.getByRole('heading', { name: 'Riverside Youth Soccer' }).waitFor()
    const pat = organizer.locator('.card', { hasText: 'Pat Pending' })
    await expect(pat.textContent()).resolves.toContain('Pending approval')
    expect(await checkPage(organizer, 'organizer-officials')).toEqual([])
    await pat.getByRole('button', { name: 'Approve' }).click()
    expect(await notice(organizer)).toBe('Official approved: they can claim this league’s games.')
    await expect(organizer.locator('.card', { hasText: 'Pat Pending' }).textContent()).resolves.toContain(
      'Approved',
    )
  })

  it('two officials claim in their own browsers', async () => {
    sam = await signIn(SAM, 'Schedule')
    ann = await signIn(ANN, 'Schedule')
    // Soonest first: Riverside 1 (two positions), Valley 1, Riverside 2, Valley 2, Riverside 3, Valley 3, Riverside 4.
    for (const page of [sam, ann, sam, ann, sam, ann, sam]) {
      await page.goto(`${h.origin}/app/open`)
      await page.getByRole('button', { name: 'Claim' }).first().click()
      expect(await notice(page)).toBe('You claimed the game. It is on your schedule.')
    }
  })

  it('completes a game two officials worked, after a confirmation that says what will happen', async () => {
    await playedAlready(h, [riverside.id, valley.id])
    await organizer.goto(`${h.origin}/app/organize/leagues/${riverside.id}`)
    expect(await checkPage(organizer, 'organizer-games')).toEqual([])
    const first = organizer.locator('.card', { hasText: 'Field 1' })
    await first.getByRole('button', { name: 'Complete', exact: true }).click()
    await organizer.getByRole('heading', { name: 'Complete this game?' }).waitFor()
    const text = await organizer.locator('main').textContent()
    expect(text).toContain('Sam Whistle gets a pending payment of $45.00 (Referee)')
    expect(text).toContain('Ann Flag gets a pending payment of $30.00 (Assistant referee)')
    expect(await checkPage(organizer, 'organizer-complete')).toEqual([])
    await organizer.getByRole('button', { name: 'Complete', exact: true }).click()
    expect(await notice(organizer)).toBe('Game completed. Each worked position now has a pending payment.')

    // The fourth game is still open: its page says why it cannot be completed and offers no button.
    await organizer.goto(`${h.origin}/app/organize/games/${riversideGames[3]!.id}/complete`)
    await expect(organizer.locator('.why').textContent()).resolves.toContain('Still open: Referee.')
    expect(await organizer.getByRole('button', { name: 'Complete', exact: true }).count()).toBe(0)
    expect(await checkPage(organizer, 'organizer-complete-blocked')).toEqual([])

    for (const [league, field] of [
      [riverside, 'Field 2'],
      [riverside, 'Field 3'],
    ] as const) {
      await organizer.goto(`${h.origin}/app/organize/leagues/${league.id}`)
      await organizer
        .locator('.card', { hasText: field })
        .getByRole('button', { name: 'Complete', exact: true })
        .click()
      await organizer.getByRole('button', { name: 'Complete', exact: true }).click()
      expect(await notice(organizer)).toContain('Game completed.')
    }
    for (let i = 0; i < 3; i++) {
      await organizer.goto(`${h.origin}/app/organize/leagues/${valley.id}?status=claimed`)
      await organizer.getByRole('button', { name: 'Complete', exact: true }).first().click()
      await organizer.getByRole('button', { name: 'Complete', exact: true }).click()
      expect(await notice(organizer)).toContain('Game completed.')
    }
  })

  it('records a no-show, showing first what it does to the payment', async () => {
    await organizer.goto(`${h.origin}/app/organize/leagues/${riverside.id}?status=completed`)
    const line = organizer.locator('.positions li', { hasText: 'Assistant referee' })
    await line.getByRole('button', { name: 'No-show' }).click()
    await organizer.getByRole('heading', { name: 'Record a no-show?' }).waitFor()
    expect(await organizer.locator('main').textContent()).toContain(
      'their pending payment of $30.00 is removed',
    )
    expect(await checkPage(organizer, 'organizer-no-show')).toEqual([])
    await organizer.getByRole('button', { name: 'No-show' }).click()
    expect(await notice(organizer)).toBe('No-show recorded. The position is cancelled, unpaid.')
  })

  it('marks one offline payment paid, then a selection at once; exports the ledger', async () => {
    await organizer.goto(`${h.origin}/app/organize/leagues/${riverside.id}/payouts`)
    await expect(organizer.locator('.totals').first().textContent()).resolves.toMatch(/Pending3\$135\.00 USD/)
    await organizer.getByRole('button', { name: 'Mark paid' }).first().click()
    expect(await notice(organizer)).toBe('Payment marked paid.')
    const boxes = organizer.getByRole('checkbox')
    expect(await boxes.count()).toBe(2)
    for (const box of await boxes.all()) await box.check()
    expect(await checkPage(organizer, 'organizer-payouts')).toEqual([])
    // At a phone's width the tables scroll sideways: axe checks the page there too (each scrolling
    // region must take the keyboard's focus and have a name).
    await organizer.setViewportSize(PHONE_390)
    await organizer.screenshot({ path: join(ARTIFACTS, 'organizer-payouts-390.png'), fullPage: true })
    expect(await checkPage(organizer, 'organizer-payouts-at-390')).toEqual([])
    await organizer.setViewportSize(DESKTOP)
    await organizer.getByRole('button', { name: 'Mark selected paid' }).click()
    await organizer.getByRole('button', { name: 'Mark paid 2 payments' }).click()
    expect(await notice(organizer)).toBe('The selected payments are marked paid.')
    await expect(organizer.locator('.totals').first().textContent()).resolves.toMatch(/Paid3\$135\.00 USD/)

    const csv = await organizer.request.get(`${h.origin}/app/organize/leagues/${riverside.id}/payouts.csv`)
    expect(csv.headers()['content-type']).toBe('text/csv; charset=utf-8')
    const rows = (await csv.text()).trimEnd().split('\r\n')
    expect(rows).toHaveLength(4)
    expect(rows.slice(1).every((row) => row.includes(',paid,offline,45.00,usd,'))).toBe(true)
  })

  it('charges platform payments with each simulated outcome; the failed one is charged again', async () => {
    const payouts = `${h.origin}/app/organize/leagues/${valley.id}/payouts`
    const charge = async (index: number, outcome: string) => {
      await organizer.goto(`${payouts}?status=${index === 0 ? 'pending' : 'failed'}`)
      await organizer.getByRole('button', { name: 'Charge' }).first().click()
      await organizer.getByRole('heading', { name: 'Charge this payment?' }).waitFor()
      await organizer.getByLabel(outcome).check()
      await organizer.getByRole('button', { name: 'Charge' }).click()
      return notice(organizer)
    }
    await organizer.goto(payouts)
    await organizer.getByRole('button', { name: 'Charge' }).first().click()
    expect(await checkPage(organizer, 'organizer-charge')).toEqual([])
    expect(await charge(0, 'Paid')).toBe('Charged: the payment is paid.')
    expect(await charge(0, 'Failed (card declined)')).toBe(
      'The charge failed. The payment is marked failed, with the reason; you can charge it again.',
    )
    expect(await organizer.locator('.card', { hasText: 'Failed' }).textContent()).toContain(
      'The card was declined (simulated).',
    )
    expect(await charge(0, 'Needs card')).toContain('Not charged: your card needs authentication first.')
    expect(await charge(1, 'Paid')).toBe('Charged: the payment is paid.')
    await organizer.goto(payouts)
    await expect(organizer.locator('.totals').first().textContent()).resolves.toMatch(
      /Paid2\$120\.00 USD.*Needs card1\$60\.00 USD/s,
    )
    expect(await checkPage(organizer, 'organizer-payouts-platform')).toEqual([])
  })

  it('the officials see their payments on Earnings', async () => {
    await sam.goto(`${h.origin}/app/earnings`)
    const samText = await sam.locator('main').textContent()
    expect(samText).toMatch(/Paid/)
    await ann.goto(`${h.origin}/app/earnings`)
    const annCards = await ann.locator('.card').allTextContents()
    // Ann's assistant-referee payment went with her no-show.
    expect(annCards.some((card) => card.includes('Assistant referee'))).toBe(false)
  })

  it('officials see none of the organizer pages; a forged form is refused', async () => {
    expect(await sam.getByRole('link', { name: 'Organize' }).count()).toBe(0)
    for (const path of [
      '/app/organize',
      `/app/organize/leagues/${riverside.id}`,
      `/app/organize/leagues/${riverside.id}/payouts`,
      `/app/organize/games/${riversideGames[3]!.id}/complete`,
    ]) {
      const response = await sam.goto(`${h.origin}${path}`)
      expect([path, response?.status()]).toEqual([path, 404])
      await sam.getByRole('heading', { name: 'Not found' }).waitFor()
    }
    const forged = await sam.request.post(
      `${h.origin}/app/organize/games/${riversideGames[3]!.id}/complete`,
      {
        form: { _csrf: 'forged' },
      },
    )
    expect(forged.status()).toBe(403)
  })

  it('the webhook receiver got every event, signed, exactly once', async () => {
    const db = h.runtime.deps.db
    const outbox = await db.selectFrom('outbox_events').select(['id', 'event']).orderBy('seq').execute()
    await vi.waitFor(
      () => {
        if (receiver.received.length < outbox.length) {
          throw new Error(`${receiver.received.length}/${outbox.length} delivered`)
        }
      },
      { timeout: 20_000, interval: 100 },
    )
    const verifier = new Webhook(secret, { format: 'raw' })
    for (const delivery of receiver.received) {
      expect(verifier.verify(delivery.body, delivery.headers)).toMatchObject({ id: delivery.id })
      expect(delivery.headers['webhook-id']).toBe(delivery.id)
    }
    const ids = receiver.received.map((d) => d.id)
    expect(new Set(ids).size).toBe(ids.length)
    expect(ids.sort()).toEqual(outbox.map((e) => e.id).sort())
    const count = (event: string) => receiver.received.filter((d) => d.event === event).length
    expect({
      approved: count('official.approved'),
      claimed: count('position.claimed'),
      completed: count('game.completed'),
      noShow: count('official.no_show'),
      paid: count('payment.paid'),
      failed: count('payment.failed'),
    }).toEqual({ approved: 1, claimed: 7, completed: 6, noShow: 1, paid: 5, failed: 1 })
  })
})
