// Two keys through MCP: another source's ids answer exactly like nonexistent ids, in previews too, and
// nothing of the owner's changes.
import { describe, expect, it } from 'vitest'
import { useTestApp } from '../helpers/app.js'
import { inMemoryMcp } from './clients.js'

describe('MCP scope isolation', () => {
  const t = useTestApp()

  it('answers another source’s ids like nonexistent ones and changes nothing', async () => {
    const owner = await t.partner()
    const leagueId = (await owner.post('/leagues', { name: 'Owner league' })).body.data.id
    const game = (
      await owner.post(`/leagues/${leagueId}/games`, {
        games: [{ startsAt: '2026-06-01T18:00:00Z', externalId: 'G1' }],
      })
    ).body.data.created[0]
    const userId = (await owner.post(`/leagues/${leagueId}/officials`, { externalId: 'U1' })).body.data.userId
    const claimed = await owner.post(`/games/${game.id}/assign`, { userId })
    expect(claimed.status).toBe(200)
    const positionId = game.positions[0].id
    const webhookId = (await owner.post('/webhooks', { url: 'https://owner.example/hooks' })).body.data.id
    const snapshot = async () => ({
      league: (await owner.get(`/leagues/${leagueId}`)).body,
      assignments: (await owner.get(`/leagues/${leagueId}/assignments`)).body,
      webhooks: (await owner.get('/webhooks')).body,
    })
    const before = await snapshot()

    const other = await t.partner()
    const mcp = await inMemoryMcp(t.app, t.deps, other.key)
    const ids = { leagueId, gameId: game.id, userId, positionId, webhookId }
    const none = { leagueId: 'nope', gameId: 'nope', userId, positionId, webhookId: 'nope' }
    const calls: [string, (i: typeof ids) => Record<string, unknown>][] = [
      ['get_league', (i) => ({ leagueId: i.leagueId })],
      ['update_league', (i) => ({ leagueId: i.leagueId, name: 'Taken' })],
      ['list_games', (i) => ({ leagueId: i.leagueId })],
      ['upsert_games', (i) => ({ leagueId: i.leagueId, games: [{ startsAt: '2026-07-01T00:00:00Z' }] })],
      [
        'upsert_games',
        (i) => ({ leagueId: i.leagueId, games: [{ startsAt: '2026-07-01T00:00:00Z' }], confirm: true }),
      ],
      ['get_game', (i) => ({ gameId: i.gameId })],
      ['update_game', (i) => ({ gameId: i.gameId, location: 'Elsewhere' })],
      ['cancel_game', (i) => ({ gameId: i.gameId })],
      ['cancel_game', (i) => ({ gameId: i.gameId, confirm: true })],
      ['list_officials', (i) => ({ leagueId: i.leagueId })],
      ['upsert_official', (i) => ({ leagueId: i.leagueId, externalId: 'U2' })],
      ['remove_official', (i) => ({ leagueId: i.leagueId, userId: i.userId })],
      ['remove_official', (i) => ({ leagueId: i.leagueId, userId: i.userId, confirm: true })],
      ['list_assignments', (i) => ({ leagueId: i.leagueId })],
      ['assign_position', (i) => ({ gameId: i.gameId, userId: i.userId })],
      ['unassign_position', (i) => ({ gameId: i.gameId, positionId: i.positionId })],
      ['unassign_position', (i) => ({ gameId: i.gameId, positionId: i.positionId, confirm: true })],
      ['list_payments', (i) => ({ leagueId: i.leagueId })],
      ['delete_webhook', (i) => ({ webhookId: i.webhookId })],
      ['delete_webhook', (i) => ({ webhookId: i.webhookId, confirm: true })],
      ['list_webhook_deliveries', (i) => ({ webhookId: i.webhookId })],
    ]
    for (const [name, args] of calls) {
      const foreign = await mcp.call(name, args(ids))
      const missing = await mcp.call(name, args(none))
      expect(foreign.isError, `${name} ${JSON.stringify(args(ids))}`).toBe(true)
      expect(foreign.text, name).toBe(missing.text)
      expect(foreign.body.error, name).toMatch(/_not_found$/)
    }
    expect((await mcp.call('list_leagues')).body).toEqual({ data: [] })
    expect((await mcp.call('list_webhooks')).body).toEqual({ data: [] })
    expect(await snapshot()).toEqual(before)
    await mcp.close()
  })
})
