// A plain tools/call is answered without an SDK Server (answerToolCall); every such answer must be the
// very JSON-RPC response the Server sends for the same message and the same REST calls, and everything
// else must be left to the Server.
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import { describe, expect, it } from 'vitest'
import { authenticate } from '../../src/domain/partners/api-keys.js'
import { inProcessForward, type Forward } from '../../src/mcp/forward.js'
import { answerToolCall, createMcpServer } from '../../src/mcp/server.js'
import { useTestApp } from '../helpers/app.js'

/** What an SDK Server answers to one raw message. */
async function serverAnswer(message: unknown, forward: Forward): Promise<unknown> {
  const server = createMcpServer(forward)
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await server.connect(serverSide)
  const answer = new Promise((resolve) => (clientSide.onmessage = resolve))
  await clientSide.start()
  await clientSide.send(message as JSONRPCMessage)
  try {
    return await answer
  } finally {
    await server.close()
  }
}

const call = (id: string | number, name: string, args?: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: `refdesk_${name}`, ...(args && { arguments: args }) },
})

describe('answerToolCall', () => {
  const t = useTestApp()

  async function world() {
    const p = await t.partner()
    const caller = (await authenticate(t.deps, `Bearer ${p.key}`))!
    const forward = inProcessForward(t.deps, caller, t.app.log)
    const league = (await p.post('/leagues', { name: 'Parity' })).body.data
    const [game] = (
      await p.post(`/leagues/${league.id}/games`, { games: [{ startsAt: '2026-06-01T10:00:00Z' }] })
    ).body.data.created
    const webhook = (await p.post('/webhooks', { url: 'https://parity.example/hooks' })).body.data
    return { forward, league, game, webhook }
  }

  it('sends the Server’s own response, byte for byte, for every kind of tools/call it answers', async () => {
    const { forward, league, game, webhook } = await world()
    const messages = [
      call(1, 'get_game', { gameId: game.id }),
      call('req-7', 'get_game', { gameId: 'nope' }),
      call(2, 'list_leagues'),
      call(3, 'cancel_game', { gameId: game.id }),
      call(4, 'upsert_games', { leagueId: league.id, games: [{ startsAt: 'never' }], confirm: true }),
      call(5, 'list_webhook_deliveries', { webhookId: webhook.id, limit: 2 }),
      call(6, 'list_webhook_deliveries', { webhookId: webhook.id, limit: 0 }),
      call(7, 'get_league', { leagueId: 42 }),
      { ...call(8, 'get_game', { gameId: game.id }), params: { ...call(8, 'get_game').params, _meta: {} } },
    ]
    for (const message of messages) {
      const direct = await answerToolCall(message, forward)
      expect(direct, JSON.stringify(message)).toBeDefined()
      expect(JSON.stringify(direct)).toBe(JSON.stringify(await serverAnswer(message, forward)))
    }
  })

  it('answers a fault inside a tool as the Server does: a JSON-RPC internal error', async () => {
    const failing: Forward = async () => {
      throw new Error('boom')
    }
    const message = call(9, 'list_leagues')
    const direct = await answerToolCall(message, failing)
    expect(direct).toEqual({ jsonrpc: '2.0', id: 9, error: { code: -32603, message: 'boom' } })
    expect(direct).toEqual(await serverAnswer(message, failing))
  })

  it('leaves every other message to the Server', async () => {
    const { forward } = await world()
    for (const message of [
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', method: 'tools/call', params: { name: 'refdesk_list_leagues' } },
      call(1, 'no_such_tool'),
      { ...call(1, 'list_leagues'), params: { name: 'refdesk_list_leagues', task: { ttl: 1000 } } },
      { ...call(1, 'list_leagues'), params: {} },
      { ...call(1, 'list_leagues'), extra: true },
      { ...call(1, 'list_leagues'), jsonrpc: '1.0' },
      [call(1, 'list_leagues')],
      'tools/call',
      null,
    ]) {
      expect(answerToolCall(message, forward), JSON.stringify(message)).toBeUndefined()
    }
  })
})
