// The organizer's pages over HTTP: My leagues, the games with filters and pages, Complete and No-show behind
// their confirmations, Approve and Deny, payouts (mark paid, in bulk, charge, CSV), and the authorisation
// probes: other leagues' ids, garbage ids, officials, signed-out visitors and forms without a CSRF token.
import { describe, expect, it } from 'vitest'
import {
  eventsOf,
  seedClaimedGame,
  seedGame,
  seedLeague,
  seedMembership,
  seedPayment,
  seedUser,
  uniqueEmail,
} from '../helpers/fixtures.js'
import { useWebApp, type Visitor } from './browser-like.js'

const hoursAfter = (now: Date, h: number) => new Date(now.getTime() + h * 3_600_000).toISOString()

describe("the organizer's pages", () => {
  const t = useWebApp()

  /** Olga organizes Metro (offline) and Cloud (platform); Rita organizes Other. Sam officiates in Metro. */
  async function world() {
    const db = t.runtime.deps.db
    const olgaEmail = uniqueEmail('olga')
    const olga = await seedUser(db, { email: olgaEmail, name: 'Olga' })
    const metro = await seedLeague(db, { name: 'Metro Youth', organizerId: olga })
    const cloud = await seedLeague(db, { name: 'Cloud Cup', organizerId: olga, paymentMode: 'platform' })
    const ritaEmail = uniqueEmail('rita')
    const other = await seedLeague(db, {
      name: 'Other League',
      organizerId: await seedUser(db, { email: ritaEmail }),
    })
    const samEmail = uniqueEmail('sam')
    const sam = await seedUser(db, { email: samEmail, name: 'Sam Reed' })
    await seedMembership(db, metro, sam)
    return { db, olga, olgaEmail, metro, cloud, other, ritaEmail, sam, samEmail }
  }

  async function completedGame(visitor: Visitor, gameId: string) {
    await visitor.get(`/app/organize/games/${gameId}/complete`)
    return visitor.post(`/app/organize/games/${gameId}/complete`)
  }

  it('My leagues lists counts, pending officials, payment mode and currency; officials get no such page', async () => {
    const { db, olgaEmail, metro, samEmail } = await world()
    await seedGame(db, metro)
    await seedClaimedGame(db, metro)
    await seedMembership(db, metro, await seedUser(db), { status: 'pending' })
    const olga = await t.signIn(olgaEmail)
    const page = await olga.get('/app/organize')
    expect(page.status).toBe(200)
    expect(page.body).toContain('<a href="/app/organize" aria-current="page">Organize</a>')
    const metroCard = page.body.slice(page.body.indexOf('Metro Youth'))
    expect(metroCard).toMatch(/Paid offline · USD/)
    expect(metroCard).toMatch(/<dt>Open<\/dt><dd>1<\/dd>.*<dt>Claimed<\/dt><dd>1<\/dd>/s)
    expect(metroCard).toContain(`<a href="/app/organize/leagues/${metro}/officials">1</a>`)
    expect(page.body).toMatch(/Cloud Cup<\/a><\/h2>\s*<p class="meta">Paid through RefDesk · USD/)

    const sam = await t.signIn(samEmail)
    const home = await sam.get('/app/')
    expect(home.body).not.toContain('/app/organize')
    expect((await sam.get('/app/organize')).status).toBe(404)
    expect((await sam.get(`/app/organize/leagues/${metro}`)).status).toBe(404)
  })

  it('completes a claimed game behind a confirmation that says what will happen', async () => {
    const { db, olgaEmail, metro, sam } = await world()
    const game = await seedGame(db, metro, {
      startsAt: hoursAfter(t.now, -2),
      positions: [{ officialId: sam, payCents: 4500, label: 'Referee' }],
    })
    const olga = await t.signIn(olgaEmail)
    const league = await olga.get(`/app/organize/leagues/${metro}`)
    expect(league.body).toContain('Sam Reed')
    expect(league.body).toContain(`action="/app/organize/games/${game.id}/complete"`)

    const confirm = await olga.get(`/app/organize/games/${game.id}/complete`)
    expect(confirm.body).toContain('Sam Reed gets a pending payment of $45.00 (Referee)')
    expect(confirm.body).toContain('<code>game.completed</code>')
    expect(confirm.body).toContain('<button type="submit" class="button">Complete</button>')
    expect(await eventsOf(db, metro)).toEqual([])

    const done = await olga.post(`/app/organize/games/${game.id}/complete`)
    expect([done.status, done.location]).toEqual([303, `/app/organize/leagues/${metro}?notice=completed`])
    expect((await olga.get(done.location!)).body).toContain('Game completed.')
    expect((await eventsOf(db, metro)).map((e) => e.event)).toEqual(['game.completed'])

    const again = await olga.post(`/app/organize/games/${game.id}/complete`)
    expect(again.location).toBe(`/app/organize/games/${game.id}/complete?notice=already_completed`)
    expect((await olga.get(again.location!)).body).toContain('This game is already completed.')
    expect(await eventsOf(db, metro)).toHaveLength(1)
  })

  it('says why a game that is not fully claimed cannot be completed, and offers no Complete button', async () => {
    const { db, olgaEmail, metro, sam } = await world()
    const game = await seedGame(db, metro, {
      positions: [{ officialId: sam }, { label: 'Assistant referee' }],
      status: 'open',
    })
    const olga = await t.signIn(olgaEmail)
    const confirm = await olga.get(`/app/organize/games/${game.id}/complete`)
    expect(confirm.body).toContain(
      'every position must be claimed by an official first. Still open: Assistant referee.',
    )
    expect(confirm.body).not.toContain('>Complete</button>')
    const refused = await olga.post(`/app/organize/games/${game.id}/complete`)
    expect(refused.location).toBe(`/app/organize/games/${game.id}/complete?notice=not_claimed`)
    expect(await eventsOf(db, metro)).toEqual([])
  })

  it('refuses to complete a game before it starts, and says so before anything is pressed', async () => {
    const { db, olgaEmail, metro } = await world()
    const { gameId } = await seedClaimedGame(db, metro, 4500, hoursAfter(t.now, 1))
    const olga = await t.signIn(olgaEmail)
    const league = await olga.get(`/app/organize/leagues/${metro}`)
    expect(league.body).not.toContain(`action="/app/organize/games/${gameId}/complete"`)
    const confirm = await olga.get(`/app/organize/games/${gameId}/complete`)
    expect(confirm.body).toContain('This game has not started yet')
    expect(confirm.body).not.toContain('>Complete</button>')
    const refused = await olga.post(`/app/organize/games/${gameId}/complete`)
    expect(refused.location).toBe(`/app/organize/games/${gameId}/complete?notice=not_started`)
    expect((await olga.get(refused.location!)).body).toContain('complete it once it has been played')
    expect(await eventsOf(db, metro)).toEqual([])
  })

  it('two organizer sessions completing one game at once: one completes it, the other is told it already is', async () => {
    const { db, olgaEmail, metro } = await world()
    const { gameId } = await seedClaimedGame(db, metro, 4500, hoursAfter(t.now, -2))
    // Signed in one after the other: each sign-in reads the last link mailed to the address.
    const first = await t.signIn(olgaEmail)
    const second = await t.signIn(olgaEmail)
    await Promise.all([
      first.get(`/app/organize/games/${gameId}/complete`),
      second.get(`/app/organize/games/${gameId}/complete`),
    ])
    const answers = await Promise.all([
      first.post(`/app/organize/games/${gameId}/complete`),
      second.post(`/app/organize/games/${gameId}/complete`),
    ])
    expect(answers.map((a) => a.location).sort()).toEqual([
      `/app/organize/games/${gameId}/complete?notice=already_completed`,
      `/app/organize/leagues/${metro}?notice=completed`,
    ])
    const loser = answers[0]!.location!.includes('already') ? first : second
    expect(
      (await loser.get(`/app/organize/games/${gameId}/complete?notice=already_completed`)).body,
    ).toContain('This game is already completed: someone completed it first.')
    expect((await eventsOf(db, metro)).map((e) => e.event)).toEqual(['game.completed'])
  })

  it('records a no-show after showing its effect on the payment', async () => {
    const { db, olgaEmail, metro, sam } = await world()
    const game = await seedGame(db, metro, {
      startsAt: hoursAfter(t.now, -2),
      positions: [{ officialId: sam, payCents: 3000 }],
    })
    const olga = await t.signIn(olgaEmail)
    await completedGame(olga, game.id)
    const league = await olga.get(`/app/organize/leagues/${metro}`)
    expect(league.body).toContain(`action="/app/organize/positions/${game.positionIds[0]}/no-show"`)
    const confirm = await olga.get(`/app/organize/positions/${game.positionIds[0]}/no-show`)
    expect(confirm.body).toContain('their pending payment of $30.00 is removed')
    expect(confirm.body).toContain('<code>official.no_show</code>')
    const done = await olga.post(`/app/organize/positions/${game.positionIds[0]}/no-show`)
    expect(done.location).toBe(`/app/organize/leagues/${metro}?notice=no_show`)
    const events = await eventsOf(db, metro)
    expect(events.map((e) => [e.event, e.data.official?.id])).toEqual([
      ['game.completed', undefined],
      ['official.no_show', sam],
    ])
    const again = await olga.get(`/app/organize/positions/${game.positionIds[0]}/no-show`)
    expect(again.body).toContain('this position is already cancelled')
    expect(again.body).not.toContain('>No-show</button>')
  })

  it('approves a pending official (official.approved) and denies one (no event)', async () => {
    const { db, olgaEmail, metro } = await world()
    const pat = await seedUser(db, { name: 'Pat Lee', email: uniqueEmail('pat') })
    await seedMembership(db, metro, pat, { status: 'pending' })
    const olga = await t.signIn(olgaEmail)
    const page = await olga.get(`/app/organize/leagues/${metro}/officials`)
    expect(page.body).toContain('Pending approval')
    const approved = await olga.post(`/app/organize/leagues/${metro}/officials/${pat}/approve`)
    expect(approved.location).toBe(`/app/organize/leagues/${metro}/officials?notice=approved`)
    await olga.get(approved.location!)
    const denied = await olga.post(`/app/organize/leagues/${metro}/officials/${pat}/deny`)
    expect(denied.location).toBe(`/app/organize/leagues/${metro}/officials?notice=denied`)
    expect((await olga.get(denied.location!)).body).toMatch(/Pat Lee[\s\S]*Denied/)
    expect((await eventsOf(db, metro)).map((e) => [e.event, e.data.official.userId])).toEqual([
      ['official.approved', pat],
    ])
  })

  it('filters games by status and date and pages them', async () => {
    const { db, olgaEmail, metro } = await world()
    for (let i = 0; i < 55; i++) await seedGame(db, metro, { startsAt: hoursAfter(t.now, 24 * i + 1) })
    await seedClaimedGame(db, metro) // upcoming too: 56 upcoming games
    const olga = await t.signIn(olgaEmail)
    const first = await olga.get(`/app/organize/leagues/${metro}?when=upcoming`)
    expect(first.body.match(/class="card"/g)).toHaveLength(50)
    expect(first.body).toContain(
      `href="/app/organize/leagues/${metro}?when=upcoming&amp;page=2">Next games</a>`,
    )
    const second = await olga.get(`/app/organize/leagues/${metro}?when=upcoming&page=2`)
    expect(second.body.match(/class="card"/g)).toHaveLength(6)
    const claimed = await olga.get(`/app/organize/leagues/${metro}?status=claimed`)
    expect(claimed.body.match(/class="card"/g)).toHaveLength(1)
    const day = await olga.get(`/app/organize/leagues/${metro}?from=2030-01-02&to=2030-01-02`)
    expect(day.body.match(/class="card"/g)).toHaveLength(1)
    const junk = await olga.get(
      `/app/organize/leagues/${metro}?status=nope&from=2030-02-31&when=%3Cscript%3E`,
    )
    expect(junk.status).toBe(200)
    expect(junk.body).not.toContain('<script>')
  })

  it('settles payouts: Mark paid, a selection at once, Charge with each outcome, totals and CSV', async () => {
    const { db, olgaEmail, metro, cloud, sam } = await world()
    await seedMembership(db, cloud, sam)
    const olga = await t.signIn(olgaEmail)
    const offline = []
    for (let i = 0; i < 3; i++) {
      const game = await seedGame(db, metro, {
        startsAt: hoursAfter(t.now, -2 - i),
        positions: [{ officialId: sam, payCents: 1000 }],
      })
      await completedGame(olga, game.id)
      offline.push(game)
    }
    const platformGame = await seedGame(db, cloud, {
      startsAt: hoursAfter(t.now, -2),
      positions: [{ officialId: sam, payCents: 2500 }],
    })
    await completedGame(olga, platformGame.id)
    const ids = await db
      .selectFrom('payments')
      .select(['id', 'league_id'])
      .where('official_id', '=', sam)
      .execute()
    const [a, b, c] = ids.filter((p) => p.league_id === metro).map((p) => p.id)
    const charged = ids.find((p) => p.league_id === cloud)!.id

    const ledger = await olga.get(`/app/organize/leagues/${metro}/payouts`)
    expect(ledger.body).toMatch(
      /<th scope="row">Pending<\/th><td>3<\/td><td>\$30.00 <span class="label">USD<\/span><\/td>/,
    )
    expect(ledger.body.match(/>Mark paid<\/button>/g)).toHaveLength(3)
    // Each table that may scroll at phone width is a focusable region named by its caption (axe's
    // scrollable-region-focusable): a keyboard user can scroll it.
    const regions = [...ledger.body.matchAll(/<div class="table-scroll"([^>]*)>/g)].map((m) => m[1])
    expect(regions).toEqual([
      ' role="region" aria-labelledby="totals-caption" tabindex="0"',
      ' role="region" aria-labelledby="per-official-caption" tabindex="0"',
    ])
    expect(ledger.body).toContain('<caption id="totals-caption">Totals</caption>')
    expect(ledger.body).toContain('<caption id="per-official-caption">Per official</caption>')
    const one = await olga.post(`/app/organize/payments/${a}/mark-paid`)
    expect(one.location).toBe(`/app/organize/leagues/${metro}/payouts?notice=paid`)
    await olga.get(one.location!)
    const none = await olga.post(`/app/organize/leagues/${metro}/payouts/mark-paid`)
    expect(none.location).toBe(`/app/organize/leagues/${metro}/payouts?notice=none_selected`)
    await olga.get(none.location!)
    const asked = await olga.post(`/app/organize/leagues/${metro}/payouts/mark-paid`, { paymentId: a! })
    expect(asked.body).toContain('None of the 1 selected payments can be marked paid now.')
    const stale = await olga.post(`/app/organize/leagues/${metro}/payouts/mark-paid`, {
      paymentId: a!,
      confirm: 'yes',
    })
    expect(stale.location).toBe(`/app/organize/leagues/${metro}/payouts?notice=not_pending`)
    await olga.get(stale.location!)
    const selection: [string, string][] = [
      ['_csrf', olga.csrf],
      ['paymentId', b!],
      ['paymentId', c!],
    ]
    const post = (pairs: [string, string][]) =>
      t.app.inject({
        method: 'POST',
        url: `/app/organize/leagues/${metro}/payouts/mark-paid`,
        headers: {
          cookie: [...olga.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
          'content-type': 'application/x-www-form-urlencoded',
        },
        payload: new URLSearchParams(pairs).toString(),
      })
    // The first press says what it will do; nothing is paid until the second.
    const preview = await post(selection)
    expect(preview.statusCode).toBe(200)
    expect(preview.body).toContain('<h1>Mark paid 2 payments?</h1>')
    expect(preview.body).toContain('<strong>2 payments</strong>, <strong>$20.00</strong> in all.')
    expect(preview.body).toContain('>Mark paid 2 payments</button>')
    const bulk = await post([...selection, ['confirm', 'yes']])
    expect(bulk.headers.location).toBe(`/app/organize/leagues/${metro}/payouts?notice=paid_many`)
    const paidPage = await olga.get(`/app/organize/leagues/${metro}/payouts?status=paid`)
    expect(paidPage.body).toMatch(
      /<th scope="row">Paid<\/th><td>3<\/td><td>\$30.00 <span class="label">USD<\/span><\/td>/,
    )
    expect(paidPage.body).not.toContain('>Mark paid</button>')

    const confirm = await olga.get(`/app/organize/payments/${charged}/charge`)
    expect(confirm.body).toContain('Simulated processor: outcome of this charge')
    for (const [outcome, notice] of [
      ['requires_card', 'charged_requires_card'],
      ['failed', 'charged_failed'],
      ['paid', 'charged_paid'],
    ]) {
      await olga.get(`/app/organize/payments/${charged}/charge`)
      const answer = await olga.post(`/app/organize/payments/${charged}/charge`, { outcome: outcome! })
      expect(answer.location).toBe(`/app/organize/leagues/${cloud}/payouts?notice=${notice}`)
      if (outcome === 'failed') {
        const failed = await olga.get(answer.location!)
        expect(failed.body).toContain('Failed: The card was declined (simulated).')
        expect(failed.body).toContain('>Charge</button>')
      }
    }
    expect((await olga.get(`/app/organize/payments/${charged}/charge`)).body).toContain('it is already paid')
    expect((await eventsOf(db, metro)).filter((e) => e.event === 'payment.paid')).toHaveLength(3)
    expect((await eventsOf(db, cloud)).map((e) => e.event)).toEqual([
      'game.completed',
      'payment.failed',
      'payment.paid',
    ])

    const csv = await olga.get(`/app/organize/leagues/${metro}/payouts.csv`)
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8')
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="payouts-${metro}.csv"`)
    const lines = csv.body.trimEnd().split('\r\n')
    expect(lines[0]).toBe(
      'paymentId,status,mode,amount,currency,paidAt,failure,gameId,startsAt,sport,location,position,officialId,officialName,officialEmail,createdAt',
    )
    expect(lines).toHaveLength(4)
    expect(
      lines.slice(1).every((line) => line.includes(',paid,offline,10.00,usd,') && line.includes('Sam Reed')),
    ).toBe(true)
  })

  it('escapes CSV cells and defuses spreadsheet formulas', async () => {
    const { db, olgaEmail, metro } = await world()
    const mallory = await seedUser(db, { name: '=HYPERLINK("http://evil")', email: uniqueEmail('m') })
    await seedMembership(db, metro, mallory)
    const game = await seedGame(db, metro, {
      startsAt: hoursAfter(t.now, -2),
      positions: [{ officialId: mallory, label: 'Ref, "lead"' }],
    })
    const olga = await t.signIn(olgaEmail)
    await completedGame(olga, game.id)
    const csv = await olga.get(`/app/organize/leagues/${metro}/payouts.csv`)
    expect(csv.body).toContain(`,"Ref, ""lead""",${mallory},"'=HYPERLINK(""http://evil"")",`)
  })

  it("answers another organizer's ids, unknown ids and garbage alike: Not found, nothing changes", async () => {
    const { db, olgaEmail, other, ritaEmail } = await world()
    const rival = await seedUser(db)
    await seedMembership(db, other, rival, { status: 'pending' })
    const { gameId, positionIds, officialId } = await seedClaimedGame(db, other)
    const paymentId = await seedPayment(db, {
      positionId: positionIds[0]!,
      officialId,
      leagueId: other,
      amountCents: 100,
    })
    const olga = await t.signIn(olgaEmail)
    const missing = await olga.get('/app/organize/leagues/nosuchleague')
    expect(missing.status).toBe(404)
    const notFoundBody = (body: string) => body.replace(/value="[^"]+"/g, '')
    const probes: [string, string][] = [
      ['GET', `/app/organize/leagues/${other}`],
      ['GET', `/app/organize/leagues/${other}/officials`],
      ['GET', `/app/organize/leagues/${other}/payouts`],
      ['GET', `/app/organize/leagues/${other}/payouts.csv`],
      ['GET', `/app/organize/games/${gameId}/complete`],
      ['GET', `/app/organize/positions/${positionIds[0]}/no-show`],
      ['GET', `/app/organize/payments/${paymentId}/charge`],
      ['GET', `/app/organize/games/x'%20or%201=1/complete`],
      ['POST', `/app/organize/games/${gameId}/complete`],
      ['POST', `/app/organize/positions/${positionIds[0]}/no-show`],
      ['POST', `/app/organize/leagues/${other}/officials/${rival}/approve`],
      ['POST', `/app/organize/leagues/${other}/officials/${rival}/deny`],
      ['POST', `/app/organize/payments/${paymentId}/mark-paid`],
      ['POST', `/app/organize/payments/${paymentId}/charge`],
      ['POST', `/app/organize/leagues/${other}/payouts/mark-paid`],
      ['POST', '/app/organize/games/nosuchgame/complete'],
      ['POST', `/app/organize/leagues/${other}/payouts/mark-paid?empty`],
    ]
    for (const [method, url] of probes) {
      await olga.get('/app/organize')
      const fields: Record<string, string> = url.endsWith('?empty') ? {} : { paymentId }
      const answer = method === 'GET' ? await olga.get(url) : await olga.post(url, fields)
      expect([url, answer.status], method).toEqual([url, 404])
      expect(notFoundBody(answer.body)).toBe(notFoundBody(missing.body))
    }
    expect(await eventsOf(db, other)).toEqual([])
    const rita = await t.signIn(ritaEmail)
    expect((await rita.get(`/app/organize/leagues/${other}/officials`)).body).toContain('Pending approval')
  })

  it('sends signed-out visitors to sign in, and refuses a form without its CSRF token', async () => {
    const { db, olgaEmail, metro } = await world()
    const { gameId } = await seedClaimedGame(db, metro)
    const stranger = t.visitor()
    const page = await stranger.get(`/app/organize/leagues/${metro}`)
    expect([page.status, page.location]).toEqual([303, '/app/'])
    const olga = await t.signIn(olgaEmail)
    await olga.get(`/app/organize/games/${gameId}/complete`)
    const forged = await olga.post(`/app/organize/games/${gameId}/complete`, { _csrf: 'forged' })
    expect(forged.status).toBe(403)
    const signedOut = await stranger.post(`/app/organize/games/${gameId}/complete`)
    expect(signedOut.status).toBe(403)
    expect(await eventsOf(db, metro)).toEqual([])
  })
})
