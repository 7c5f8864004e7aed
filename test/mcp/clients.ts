// MCP clients for the tests: the SDK's own Client, in memory (the server runs REST operations in process
// for the key's caller) or over real HTTP against the listening app.
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { authenticate } from '../../src/domain/partners/api-keys.js'
import type { Deps } from '../../src/domain/core/deps.js'
import type { App } from '../../src/http/server.js'
import { inProcessForward } from '../../src/mcp/forward.js'
import { createMcpServer } from '../../src/mcp/server.js'

export interface Mcp {
  client: Client
  /** Calls a tool (name without the prefix); parsed `structuredContent` or the error body. */
  call(name: string, args?: Record<string, unknown>): Promise<Outcome>
  close(): Promise<void>
}

export interface Outcome {
  isError: boolean
  /** structuredContent, or the error text parsed as JSON. */
  body: any
  text: string
}

function wrap(client: Client): Mcp {
  return {
    client,
    async call(name, args = {}) {
      const result = (await client.callTool({ name: `refdesk_${name}`, arguments: args })) as CallToolResult
      const first = result.content[0]
      const text = first?.type === 'text' ? first.text : ''
      return {
        isError: result.isError === true,
        body: result.isError ? JSON.parse(text) : result.structuredContent,
        text,
      }
    },
    close: () => client.close(),
  }
}

export async function inMemoryMcp(app: App, deps: Deps, key: string): Promise<Mcp> {
  const caller = await authenticate(deps, `Bearer ${key}`)
  if (!caller) throw new Error('unknown key')
  const server = createMcpServer(inProcessForward(deps, caller, app.log))
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await server.connect(serverSide)
  const client = new Client({ name: 'refdesk-test', version: '0.0.0' })
  await client.connect(clientSide)
  return wrap(client)
}

export async function httpMcp(url: string, key: string): Promise<Mcp> {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  })
  const client = new Client({ name: 'refdesk-test', version: '0.0.0' })
  await client.connect(transport)
  return wrap(client)
}

/** Listens on a free port; returns the MCP URL. */
export async function listen(app: App): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' })
  const address = app.server.address()
  if (typeof address !== 'object' || address === null) throw new Error('not listening')
  return `http://127.0.0.1:${address.port}/api/v1/mcp`
}
