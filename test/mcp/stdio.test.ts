// `refdesk mcp --stdio`, spawned as a local MCP client would, forwarding over HTTP to a listening server.
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { createServer, type AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { useTestApp } from '../helpers/app.js'
import { BIN, runBin } from '../helpers/cli.js'
import { listen } from './clients.js'

/** A port nothing listens on: one the system just handed out and took back. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

describe('refdesk mcp --stdio', () => {
  const t = useTestApp()

  async function spawnClient(baseUrl: string, key: string): Promise<{ client: Client; stderr: string[] }> {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', '--stdio', '--base-url', baseUrl],
      env: { ...(process.env as Record<string, string>), REFDESK_API_KEY: key },
      stderr: 'pipe',
    })
    const stderr: string[] = []
    transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()))
    const client = new Client({ name: 'refdesk-test', version: '0.0.0' })
    await client.connect(transport)
    return { client, stderr }
  }

  it('serves the same tools, forwarding with the key to the server', async () => {
    const p = await t.partner()
    const baseUrl = (await listen(t.app)).replace(/\/mcp$/, '')
    const { client, stderr } = await spawnClient(baseUrl, p.key)
    try {
      expect((await client.listTools()).tools).toHaveLength(24)
      const created = (await client.callTool({
        name: 'refdesk_upsert_league',
        arguments: { name: 'Stdio league', externalId: 'S1' },
      })) as CallToolResult
      expect(created.isError).toBeFalsy()
      const rest = await p.get('/leagues')
      expect(rest.body.data).toHaveLength(1)
      const listed = (await client.callTool({
        name: 'refdesk_list_leagues',
        arguments: {},
      })) as CallToolResult
      expect(listed.structuredContent).toEqual({ data: rest.body.data })
      const leagueId = rest.body.data[0].id
      const gameId = (
        await p.post(`/leagues/${leagueId}/games`, { games: [{ startsAt: '2026-06-01T18:00:00Z' }] })
      ).body.data.created[0].id
      const preview = (await client.callTool({
        name: 'refdesk_cancel_game',
        arguments: { gameId },
      })) as CallToolResult
      expect(preview.structuredContent).toMatchObject({ preview: { gameId, alreadyCancelled: false } })
      expect((await p.get(`/games/${gameId}`)).body.data.status).toBe('open')
      const missing = (await client.callTool({
        name: 'refdesk_get_game',
        arguments: { gameId: 'nope' },
      })) as CallToolResult
      expect(missing).toMatchObject({
        isError: true,
        content: [{ type: 'text', text: '{"error":"game_not_found"}' }],
      })
      expect(stderr.join('')).not.toContain(p.key)
    } finally {
      await client.close()
    }
  })

  it('checks the base URL and the key at start, and exits 1 naming the URL when either is wrong', async () => {
    const p = await t.partner()
    const baseUrl = (await listen(t.app)).replace(/\/mcp$/, '')
    const origin = new URL(baseUrl).origin
    const wrongKey = await runBin(['mcp', '--stdio', '--base-url', baseUrl], {
      REFDESK_API_KEY: `key_${'0'.repeat(48)}`,
    })
    expect([wrongKey.code, wrongKey.stdout]).toEqual([1, ''])
    expect(wrongKey.stderr).toBe(
      `refdesk: ${baseUrl}/ refused the key in REFDESK_API_KEY (401 unauthorized): check the key\n`,
    )
    // The commonest slip: the origin without /api/v1, which made every tool answer not_found.
    const noPrefix = await runBin(['mcp', '--stdio', '--base-url', origin], { REFDESK_API_KEY: p.key })
    expect(noPrefix.code).toBe(1)
    expect(noPrefix.stderr).toContain(`refdesk: ${origin}/ is not a RefDesk API v1 base (GET answered 404)`)
    const port = await closedPort()
    const closed = await runBin(['mcp', '--stdio', '--base-url', `http://127.0.0.1:${port}/api/v1`], {
      REFDESK_API_KEY: p.key,
    })
    expect(closed.code).toBe(1)
    expect(closed.stderr).toContain(`refdesk: cannot reach http://127.0.0.1:${port}/api/v1/ (ECONNREFUSED)`)
    expect(`${wrongKey.stderr}${noPrefix.stderr}${closed.stderr}`).not.toContain(p.key)
  })

  it('exits 1 with a clear message when REFDESK_API_KEY is missing', async () => {
    const result = await runBin(['mcp', '--stdio', '--base-url', 'http://127.0.0.1:9/api/v1'], {
      REFDESK_API_KEY: '',
    })
    expect(result.code).toBe(1)
    expect(result.stdout).toBe('')
    expect(result.stderr).toBe('refdesk: REFDESK_API_KEY is not set: export the partner key (key_…) to use\n')
  })

  it.each([
    [['--base-url', 'http://127.0.0.1:9/api/v1'], 'pass --stdio'],
    [['--stdio', '--base-url', 'ftp://x'], '--base-url must be http(s)'],
    [['--stdio', '--base-url', 'not a url'], 'invalid --base-url'],
  ])('exits 1 on bad flags %j', async (args, message) => {
    const result = await runBin(['mcp', ...args], { REFDESK_API_KEY: 'key_x' })
    expect(result.code).toBe(1)
    expect(result.stderr).toContain(message)
  })

  it('documents its flags and environment in --help', async () => {
    const result = await runBin(['mcp', '--help'])
    for (const word of ['--stdio', '--base-url', 'REFDESK_API_KEY', '/mcp'])
      expect(result.stdout).toContain(word)
    expect((await runBin(['--help'])).stdout).toContain('mcp')
  })
})
