// Every tool driven by the SDK's own Client, in memory and over real HTTP: what MCP shows is exactly
// what REST shows for the same key, and every destructive tool's preview changes nothing.
import { afterEach, describe, expect, it } from 'vitest'
import { completeGame } from '../../src/domain/payments/payments.js'
import { useTestApp, type Partner } from '../helpers/app.js'
import { played } from '../helpers/clock.js'
import { httpMcp, inMemoryMcp, listen, type Mcp } from './clients.js'
import { CONSOLE_CALLER } from '../../src/domain/core/caller.js'

const TOOL_NAMES = [
  'list_leagues',
  'upsert_league',
  'get_league',
  'update_league',
  'list_games',
  'upsert_games',
  'get_game',
  'update_game',
  'cancel_game',
  'list_officials',
  'upsert_official',
  'remove_official',
  'list_assignments',
  'assign_position',
  'unassign_position',
  'list_payments',
  'list_webhooks',
  'create_webhook',
  'delete_webhook',
  'list_webhook_deliveries',
  'suggest_officials',
  'plan_assignments',
  'get_plan',
  'publish_plan',
]
const DESTRUCTIVE = [
  'cancel_game',
  'remove_official',
  'unassign_position',
  'delete_webhook',
  'upsert_games',
  'publish_plan',
]
const IDEMPOTENT_WRITES = ['upsert_league', 'upsert_games', 'upsert_official']

