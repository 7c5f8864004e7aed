// Closing the season over HTTP: the Needs completion filter, Complete selected (each game completed as
// Complete does, one that cannot be named with its reason, filters and page kept), a foreign game in the
// selection completing none, and the CSRF token.
import { describe, expect, it } from 'vitest'
import { eventsOf, seedGame, seedLeague, seedMembership, seedUser, uniqueEmail } from '../helpers/fixtures.js'
import { useWebApp } from './browser-like.js'

const hoursAfter = (now: Date, h: number) => new Date(now.getTime() + h * 3_600_000).toISOString()

describe('closing the season', () => {
  const t = useWebApp()

  async function world() {
    const db = t.runtime.deps.db
    const olgaEmail = uniqueEmail('olga')
    const metro = await seedLeague(db, { organizerId: await seedUser(db, { email: olgaEmail }) })
    const other = await seedLeague(db, { organizerId: await seedUser(db, { email: uniqueEmail('rita') }) })
    const sam = await seedUser(db, { email: uniqueEmail('sam'), name: 'Sam Reed' })
    await seedMembership(db, metro, sam)
    await seedMembership(db, other, sam)
    const played = (h: number) =>
      seedGame(db, metro, { startsAt: hoursAfter(t.now, h), positions: [{ officialId: sam }] })
    return { db, olgaEmail, metro, other, sam, played }
  }

  it('lists what needs completion and completes the selection, naming the one that could not be', async () => {
    const { db, olgaEmail, metro, sam, played } = await world()
    const a = await played(-3)
    const b = await played(-30)
    const open = await seedGame(db, metro, { startsAt: hoursAfter(t.now, -5) })
    const future = await played(48)
    const olga = await t.signIn(olgaEmail)
    const list = await olga.get(`/app/organize/leagues/${metro}?status=needs_completion&from=2029-12-01`)
    expect(list.body).toContain('<option value="needs_completion" selected>Needs completion</option>')
    expect(list.body).toContain(`value="${a.id}"`)
    expect(list.body).toContain(`value="${b.id}"`)
    expect(list.body).not.toContain(`/app/organize/games/${open.id}"`)
    expect(list.body).not.toContain(`/app/organize/games/${future.id}"`)
    expect(list.body).toContain('<input type="hidden" name="status" value="needs_completion">')
    expect(list.body).toContain('>Complete selected</button>')
    // Select all checks every game on the page that can be completed.
    expect(list.body).not.toContain(' checked>')
    const all = await olga.get(
      `/app/organize/leagues/${metro}?status=needs_completion&from=2029-12-01&select=all`,
    )
    expect(all.body).toContain(`value="${a.id}" id="select-${a.id}" checked>`)
    expect(all.body).toContain(`value="${b.id}" id="select-${b.id}" checked>`)
    expect(all.body).toContain('Clear selection')

    // The future game slipped into the selection (a page loaded earlier, a forged form): refused by name.
    const body = new URLSearchParams({ _csrf: olga.csrf, status: 'needs_completion', from: '2029-12-01' })
    for (const id of [a.id, future.id, b.id]) body.append('gameId', id)
    const post = (payload: URLSearchParams) =>
      t.app.inject({
        method: 'POST',
        url: `/app/organize/leagues/${metro}/complete-selected`,
        headers: {
          cookie: [...olga.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
          'content-type': 'application/x-www-form-urlencoded',
        },
        payload: payload.toString(),
      })
    // The first press asks: how many, for how much, and the selection it will send, the future game left out.
    const asked = await post(body)
    expect(asked.statusCode).toBe(200)
    expect(asked.body).toContain('<h1>Complete 2 games?</h1>')
    expect(asked.body).toMatch(
      /<strong>2 games<\/strong>, <strong>\$[\d.,]+<\/strong> in all \(1 of those selected cannot be completed/,
    )
    expect(asked.body).toContain('<input type="hidden" name="confirm" value="yes">')
    expect(asked.body).toContain(`<input type="hidden" name="gameId" value="${a.id}">`)
    expect(asked.body).not.toContain(`<input type="hidden" name="gameId" value="${future.id}">`)
    expect(asked.body).toContain('<input type="hidden" name="status" value="needs_completion">')
    expect(await eventsOf(db, metro)).toEqual([])
    body.append('confirm', 'yes')
    const done = await post(body)
    expect(done.statusCode).toBe(303)
    expect(done.headers.location).toBe(
      `/app/organize/leagues/${metro}?status=needs_completion&from=2029-12-01&done=completed.2&refused=${future.id}.game_not_started`,
    )
    const after = await olga.get(done.headers.location as string)
    expect(after.body).toContain('2 games completed')
    expect(after.body).toMatch(/Not completed:.*soccer, .*: it has not started yet\./s)
    expect(after.body).toContain('<option value="needs_completion" selected>')
    const events = await eventsOf(db, metro)
    expect(events.map((e) => [e.event, e.data.id])).toEqual([
      ['game.completed', a.id],
      ['game.completed', b.id],
    ])
    const paid = await db
      .selectFrom('payments')
      .select('official_id')
      .where('league_id', '=', metro)
      .execute()
    expect(paid).toEqual([{ official_id: sam }, { official_id: sam }])
  })

  it('brings the list back with its filters and page after Complete and No-show', async () => {
    const { olgaEmail, metro, played } = await world()
    const game = await played(-3)
    const olga = await t.signIn(olgaEmail)
    const list = await olga.get(`/app/organize/leagues/${metro}?status=claimed&when=past&page=1`)
    expect(list.body).toContain('<input type="hidden" name="when" value="past">')
    const confirm = await olga.get(`/app/organize/games/${game.id}/complete?status=claimed&when=past`)
    expect(confirm.body).toContain(`href="/app/organize/leagues/${metro}?status=claimed&amp;when=past"`)
    const done = await olga.post(`/app/organize/games/${game.id}/complete`, {
      status: 'claimed',
      when: 'past',
    })
    expect(done.location).toBe(`/app/organize/leagues/${metro}?status=claimed&when=past&notice=completed`)
    const positionId = game.positionIds[0]!
    await olga.get(`/app/organize/positions/${positionId}/no-show?status=completed&page=2`)
    const noShow = await olga.post(`/app/organize/positions/${positionId}/no-show`, {
      status: 'completed',
      page: '2',
    })
    expect(noShow.location).toBe(`/app/organize/leagues/${metro}?status=completed&page=2&notice=no_show`)
  })

  it("completes none when the selection holds another league's game, and needs the form's token", async () => {
    const { db, olgaEmail, metro, other, sam, played } = await world()
    const mine = await played(-3)
    const theirs = await seedGame(db, other, {
      startsAt: hoursAfter(t.now, -3),
      positions: [{ officialId: sam }],
    })
    const olga = await t.signIn(olgaEmail)
    await olga.get(`/app/organize/leagues/${metro}`)
    const foreign = await olga.post(`/app/organize/leagues/${metro}/complete-selected`, { gameId: theirs.id })
    expect(foreign.status).toBe(404)
    const otherLeague = await olga.post(`/app/organize/leagues/${other}/complete-selected`, {
      gameId: mine.id,
    })
    expect(otherLeague.status).toBe(404)
    const forged = await olga.post(`/app/organize/leagues/${metro}/complete-selected`, {
      _csrf: 'forged',
      gameId: mine.id,
    })
    expect(forged.status).toBe(403)
    expect(await eventsOf(db, metro)).toEqual([])
    expect(await eventsOf(db, other)).toEqual([])
  })
})
