// The official's pages over HTTP: claim (and the race), withdraw, scoped answers to tampered ids, earnings,
// leagues, the calendar feed and its rotation, the time zone, escaping.
import { describe, expect, it } from 'vitest'
import {
  chargePayment,
  completeGame,
  markPaid,
  withSimulatedOutcome,
} from '../../src/domain/payments/payments.js'
import { eventsOf, seedGame, seedLeague, seedMembership, seedUser, uniqueEmail } from '../helpers/fixtures.js'
import { useWebApp, type Visitor } from './browser-like.js'
import { CONSOLE_CALLER } from '../../src/domain/core/caller.js'
import { withdrawClaim } from '../../src/domain/assignments/assignments.js'
import { updateGame } from '../../src/domain/games/games.js'

const hoursAfter = (now: Date, h: number) => new Date(now.getTime() + h * 3_600_000).toISOString()

describe("the official's pages", () => {
  const t = useWebApp()

  async function world() {
    const db = t.runtime.deps.db
    const metro = await seedLeague(db, { name: 'Metro Youth' })
    const other = await seedLeague(db, { name: 'Other League' })
    const email = uniqueEmail('sam')
    const sam = await seedUser(db, { email, name: 'Sam' })
    await seedMembership(db, metro, sam)
    const game = await seedGame(db, metro, { startsAt: hoursAfter(t.now, 26) })
    const theirs = await seedGame(db, other, { startsAt: hoursAfter(t.now, 26) })
    return { db, metro, other, sam, email, game, theirs }
  }

  const claimForm = (game: { id: string; positionIds: string[] }) => ({
    gameId: game.id,
    positionId: game.positionIds[0]!,
  })

  it('claims from Open games: the game moves to the schedule and position.claimed is recorded', async () => {
    const { db, metro, sam, game, email } = await world()
    const visitor = await t.signIn(email)
    const open = await visitor.get('/app/open')
    expect(open.body).toContain('Metro Youth')
    expect(open.body).not.toContain('Other League')
    expect(open.body).toContain('<button type="submit" class="button">Claim</button>')

    const claimed = await visitor.post('/app/claim', claimForm(game))
    expect([claimed.status, claimed.location]).toEqual([303, '/app/?notice=claimed'])
    const schedule = await visitor.get(claimed.location!)
    expect(schedule.body).toContain('You claimed the game. It is on your schedule.')
    expect(schedule.body).toContain(`action="/app/withdraw/${game.positionIds[0]}"`)
    const events = await eventsOf(db, metro)
    expect(events.map((e) => [e.event, e.data.official.id])).toEqual([['position.claimed', sam]])
  })

  it('two officials claiming at once: one gets the game, the other a plain "someone else took it"', async () => {
    const annEmail = uniqueEmail('ann')
    const { db, metro, game, email } = await world()
    const ann = await seedUser(db, { email: annEmail })
    await seedMembership(db, metro, ann)
    const [sam, other] = await Promise.all([t.signIn(email), t.signIn(annEmail)])
    await Promise.all([sam.get('/app/open'), other.get('/app/open')])
    const answers = await Promise.all([
      sam.post('/app/claim', claimForm(game)),
      other.post('/app/claim', claimForm(game)),
    ])
    expect(answers.map((a) => a.location).sort()).toEqual(['/app/?notice=claimed', '/app/open?notice=taken'])
    const loser = answers[0]!.location === '/app/open?notice=taken' ? sam : other
    const page = await loser.get('/app/open?notice=taken')
    expect(page.status).toBe(200)
    expect(page.body).toContain('Someone else took this game.')
    expect((await eventsOf(db, metro)).map((e) => e.event)).toEqual(['position.claimed'])
  })

  it('Claim pressed twice, one after the other or at once: "This game is already yours.", one claim', async () => {
    const { db, metro, game, email } = await world()
    const sam = await t.signIn(email)
    await sam.get('/app/open')
    const again = [
      await sam.post('/app/claim', claimForm(game)),
      await sam.post('/app/claim', claimForm(game)),
    ]
    expect(again.map((a) => a.location)).toEqual(['/app/?notice=claimed', '/app/open?notice=yours'])
    const page = await sam.get('/app/open?notice=yours')
    expect(page.body).toContain('This game is already yours.')
    expect(page.body).not.toContain('Someone else took this game.')

    const second = await seedGame(db, metro, { startsAt: hoursAfter(t.now, 30) })
    const [tab, otherTab] = [sam, await t.signIn(email)]
    await otherTab.get('/app/open')
    const racing = await Promise.all([
      tab.post('/app/claim', claimForm(second)),
      otherTab.post('/app/claim', claimForm(second)),
    ])
    expect(racing.map((a) => a.location).sort()).toEqual(['/app/?notice=claimed', '/app/open?notice=yours'])
    expect((await eventsOf(db, metro)).map((e) => e.event)).toEqual(['position.claimed', 'position.claimed'])
  })

  it("another league's game answers exactly like a missing one, for claims and withdrawals alike", async () => {
    const { db, other, theirs, email } = await world()
    const rival = await seedUser(db, { email: uniqueEmail('rival') })
    await seedMembership(db, other, rival)
    const held = await seedGame(db, other, {
      startsAt: hoursAfter(t.now, 30),
      positions: [{ officialId: rival }],
    })
    const visitor = await t.signIn(email)
    await visitor.get('/app/open')

    const tampered = await visitor.post('/app/claim', claimForm(theirs))
    const missing = await visitor.post('/app/claim', { gameId: 'nosuchgame', positionId: 'nosuchposition' })
    const garbage = await visitor.post('/app/claim', { gameId: "x' or 1=1 --", positionId: '\u0000' })
    for (const answer of [tampered, missing, garbage]) {
      expect([answer.status, answer.location]).toEqual([303, '/app/open?notice=gone'])
    }

    const theirsPage = await visitor.get(`/app/withdraw/${held.positionIds[0]}`)
    const missingPage = await visitor.get('/app/withdraw/nosuchposition')
    expect(theirsPage.status).toBe(404)
    expect(theirsPage.body.replace(/value="[^"]+"/g, '')).toBe(missingPage.body.replace(/value="[^"]+"/g, ''))
    const theirsWithdraw = await visitor.post('/app/withdraw', { positionId: held.positionIds[0]! })
    const missingWithdraw = await visitor.post('/app/withdraw', { positionId: 'nosuchposition' })
    expect(theirsWithdraw.location).toBe(missingWithdraw.location)
    expect(await eventsOf(db, other)).toEqual([])
    const claims = await db
      .selectFrom('claims')
      .select('user_id')
      .where('position_id', '=', held.positionIds[0]!)
      .execute()
    expect(claims).toEqual([{ user_id: rival }])
  })

  it('withdraws after a confirmation page; the position reopens', async () => {
    const { game, email } = await world()
    const visitor = await t.signIn(email)
    await visitor.get('/app/open')
    await visitor.post('/app/claim', claimForm(game))
    const confirm = await visitor.get(`/app/withdraw/${game.positionIds[0]}`)
    expect(confirm.body).toContain('Withdraw from this game?')
    expect(confirm.body).toContain('<button type="submit" class="button danger">Withdraw</button>')
    const done = await visitor.post('/app/withdraw', { positionId: game.positionIds[0]! })
    expect(done.location).toBe('/app/?notice=withdrawn')
    expect((await visitor.get('/app/')).body).toContain('No upcoming games')
    expect((await visitor.get('/app/open')).body).toContain(game.positionIds[0]!)
  })

  it('earnings: each payment with status, and totals pending and paid per currency', async () => {
    const { db, metro, sam, email } = await world()
    const a = await seedGame(db, metro, {
      startsAt: hoursAfter(t.now, -30),
      positions: [{ officialId: sam, payCents: 4500 }],
    })
    const b = await seedGame(db, metro, {
      startsAt: hoursAfter(t.now, -20),
      positions: [{ officialId: sam, payCents: 3000 }],
    })
    const done = await completeGame(t.runtime.deps, CONSOLE_CALLER, a.id)
    await completeGame(t.runtime.deps, CONSOLE_CALLER, b.id)
    await markPaid(t.runtime.deps, CONSOLE_CALLER, done.positions[0]!.payment!.id)
    const visitor = await t.signIn(email)
    const page = (await visitor.get('/app/earnings')).body
    expect(page).toContain('<tr><th scope="row">USD</th><td>$30.00</td><td>$45.00</td></tr>')
    expect(page).toMatch(/\$45\.00[\s\S]*Paid ·/)
    expect(page).toMatch(/\$30\.00<\/span>[\s\S]*Pending/)
  })

  it('earnings: a payment whose charge needs the card confirmed waits on the organizer, not on the official', async () => {
    const { db, email, sam } = await world()
    const cloud = await seedLeague(db, { name: 'Cloud Cup', paymentMode: 'platform' })
    await seedMembership(db, cloud, sam)
    const game = await seedGame(db, cloud, {
      startsAt: hoursAfter(t.now, -3),
      positions: [{ officialId: sam, payCents: 2000 }],
    })
    const done = await completeGame(t.runtime.deps, CONSOLE_CALLER, game.id)
    await chargePayment(
      withSimulatedOutcome(t.runtime.deps, 'requires_card'),
      CONSOLE_CALLER,
      done.positions[0]!.payment!.id,
    )
    const page = (await (await t.signIn(email)).get('/app/earnings')).body
    expect(page).toContain('Waiting on the organizer')
    expect(page).toContain('There is nothing for you to do.')
    expect(page).not.toMatch(/your card|add a card/i)
  })

  it('schedule: what became of each held game, in words', async () => {
    const { db, metro, sam, email } = await world()
    const past = (h: number) => hoursAfter(t.now, -h)
    const held = (status: 'claimed' | 'completed' | 'cancelled') => [{ officialId: sam, status }]
    await seedGame(db, metro, { startsAt: past(10), status: 'completed', positions: held('completed') })
    await seedGame(db, metro, { startsAt: past(20), status: 'completed', positions: held('cancelled') })
    await seedGame(db, metro, { startsAt: past(30), status: 'cancelled', positions: held('claimed') })
    await seedGame(db, metro, { startsAt: past(40), positions: held('claimed') })
    await seedGame(db, metro, {
      startsAt: hoursAfter(t.now, 5),
      status: 'cancelled',
      positions: held('claimed'),
    })
    const visitor = await t.signIn(email)
    const page = (await visitor.get('/app/')).body
    const statuses = [...page.matchAll(/<p class="status">([^<]+)<\/p>/g)].map((m) => m[1])
    expect(statuses).toEqual(['Game cancelled', 'Worked', 'No-show', 'Game cancelled', 'Awaiting completion'])
    expect(page).not.toContain('>Withdraw</button>')
  })

  it('schedule: marks a game changed since it was taken, with what it was; an undone change is none', async () => {
    const { game, email } = await world()
    const visitor = await t.signIn(email)
    await visitor.get('/app/open')
    await visitor.post('/app/claim', claimForm(game))
    const marks = async () =>
      [
        ...(await visitor.get('/app/')).body.matchAll(
          /<li><span class="status-badge badge-changed">([^<]+)<\/span> <span class="was">([^<]+)<\/span><\/li>/g,
        ),
      ].map((m) => [m[1], m[2]])
    expect(await marks()).toEqual([])
    const deps = t.runtime.deps
    await updateGame(deps, CONSOLE_CALLER, game.id, {
      startsAt: hoursAfter(t.now, 27),
      location: '<Field 9>',
    })
    expect(await marks()).toEqual([
      ['Time changed', 'was Wed, Jan 2, 2030, 2:00 PM UTC'],
      ['Place changed', 'was Field 1'],
    ])
    // Back to the place it had when Sam took it: only the time stays changed; a new length is a time change.
    await updateGame(deps, CONSOLE_CALLER, game.id, { location: 'Field 1', durationMinutes: 60 })
    expect(await marks()).toEqual([['Time changed', 'was Wed, Jan 2, 2030, 2:00 PM UTC, 90 minutes long']])
    // Given back and taken again (a minute later): the game as it is now is what Sam took.
    await withdrawClaim(deps, CONSOLE_CALLER, game.positionIds[0]!)
    t.now = new Date(t.now.getTime() + 60_000)
    await visitor.post('/app/claim', claimForm(game))
    expect(await marks()).toEqual([])
  })

  it('leagues: pending awaits approval, denied cannot claim', async () => {
    const { db, sam, email } = await world()
    const pending = await seedLeague(db, { name: 'Pending League' })
    await seedMembership(db, pending, sam, { status: 'pending' })
    const denied = await seedLeague(db, { name: 'Denied League' })
    await seedMembership(db, denied, sam, { status: 'denied' })
    const visitor = await t.signIn(email)
    const page = (await visitor.get('/app/leagues')).body
    expect(page).toMatch(/Pending League<\/h2>\s*<p class="status wait">Awaits approval by the organizer/)
    expect(page).toMatch(/Denied League<\/h2>\s*<p class="status no">Denied: you cannot claim its games/)
    expect(page).toMatch(/Metro Youth<\/h2>\s*<p class="status ok">Approved official/)
  })

  it('leagues: Join an invitation, then Leave the league joined (its claimed games reopen)', async () => {
    const { db, metro, game, email } = await world()
    const visitor = await t.signIn(email)
    const page = (await visitor.get('/app/leagues')).body
    expect(page).toMatch(/Invitation from .*\. Until you join, this league sees only its own games/)
    expect(page).toContain('aria-label="Join Metro Youth">Join</button>')
    const joined = await visitor.post(`/app/leagues/${metro}/join`)
    expect(joined.location).toBe('/app/leagues?notice=joined')
    const after = (await visitor.get(joined.location!)).body
    expect(after).toContain('You joined: this league sees when you are unavailable')
    expect(after).toContain('aria-label="Leave Metro Youth">Leave</button>')
    await visitor.get('/app/open')
    await visitor.post('/app/claim', claimForm(game))
    const left = await visitor.post(`/app/leagues/${metro}/leave`)
    expect(left.location).toBe('/app/leagues?notice=left')
    expect((await visitor.get(left.location!)).body).toContain('You are in no league yet.')
    const events = await eventsOf(db, metro)
    expect(events.map((e) => e.event)).toEqual(['position.claimed', 'official.removed'])
    expect(events[1]!.data.reopenedPositionIds).toEqual(game.positionIds)
    // A league they are not in, or one left, has nothing to join or leave.
    expect((await visitor.post(`/app/leagues/${metro}/leave`)).location).toBe('/app/leagues?notice=gone')
  })

  it('profile and availability say exactly which leagues see the home point and availability', async () => {
    const { db, metro, sam, email } = await world()
    const north = await seedLeague(db, { name: 'North Invite' })
    await seedMembership(db, north, sam)
    const visitor = await t.signIn(email)
    const seenBy = async (page: string, id: string) =>
      new RegExp(`id="${id}">([^<]*)`).exec((await visitor.get(page)).body)![1]!
    expect(await seenBy('/app/profile', 'home-seen-by')).toMatch(/^No league sees it: you have joined none\./)
    await visitor.get('/app/leagues')
    await visitor.post(`/app/leagues/${metro}/join`)
    const home = await seenBy('/app/profile', 'home-seen-by')
    expect(home).toContain('Seen only by the leagues you joined (Metro Youth)')
    expect(home).not.toContain('North Invite')
    expect(await seenBy('/app/availability', 'availability-seen-by')).toContain(
      'Seen only by the leagues you joined (Metro Youth)',
    )
  })

  it('calendar: the address is shown once; the feed lists held games; a new address revokes the old', async () => {
    const { game, email } = await world()
    const visitor = await t.signIn(email)
    await visitor.get('/app/open')
    await visitor.post('/app/claim', claimForm(game))
    await visitor.get('/app/calendar')
    const made = await visitor.post('/app/calendar')
    const url = /id="feed" type="url" readonly value="([^"]+)"/.exec(made.body)![1]!
    expect(url).toMatch(/^http:\/\/refdesk\.test\/app\/calendar\.ics\?token=[\w-]{43}$/)
    const feedPath = url.replace('http://refdesk.test', '')

    const feed = await t.app.inject({ method: 'GET', url: feedPath })
    expect(feed.statusCode).toBe(200)
    expect(feed.headers['content-type']).toBe('text/calendar; charset=utf-8')
    expect(feed.headers['set-cookie']).toBeUndefined()
    const ics = feed.body.replace(/\r\n /g, '')
    expect(ics).toContain('BEGIN:VCALENDAR')
    expect(ics).toContain(`UID:${game.positionIds[0]}@refdesk`)
    expect(ics).toContain(`DTSTART:${hoursAfter(t.now, 26).replace(/[-:]/g, '').replace('.000', '')}`)
    expect(ics).toContain('SUMMARY:soccer · Metro Youth')
    expect(ics).toContain('LOCATION:Field 1')
    expect(ics).toContain('STATUS:CONFIRMED')

    const again = await visitor.get('/app/calendar')
    expect(again.body).not.toContain(url)
    expect(again.body).toContain('Make a new calendar address')
    await visitor.post('/app/calendar')
    expect((await t.app.inject({ method: 'GET', url: feedPath })).statusCode).toBe(404)
    expect((await t.app.inject({ method: 'GET', url: '/app/calendar.ics?token=nope' })).statusCode).toBe(404)
  })

  it('shows times in the chosen time zone, named', async () => {
    const { email } = await world()
    const visitor = await t.signIn(email)
    expect((await visitor.get('/app/open')).body).toContain('Times in UTC')
    expect((await visitor.get('/app/open')).body).toContain('2:00 PM UTC')
    await visitor.get('/app/profile')
    const saved = await visitor.post('/app/profile', { timeZone: 'America/New_York' })
    expect(saved.location).toBe('/app/profile?notice=saved')
    const open = (await visitor.get('/app/open')).body
    expect(open).toContain('Times in America/New_York')
    expect(open).toContain('9:00 AM EST')
    const refused = await visitor.post('/app/profile', { timeZone: 'Mars/Olympus' })
    expect(refused.location).toBe('/app/profile?notice=invalid_zone')
    const again = (await visitor.get(refused.location!)).body
    expect(again).toContain('Choose a time zone from the list.')
    expect(again).toContain('<option selected>America/New_York</option>')
  })

  it('escapes what partners wrote', async () => {
    const { db, sam, email } = await world()
    const league = await seedLeague(db, { name: '<script>alert(1)</script>' })
    await seedMembership(db, league, sam)
    const visitor: Visitor = await t.signIn(email)
    const page = (await visitor.get('/app/leagues')).body
    expect(page).not.toContain('<script>')
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
  })

  it('signed-out visitors are sent to sign in; unknown pages are an HTML 404', async () => {
    for (const path of ['/app/open', '/app/earnings', '/app/leagues', '/app/calendar', '/app/profile']) {
      expect((await t.visitor().get(path)).location).toBe('/app/')
    }
    const missing = await t.visitor().get('/app/nowhere')
    expect(missing.status).toBe(404)
    expect(missing.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(missing.body).toContain('<h1>Not found</h1>')
  })
})