describe.each(['in-memory', 'http'] as const)('MCP tools (%s)', (transport) => {
  const t = useTestApp()
  let open: Mcp[] = []
  afterEach(async () => {
    for (const mcp of open) await mcp.close()
    open = []
  })

  async function connect(key: string): Promise<Mcp> {
    const mcp =
      transport === 'http' ? await httpMcp(await listen(t.app), key) : await inMemoryMcp(t.app, t.deps, key)
    open.push(mcp)
    return mcp
  }

  it('lists the 24 tools with explicit annotations and object schemas', async () => {
    const p = await t.partner()
    const { tools } = await (await connect(p.key)).client.listTools()
    expect(tools.map((tool) => tool.name).sort()).toEqual(TOOL_NAMES.map((n) => `refdesk_${n}`).sort())
    for (const tool of tools) {
      const name = tool.name.slice('refdesk_'.length)
      const readOnly = name.startsWith('list_') || name.startsWith('get_') || name === 'suggest_officials'
      expect(tool.annotations, name).toMatchObject({
        readOnlyHint: readOnly,
        destructiveHint: DESTRUCTIVE.includes(name),
        idempotentHint: readOnly || IDEMPOTENT_WRITES.includes(name),
        openWorldHint: false,
      })
      expect(tool.inputSchema.type).toBe('object')
      expect(tool.outputSchema?.type).toBe('object')
      expect(tool.description?.length, name).toBeGreaterThan(80)
      expect(Object.keys(tool.inputSchema.properties ?? {}).includes('confirm')).toBe(
        DESTRUCTIVE.includes(name),
      )
    }
    const assign = tools.find((tool) => tool.name === 'refdesk_assign_position')
    expect(assign?.inputSchema.required).toEqual(['gameId'])
    expect(Object.keys(assign?.inputSchema.properties ?? {})).toEqual([
      'gameId',
      'userId',
      'externalId',
      'source',
      'positionId',
    ])
  })

  it('drives every tool and shows exactly what REST shows', async () => {
    const p = await t.partner()
    const mcp = await connect(p.key)
    const rest = async (path: string) => (await p.get(path)).body.data
    const ok = async (name: string, args: Record<string, unknown> = {}) => {
      const result = await mcp.call(name, args)
      expect(result.isError, `${name}: ${result.text}`).toBe(false)
      expect(JSON.parse(result.text)).toEqual(result.body)
      return result.body
    }

    const league = (await ok('upsert_league', { name: 'Metro', externalId: 'L1' })).data
    expect((await ok('upsert_league', { name: 'Metro Youth', externalId: 'L1' })).data.id).toBe(league.id)
    const leagueId = league.id
    expect((await ok('update_league', { leagueId, currency: 'EUR' })).data).toMatchObject({
      name: 'Metro Youth',
      currency: 'eur',
    })

    const games = [
      { startsAt: '2026-06-01T18:00:00Z', externalId: 'G1', payDollars: 25.5, location: 'Field 1' },
      { startsAt: '2026-06-02T18:00:00Z', sport: 'soccer' },
    ]
    const before = await rest(`/leagues/${leagueId}/games`)
    expect((await ok('upsert_games', { leagueId, games })).preview).toMatchObject({
      leagueId,
      create: [
        { index: 0, externalId: 'G1' },
        { index: 1, externalId: null },
      ],
      update: [],
    })
    expect(await rest(`/leagues/${leagueId}/games`)).toEqual(before)
    const created = (await ok('upsert_games', { leagueId, games, confirm: true })).data.created
    expect(created).toHaveLength(2)
    // Arguments reach REST as sent: dollars are converted once, by REST.
    expect(created[0].positions[0]).toMatchObject({ payCents: 2550, payDollars: 25.5 })
    const [gameA, gameB] = created
    expect((await ok('upsert_games', { leagueId, games: [games[0]] })).preview).toMatchObject({
      create: [],
      update: [{ index: 0, externalId: 'G1', gameId: gameA.id, startsAt: '2026-06-01T18:00:00.000Z' }],
    })

    expect((await ok('list_games', { leagueId })).data).toEqual(await rest(`/leagues/${leagueId}/games`))
    expect((await ok('update_game', { gameId: gameA.id, location: 'Field 2' })).data.location).toBe('Field 2')
    expect((await ok('get_game', { gameId: gameA.id })).data).toEqual(await rest(`/games/${gameA.id}`))

    const official = (await ok('upsert_official', { leagueId, externalId: 'U1', name: 'Ref One' })).data
    expect(official).toMatchObject({ status: 'approved', name: 'Ref One', leagueId })
    const userId = official.userId
    expect((await ok('list_officials', { leagueId })).data).toEqual(
      await rest(`/leagues/${leagueId}/officials`),
    )

    const positionA = gameA.positions[0].id
    expect((await ok('assign_position', { gameId: gameA.id, userId })).data.positions[0]).toMatchObject({
      id: positionA,
      status: 'claimed',
      official: { id: userId },
    })
    await ok('assign_position', { gameId: gameB.id, externalId: 'U1' })
    await completeGame(played(t.deps), CONSOLE_CALLER, gameB.id)
    const assignments = (await ok('list_assignments', { leagueId })).data
    expect(assignments).toHaveLength(2)
    expect(assignments).toEqual(await rest(`/leagues/${leagueId}/assignments`))
    const payments = (await ok('list_payments', { leagueId })).data
    expect(payments).toHaveLength(1)
    expect(payments).toEqual(await rest(`/leagues/${leagueId}/payments`))

    // unassign: preview names the position and official; nothing changes until confirmed.
    const gameBefore = await rest(`/games/${gameA.id}`)
    const unassignPreview = (await ok('unassign_position', { gameId: gameA.id, positionId: positionA }))
      .preview
    expect(unassignPreview).toMatchObject({
      gameId: gameA.id,
      position: { id: positionA, status: 'claimed' },
      official: { id: userId, name: 'Ref One' },
      becomes: 'open',
    })
    expect(await rest(`/games/${gameA.id}`)).toEqual(gameBefore)
    const released = await ok('unassign_position', { gameId: gameA.id, positionId: positionA, confirm: true })
    expect(released.data.positions[0]).toMatchObject({ status: 'open', official: null })

    // remove_official: preview lists the claimed positions it would reopen (the worked one is kept).
    await ok('assign_position', { gameId: gameA.id, userId })
    const leagueBefore = await rest(`/leagues/${leagueId}`)
    const removePreview = (await ok('remove_official', { leagueId, userId })).preview
    expect(removePreview).toMatchObject({
      official: { userId, status: 'approved' },
      positionsReleased: [{ positionId: positionA, gameId: gameA.id, becomes: 'open' }],
    })
    expect(removePreview.positionsReleased).toHaveLength(1)
    expect(await rest(`/leagues/${leagueId}`)).toEqual(leagueBefore)
    expect((await ok('remove_official', { leagueId, userId, confirm: true })).data).toEqual({ removed: true })
    expect(await rest(`/leagues/${leagueId}/officials`)).toEqual([])

    // cancel_game: preview splits positions into cancelled and kept.
    const cancelPreview = (await ok('cancel_game', { gameId: gameA.id })).preview
    expect(cancelPreview).toMatchObject({
      gameId: gameA.id,
      status: 'open',
      alreadyCancelled: false,
      positionsCancelled: [{ id: positionA, status: 'open' }],
      positionsKept: [],
    })
    expect((await rest(`/games/${gameA.id}`)).status).toBe('open')
    expect((await ok('cancel_game', { gameId: gameA.id, confirm: true })).data).toEqual(
      await rest(`/games/${gameA.id}`),
    )
    expect((await rest(`/games/${gameA.id}`)).status).toBe('cancelled')
    expect((await ok('cancel_game', { gameId: gameB.id })).preview).toMatchObject({
      positionsCancelled: [],
      positionsKept: [{ status: 'completed' }],
    })

    expect((await ok('get_league', { leagueId })).data).toEqual(await rest(`/leagues/${leagueId}`))
    expect((await ok('list_leagues')).data).toEqual(await rest('/leagues'))

    // webhooks
    const endpoint = (
      await ok('create_webhook', { url: 'https://partner.example/hooks', events: ['game.cancelled'] })
    ).data
    expect(endpoint.secret).toMatch(/^sec_[0-9a-f]{48}$/)
    expect((await ok('list_webhooks')).data).toEqual(await rest('/webhooks'))
    expect((await ok('list_webhook_deliveries', { webhookId: endpoint.id, limit: 5 })).data).toEqual(
      await rest(`/webhooks/${endpoint.id}/deliveries?limit=5`),
    )
    const hooksBefore = await rest('/webhooks')
    const deletePreview = (await ok('delete_webhook', { webhookId: endpoint.id })).preview
    expect(deletePreview).toMatchObject({
      endpoint: { id: endpoint.id, url: 'https://partner.example/hooks' },
    })
    expect(deletePreview.deliveries).toBe(
      (await rest(`/webhooks/${endpoint.id}/deliveries?limit=200`)).length,
    )
    expect(await rest('/webhooks')).toEqual(hooksBefore)
    expect((await ok('delete_webhook', { webhookId: endpoint.id, confirm: true })).data).toEqual({
      deleted: true,
    })
    expect(await rest('/webhooks')).toEqual([])
  })

  it('answers a REST error as isError with the REST body as its text, unchanged', async () => {
    const p = await t.partner()
    const mcp = await connect(p.key)
    const leagueId = (await p.post('/leagues', { name: 'L' })).body.data.id
    const cases: [string, Record<string, unknown>, string, string][] = [
      ['get_game', { gameId: 'nope' }, 'GET', '/games/nope'],
      ['get_league', { leagueId: 'nope' }, 'GET', '/leagues/nope'],
      ['upsert_league', {}, 'POST', '/leagues'],
      ['upsert_league', { name: 'x', source: 'app' }, 'POST', '/leagues'],
      ['update_game', { gameId: 'nope', status: 'cancelled' }, 'PATCH', '/games/nope'],
      [
        'upsert_games',
        { leagueId, games: [{ startsAt: 'tomorrow' }], confirm: true },
        'POST',
        `/leagues/${leagueId}/games`,
      ],
      ['upsert_games', { leagueId, games: [], confirm: true }, 'POST', `/leagues/${leagueId}/games`],
      ['upsert_official', { leagueId }, 'POST', `/leagues/${leagueId}/officials`],
      ['create_webhook', { url: 'http://insecure.example' }, 'POST', '/webhooks'],
      ['create_webhook', { url: 'https://x.example', events: ['nope'] }, 'POST', '/webhooks'],
      [
        'list_webhook_deliveries',
        { webhookId: 'nope', limit: 500 },
        'GET',
        '/webhooks/nope/deliveries?limit=500',
      ],
      ['unassign_position', { gameId: 'nope', confirm: true }, 'DELETE', '/games/nope/assign'],
      [
        'remove_official',
        { leagueId, userId: 'nope', confirm: true },
        'DELETE',
        `/leagues/${leagueId}/officials/nope`,
      ],
      ['delete_webhook', { webhookId: 'nope', confirm: true }, 'DELETE', '/webhooks/nope'],
    ]
    for (const [name, args, method, path] of cases) {
      const send = { GET: p.get, POST: p.post, PATCH: p.patch, DELETE: p.delete }[method] as Partner['post']
      const body = method === 'POST' || method === 'PATCH' ? withoutRouted(args) : undefined
      const expected = await send(path, body)
      expect(expected.status, name).toBeGreaterThanOrEqual(400)
      const result = await mcp.call(name, args)
      expect(result, name).toMatchObject({ isError: true, text: JSON.stringify(expected.body) })
    }
    expect(
      (await mcp.call('upsert_games', { leagueId, games: [{ startsAt: 'tomorrow' }], confirm: true })).text,
    ).toBe('{"error":"invalid_startsAt:tomorrow"}')
  })

  it('answers an unknown tool with a JSON-RPC invalid-params error', async () => {
    const p = await t.partner()
    const mcp = await connect(p.key)
    await expect(
      mcp.client.callTool({ name: 'refdesk_drop_everything', arguments: {} }),
    ).rejects.toMatchObject({
      code: -32602,
    })
  })

  it('answers previews with the error the confirmed call would give', async () => {
    const p = await t.partner()
    const mcp = await connect(p.key)
    const leagueId = (await p.post('/leagues', { name: 'L' })).body.data.id
    const gameId = (
      await p.post(`/leagues/${leagueId}/games`, { games: [{ startsAt: '2026-06-01T18:00:00Z' }] })
    ).body.data.created[0].id
    const positionId = (await p.get(`/games/${gameId}`)).body.data.positions[0].id
    const cases: [string, Record<string, unknown>, string][] = [
      ['cancel_game', { gameId: 'nope' }, 'game_not_found'],
      [
        'upsert_games',
        { leagueId: 'nope', games: [{ startsAt: '2026-06-01T18:00:00Z' }] },
        'league_not_found',
      ],
      ['upsert_games', { leagueId, games: [] }, 'no_games'],
      ['upsert_games', { leagueId }, 'no_games'],
      ['remove_official', { leagueId: 'nope', userId: 'x' }, 'league_not_found'],
      ['remove_official', { leagueId, userId: 'nope' }, 'not_a_member'],
      ['unassign_position', { gameId }, 'positionId_required'],
      ['unassign_position', { gameId: 'nope', positionId }, 'game_not_found'],
      ['unassign_position', { gameId, positionId: 'nope' }, 'position_not_found'],
      ['unassign_position', { gameId, positionId }, 'position_not_claimed'],
      ['delete_webhook', { webhookId: 'nope' }, 'endpoint_not_found'],
    ]
    for (const [name, args, code] of cases) {
      const preview = await mcp.call(name, args)
      expect(preview, name).toMatchObject({ isError: true, body: { error: code } })
      expect(await mcp.call(name, { ...args, confirm: true }), name).toMatchObject({
        isError: true,
        body: { error: code },
      })
    }
  })
})

function withoutRouted(args: Record<string, unknown>): Record<string, unknown> {
  const { leagueId: _l, gameId: _g, confirm: _c, ...body } = args
  return body
}
