// The assignor's tools driven by the SDK's own Client, in memory and over HTTP: an agent staffs a game
// day (plan, preview, confirm) and finds a replacement for an official who turned back.
import { afterEach, describe, expect, it } from 'vitest'
import { useTestApp } from '../helpers/app.js'
import { eventsOf, seedGame } from '../helpers/fixtures.js'
import { httpMcp, inMemoryMcp, listen, type Mcp } from './clients.js'

const SATURDAY = { from: '2030-05-04T00:00:00.000Z', to: '2030-05-05T00:00:00.000Z' }

describe.each(['in-memory', 'http'] as const)('the assignor’s MCP tools (%s)', (transport) => {
  const t = useTestApp()
  let open: Mcp[] = []
  afterEach(async () => {
    for (const mcp of open) await mcp.close()
    open = []
  })

  async function setUp() {
    const p = await t.partner()
    const mcp =
      transport === 'http'
        ? await httpMcp(await listen(t.app), p.key)
        : await inMemoryMcp(t.app, t.deps, p.key)
    open.push(mcp)
    const leagueId = (await p.post('/leagues', { name: 'L' })).body.data.id as string
    const officials: string[] = []
    for (const name of ['Ann', 'Bob']) {
      const res = await p.post(`/leagues/${leagueId}/officials`, { externalId: name, name })
      officials.push(res.body.data.userId)
    }
    return { p, mcp, leagueId, officials }
  }

  it('fills Saturday: plan, preview (nothing changes), publish with confirm: true', async () => {
    const { p, mcp, leagueId, officials } = await setUp()
    const game = await seedGame(t.deps.db, leagueId, {
      startsAt: '2030-05-04T10:00:00.000Z',
      positions: [{}, {}],
    })
    await seedGame(t.deps.db, leagueId, { startsAt: '2030-05-05T10:00:00.000Z' })
    const planned = await mcp.call('plan_assignments', { leagueId, ...SATURDAY })
    expect(planned.isError).toBe(false)
    const plan = planned.body.data
    expect(plan).toMatchObject({
      status: 'draft',
      ...SATURDAY,
      stats: { positions: 2, filled: 2, optimal: true },
    })
    expect(plan.proposals.map((x: { userId: string }) => x.userId).sort()).toEqual([...officials].sort())
    expect(plan.proposals[0].why).toEqual(expect.any(String))
    expect(plan).toEqual((await p.get(`/assignment-plans/${plan.id}`)).body.data)
    // Each proposal says where and what is played; get_plan reads the plan again.
    expect(plan.proposals[0].game).toMatchObject({ location: expect.any(String), sport: expect.any(String) })
    const read = await mcp.call('get_plan', { planId: plan.id })
    expect(read).toMatchObject({ isError: false, body: { data: plan } })

    const preview = await mcp.call('publish_plan', { planId: plan.id })
    expect(preview.isError).toBe(false)
    expect(preview.body.preview).toMatchObject({ planId: plan.id, wouldAssign: plan.proposals, unfilled: 0 })
    expect(preview.body.data).toBeUndefined()
    const some = await mcp.call('publish_plan', { planId: plan.id, positionIds: ['nope'] })
    expect(some).toMatchObject({ isError: true, body: { error: 'invalid_positionIds' } })
    expect((await p.get(`/assignment-plans/${plan.id}`)).body.data.status).toBe('draft')

    const published = await mcp.call('publish_plan', { planId: plan.id, confirm: true })
    expect(published.body.data).toEqual({ assigned: game.positionIds, skipped: [] })
    const claimed = (await eventsOf(t.deps.db, leagueId)).filter((e) => e.event === 'position.claimed')
    expect(claimed).toHaveLength(2)
    const again = await mcp.call('publish_plan', { planId: plan.id })
    expect(again).toMatchObject({ isError: true, body: { error: 'plan_already_published' } })
    expect((await mcp.call('publish_plan', { planId: 'nope' })).body).toEqual({ error: 'plan_not_found' })
  })

  it('suggests a replacement for an official who turned back', async () => {
    const { p, mcp, leagueId, officials } = await setUp()
    const game = await seedGame(t.deps.db, leagueId, {
      startsAt: '2030-05-04T10:00:00.000Z',
      positions: [{ officialId: officials[0] }, {}],
    })
    await p.delete(`/games/${game.id}/assign?positionId=${game.positionIds[0]}`)
    const suggested = await mcp.call('suggest_officials', {
      gameId: game.id,
      positionId: game.positionIds[0],
    })
    expect(suggested.isError).toBe(false)
    expect(
      suggested.body.data.map((c: { userId: string; eligible: boolean }) => [c.userId, c.eligible]),
    ).toEqual(
      expect.arrayContaining([
        [officials[0], true],
        [officials[1], true],
      ]),
    )
    expect(suggested.body).toEqual(
      (await p.get(`/games/${game.id}/candidates?positionId=${game.positionIds[0]}`)).body,
    )
  })
})
