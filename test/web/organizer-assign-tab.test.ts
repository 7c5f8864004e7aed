// The Assign tab over HTTP: open positions of upcoming games with their eligible candidates (Assign returns
// to the tab, position.claimed) and the others with their reason; Fill automatically → the draft plan →
// Publish (position.claimed each, once). Another league's ids answer Not found; forms need their token.
import { describe, expect, it } from 'vitest'
import { assignPosition, withdrawClaim } from '../../src/domain/assignments/assignments.js'
import { CONSOLE_CALLER } from '../../src/domain/core/caller.js'
import { comingWeekend } from '../../src/domain/plans/assignment-plans.js'
import { listCandidates } from '../../src/domain/plans/candidates.js'
import { weekdayOf } from '../../src/time.js'
import { eventsOf, seedGame, seedLeague, seedMembership, seedUser, uniqueEmail } from '../helpers/fixtures.js'
import { useWebApp } from './browser-like.js'

const hoursAfter = (now: Date, h: number) => new Date(now.getTime() + h * 3_600_000).toISOString()

describe("the organizer's Assign tab", () => {
  const t = useWebApp()

  async function world() {
    const db = t.runtime.deps.db
    const olgaEmail = uniqueEmail('olga')
    const metro = await seedLeague(db, {
      name: 'Metro',
      organizerId: await seedUser(db, { email: olgaEmail }),
    })
    const ritaEmail = uniqueEmail('rita')
    const other = await seedLeague(db, { organizerId: await seedUser(db, { email: ritaEmail }) })
    const sam = await seedUser(db, { email: uniqueEmail('sam'), name: 'Sam Reed' })
    const ann = await seedUser(db, { email: uniqueEmail('ann'), name: 'Ann Lee' })
    // Both joined Metro, so its Assign tab weighs every rule (DESIGN "Consent").
    await seedMembership(db, metro, sam, { joined: true })
    await seedMembership(db, metro, ann, { joined: true })
    await db.updateTable('memberships').set({ level: 3 }).where('user_id', '=', sam).execute()
    const game = await seedGame(db, metro, {
      startsAt: hoursAfter(t.now, 24),
      positions: [{ label: 'Referee' }],
    })
    await db.updateTable('positions').set({ min_level: 2 }).where('id', '=', game.positionIds[0]!).execute()
    return { db, olgaEmail, metro, other, ritaEmail, sam, ann, game }
  }

  it('shows candidates and excluded officials, and assigns back to the tab', async () => {
    const { db, olgaEmail, metro, sam, game } = await world()
    const olga = await t.signIn(olgaEmail)
    const board = await olga.get(`/app/organize/leagues/${metro}/assign`)
    expect(board.status).toBe(200)
    expect(board.body).toContain('aria-current="page">Assign</a>')
    expect(board.body).toContain('Sam Reed (level 3)')
    expect(board.body).toMatch(
      /1 other official<\/summary>.*Ann Lee has a level below this position’s minimum/s,
    )
    const assigned = await olga.post(`/app/organize/games/${game.id}/assign`, {
      userId: sam,
      positionId: game.positionIds[0]!,
      return: 'board',
    })
    expect(assigned.location).toBe(`/app/organize/leagues/${metro}/assign?notice=assigned`)
    expect((await eventsOf(db, metro)).map((e) => e.event)).toEqual(['position.claimed'])
    expect((await olga.get(assigned.location!)).body).toContain('No open positions in upcoming games.')
  })

  it('fills automatically into a draft, then publishes it once', async () => {
    const { db, olgaEmail, metro, sam, game } = await world()
    const olga = await t.signIn(olgaEmail)
    await olga.get(`/app/organize/leagues/${metro}/assign`)
    const filled = await olga.post(`/app/organize/leagues/${metro}/plans`)
    expect(filled.status).toBe(303)
    const planUrl = filled.location!
    const draft = await olga.get(planUrl)
    expect(draft.body).toContain('Draft plan')
    expect(draft.body).toContain('<strong>Sam Reed</strong> · Referee')
    expect(draft.body).toContain('>Publish selected</button>')
    // Grouped by game: the card names the game's place, its crew under it.
    const { location } = await db
      .selectFrom('games')
      .select('location')
      .where('id', '=', game.id)
      .executeTakeFirstOrThrow()
    expect(draft.body).toMatch(new RegExp(`>${location}</a></div>\\s*<ul class="crew">`))
    expect(draft.body).toContain(`name="positionId" value="${game.positionIds[0]}" checked`)
    expect(await eventsOf(db, metro)).toEqual([])
    // Nothing ticked publishes nothing, and the plan stays a draft.
    expect((await olga.post(`${planUrl}/publish`)).location).toBe(`${planUrl}?notice=none_selected`)
    expect((await olga.get(planUrl)).body).toContain('Draft plan')
    // Remove leaves the position open in the draft; a fresh plan proposes it again.
    const removed = await olga.post(`${planUrl}/remove`, { remove: game.positionIds[0]! })
    expect(removed.location).toBe(`${planUrl}?notice=removed`)
    const edited = await olga.get(planUrl)
    expect(edited.body).not.toContain('<strong>Sam Reed</strong>')
    expect(edited.body).toContain('Removed from this plan.')
    expect(await eventsOf(db, metro)).toEqual([])
    const again = (await olga.post(`/app/organize/leagues/${metro}/plans`)).location!
    await olga.get(again)
    const published = await olga.post(`${again}/publish`, { positionId: game.positionIds[0]! })
    expect(published.location).toBe(`${again}?notice=published`)
    const events = await eventsOf(db, metro)
    expect(events.map((e) => [e.event, e.data.positionId, e.data.official.id])).toEqual([
      ['position.claimed', game.positionIds[0], sam],
    ])
    const after = await olga.get(published.location!)
    expect(after.body).toContain('Published plan')
    expect(after.body).toContain('1 assigned')
    const twice = await olga.post(`${again}/publish`, { positionId: game.positionIds[0]! })
    expect(twice.location).toBe(`${again}?notice=already_published`)
  })

  it('fills the window chosen: the coming weekend by default, in the league’s zone', async () => {
    const { olgaEmail, metro } = await world()
    const olga = await t.signIn(olgaEmail)
    const page = await olga.get(`/app/organize/leagues/${metro}/assign`)
    const weekend = comingWeekend(t.now.getTime(), 'UTC')
    expect(weekendDays(weekend)).toEqual([6, 7])
    expect(page.body).toContain(`name="from" value="${weekend.from}"`)
    expect(page.body).toContain(`name="to" value="${weekend.to}"`)
    const planned = await olga.post(`/app/organize/leagues/${metro}/plans`, weekend)
    const plan = (await olga.get(planned.location!)).body
    expect(plan).toContain('Draft plan')
    const refused = await olga.post(`/app/organize/leagues/${metro}/plans`, { from: 'soon', to: weekend.to })
    expect(refused.location).toBe(`/app/organize/leagues/${metro}/assign?notice=invalid_window`)
  })

  it('counts a Sunday as this weekend, and a Saturday as its own first day', () => {
    const zone = 'America/New_York'
    // Sunday 3 May 2026, 23:30 in New York (04:30 UTC on Monday).
    expect(comingWeekend(Date.UTC(2026, 4, 4, 3, 30), zone)).toEqual({ from: '2026-05-02', to: '2026-05-03' })
    // Wednesday 6 May 2026.
    expect(comingWeekend(Date.UTC(2026, 4, 6, 12), zone)).toEqual({ from: '2026-05-09', to: '2026-05-10' })
    expect(comingWeekend(Date.UTC(2026, 4, 9, 12), zone)).toEqual({ from: '2026-05-09', to: '2026-05-10' })
  })

  it('remembers a turnback: marked, never proposed again by candidates or a plan, still assignable by hand', async () => {
    const { db, olgaEmail, metro, sam, game } = await world()
    const positionId = game.positionIds[0]!
    await assignPosition(t.runtime.deps, CONSOLE_CALLER, game.id, { userId: sam, positionId })
    await withdrawClaim(t.runtime.deps, CONSOLE_CALLER, positionId)
    const candidates = await listCandidates(t.runtime.deps, CONSOLE_CALLER, game.id, positionId)
    expect(candidates.find((c) => c.userId === sam)).toMatchObject({ eligible: false, reasons: ['withdrew'] })
    const olga = await t.signIn(olgaEmail)
    const board = await olga.get(`/app/organize/leagues/${metro}/assign`)
    expect(board.body).toContain('Turned back by Sam Reed')
    expect(board.body).toContain('Sam Reed turned this game back')
    expect(board.body).toContain('Nobody can take it now.')
    const planUrl = (await olga.post(`/app/organize/leagues/${metro}/plans`)).location!
    expect((await olga.get(planUrl)).body).not.toContain('<strong>Sam Reed</strong>')
    await olga.get(`/app/organize/games/${game.id}`)
    const byHand = await olga.post(`/app/organize/games/${game.id}/assign`, { userId: sam, positionId })
    expect(byHand.location).toBe(`/app/organize/games/${game.id}?notice=assigned`)
    expect((await eventsOf(db, metro)).map((e) => e.event)).toEqual([
      'position.claimed',
      'position.withdrawn',
      'position.claimed',
    ])
  })

  it("answers Not found for another league's tab and plan, and refuses a form without its token", async () => {
    const { db, olgaEmail, metro, ritaEmail } = await world()
    const olga = await t.signIn(olgaEmail)
    await olga.get(`/app/organize/leagues/${metro}/assign`)
    const planUrl = (await olga.post(`/app/organize/leagues/${metro}/plans`)).location!
    const rita = await t.signIn(ritaEmail)
    await rita.get('/app/organize')
    expect((await rita.get(`/app/organize/leagues/${metro}/assign`)).status).toBe(404)
    expect((await rita.post(`/app/organize/leagues/${metro}/plans`)).status).toBe(404)
    expect((await rita.get(planUrl)).status).toBe(404)
    expect((await rita.post(`${planUrl}/publish`)).status).toBe(404)
    await olga.get(planUrl)
    expect((await olga.post(`${planUrl}/publish`, { _csrf: 'forged' })).status).toBe(403)
    expect(await eventsOf(db, metro)).toEqual([])
  })
})

const weekendDays = (w: { from: string; to: string }) => [weekdayOf(w.from), weekdayOf(w.to)]
