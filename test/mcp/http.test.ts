// The HTTP endpoint itself: authentication before any MCP handling, Origin checks, the body cap, the
// Request-Id header and stateless serving.
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterEach, describe, expect, it } from 'vitest'
import { buildHttp, type App } from '../../src/app.js'
import { loadConfig } from '../../src/config.js'
import { useTestApp } from '../helpers/app.js'
import { httpMcp, listen } from './clients.js'
import { EXTENSION_OPERATIONS } from '../../src/operations/index.js'
import { eventually } from '../helpers/eventually.js'

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
}
const ACCEPT = 'application/json, text/event-stream'

describe('MCP over HTTP', () => {
  const t = useTestApp()
  let extra: App | undefined
  afterEach(async () => {
    await extra?.close()
    extra = undefined
  })

  const post = (headers: Record<string, string>, payload: unknown = INITIALIZE, app: App = t.app) =>
    app.inject({
      method: 'POST',
      url: '/api/v1/mcp',
      headers: { accept: ACCEPT, 'content-type': 'application/json', ...headers },
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    })

  it('answers initialize for a valid key, keeping the caller’s Request-Id', async () => {
    const p = await t.partner()
    const res = await post({ authorization: `Bearer ${p.key}`, 'request-id': 'trace-123' })
    expect(res.statusCode).toBe(200)
    expect(res.headers['request-id']).toBe('trace-123')
    expect(res.headers['mcp-session-id']).toBeUndefined()
    expect(res.json()).toMatchObject({ jsonrpc: '2.0', id: 1, result: { serverInfo: { name: 'refdesk' } } })
  })

  it('lets the official SDK client connect, list and call with no transport error', async () => {
    const p = await t.partner()
    const gets: number[] = []
    extra = await buildHttp(t.runtime)
    extra.addHook('onResponse', async (request, reply) => {
      if (request.method === 'GET' && request.url === '/api/v1/mcp') gets.push(reply.statusCode)
    })
    const url = await listen(extra)
    const transport = new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { authorization: `Bearer ${p.key}` } },
    })
    const client = new Client({ name: 'refdesk-test', version: '0.0.0' })
    const errors: Error[] = []
    client.onerror = (error) => errors.push(error)
    try {
      await client.connect(transport)
      expect((await client.listTools()).tools).toHaveLength(24)
      expect((await client.callTool({ name: 'refdesk_list_leagues', arguments: {} })).isError).toBeFalsy()
      // After initialize the client asks for a stream once; a 405 tells it there is none.
      await eventually(() => expect(gets).toEqual([405]))
    } finally {
      await client.close()
    }
    expect(errors).toEqual([])
  })

  it('answers a client that sends no Accept header (never a 406)', async () => {
    const p = await t.partner()
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/mcp',
      headers: { authorization: `Bearer ${p.key}`, 'content-type': 'application/json' },
      payload: JSON.stringify(INITIALIZE),
    })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({ jsonrpc: '2.0', id: 1, result: { serverInfo: { name: 'refdesk' } } })
  })

  it('serves tools/call without a session: any request can be the first', async () => {
    const p = await t.partner()
    const res = await post(
      { authorization: `Bearer ${p.key}`, 'mcp-protocol-version': '2025-06-18' },
      {
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'refdesk_list_leagues', arguments: {} },
      },
    )
    expect(res.statusCode).toBe(200)
    expect(res.json().result.structuredContent).toEqual({ data: [] })
  })

  it('answers a tools/call as it answers any other request: status, content type, JSON-RPC envelope', async () => {
    const p = await t.partner()
    // 2025-03-26, the last version with batches: a batch is how this test reaches the SDK's path.
    const auth = { authorization: `Bearer ${p.key}`, 'mcp-protocol-version': '2025-03-26' }
    const toolCall = {
      jsonrpc: '2.0',
      id: 'c',
      method: 'tools/call',
      params: { name: 'refdesk_list_leagues' },
    }
    const direct = await post(auth, toolCall)
    // A batch always goes through the SDK's transport and server, which answers a batch of one alone.
    const bySdk = await post(auth, [toolCall])
    expect(direct.statusCode).toBe(bySdk.statusCode)
    expect(direct.headers['content-type']).toBe(bySdk.headers['content-type'])
    expect(direct.body).toBe(bySdk.body)
    expect(direct.json()).toMatchObject({
      jsonrpc: '2.0',
      id: 'c',
      result: { structuredContent: { data: [] } },
    })
  })

  it('leaves a protocol version it does not support to the SDK, which refuses it', async () => {
    const p = await t.partner()
    const res = await post(
      { authorization: `Bearer ${p.key}`, 'mcp-protocol-version': '1999-01-01' },
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'refdesk_list_leagues' } },
    )
    expect(res.statusCode).toBe(400)
    expect(res.json().error.message).toMatch(/Unsupported protocol version/)
  })

  it.each([
    ['no header', {}],
    ['a malformed header', { authorization: 'Basic abc' }],
    ['an unknown key', { authorization: `Bearer key_${'0'.repeat(48)}` }],
  ])('answers 401 unauthorized before any MCP handling with %s', async (_, headers) => {
    const res = await post(headers)
    expect(res.statusCode).toBe(401)
    expect(res.json()).toEqual({ error: 'unauthorized' })
  })

  it('fails an SDK client with a wrong key on 401', async () => {
    const p = await t.partner()
    const url = await listen(t.app)
    await expect(httpMcp(url, `${p.key.slice(0, -1)}x`)).rejects.toThrow(/unauthorized/)
  })

  it.each(['https://evil.example', 'null', 'http://127.0.0.1:3000'])(
    'refuses a request from Origin %s with 400 origin_not_allowed',
    async (origin) => {
      const p = await t.partner()
      const res = await post({ authorization: `Bearer ${p.key}`, origin })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ error: 'origin_not_allowed' })
    },
  )

  it('lets an explicitly allowed Origin through', async () => {
    extra = await buildHttp(t.runtime, undefined, { mcpAllowedOrigins: ['https://console.partner.example'] })
    const p = await t.partner()
    const allowed = await post(
      { authorization: `Bearer ${p.key}`, origin: 'https://console.partner.example' },
      INITIALIZE,
      extra,
    )
    expect(allowed.statusCode).toBe(200)
    const other = await post(
      { authorization: `Bearer ${p.key}`, origin: 'https://evil.example' },
      INITIALIZE,
      extra,
    )
    expect(other.json()).toEqual({ error: 'origin_not_allowed' })
  })

  it('reads allowed origins from REFDESK_MCP_ALLOWED_ORIGINS', async () => {
    const { mcpAllowedOrigins } = loadConfig({
      env: { REFDESK_MCP_ALLOWED_ORIGINS: 'http://localhost:6274/, https://console.partner.example' },
    })
    extra = await buildHttp(t.runtime, undefined, { mcpAllowedOrigins })
    const p = await t.partner()
    const auth = { authorization: `Bearer ${p.key}` }
    expect((await post({ ...auth, origin: 'http://localhost:6274' }, INITIALIZE, extra)).statusCode).toBe(200)
    expect(
      (await post({ ...auth, origin: 'https://console.partner.example' }, INITIALIZE, extra)).statusCode,
    ).toBe(200)
    expect((await post({ ...auth, origin: 'http://localhost:6275' }, INITIALIZE, extra)).json()).toEqual({
      error: 'origin_not_allowed',
    })
  })

  it('caps the body at 1 MiB', async () => {
    const p = await t.partner()
    const huge = JSON.stringify({ ...INITIALIZE, padding: 'x'.repeat(1024 * 1024) })
    const res = await post({ authorization: `Bearer ${p.key}` }, huge)
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ error: 'body_too_large' })
  })

  it('answers malformed JSON with invalid_json', async () => {
    const p = await t.partner()
    const res = await post({ authorization: `Bearer ${p.key}` }, '{"jsonrpc":')
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ error: 'invalid_json' })
  })

  it.each(['GET', 'DELETE'] as const)(
    'answers %s /mcp with 405 and Allow: POST (no stream, no session)',
    async (method) => {
      const p = await t.partner()
      const res = await t.app.inject({
        method,
        url: '/api/v1/mcp',
        headers: { authorization: `Bearer ${p.key}`, accept: 'text/event-stream' },
      })
      expect(res.statusCode).toBe(405)
      expect(res.headers.allow).toBe('POST')
      expect(res.json()).toEqual({ error: 'method_not_allowed' })
      // The key is still checked first, and a 401 names the scheme.
      const anonymous = await t.app.inject({ method, url: '/api/v1/mcp' })
      expect(anonymous.statusCode).toBe(401)
      expect(anonymous.headers['www-authenticate']).toBe('Bearer realm="refdesk"')
    },
  )

  it('is given by the index and kept out of the REST endpoint list', async () => {
    const p = await t.partner()
    const index = (await p.get('/')).body.data
    expect(index.mcp).toMatch(/\/api\/v1\/mcp$/)
    // The spec's 21, and RefDesk's extensions, which the index lists as current endpoints too.
    expect(index.endpoints).toHaveLength(21 + EXTENSION_OPERATIONS.length)
    expect(index.endpoints.some((e: string) => e.includes('mcp'))).toBe(false)
  })

  it('never writes the key to the log', async () => {
    const lines: string[] = []
    extra = await buildHttp(t.runtime, {
      level: 'trace',
      stream: { write: (line: string) => lines.push(line) },
    })
    const p = await t.partner()
    const res = await post(
      { authorization: `Bearer ${p.key}` },
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'refdesk_get_game', arguments: { gameId: 'x' } },
      },
      extra,
    )
    expect(res.json().result.isError).toBe(true)
    expect(lines.length).toBeGreaterThan(0)
    expect(lines.join('\n')).not.toContain(p.key)
  })
})
