// The MCP tools over stdio for a local MCP client, each call forwarded over HTTP(S) to a RefDesk server
// with the partner key, so it runs with that key's scope. stdout carries only MCP messages. The server
// and the key are checked once at start: a wrong base URL or key would otherwise surface as every tool
// answering not_found or unauthorized, far from its cause.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { httpForward } from './forward.js'
import { createMcpServer } from './server.js'

export async function serveStdio(baseUrl: string, key: string): Promise<void> {
  await checkServer(baseUrl, key)
  await createMcpServer(httpForward(baseUrl, key)).connect(new StdioServerTransport())
}

/** Asks the index (`GET {base}/`) with the key; throws a message naming the URL unless it is RefDesk v1. */
async function checkServer(baseUrl: string, key: string): Promise<void> {
  const index = `${baseUrl.replace(/\/+$/, '')}/`
  let res: Response
  try {
    res = await fetch(index, {
      headers: { authorization: `Bearer ${key}` },
      signal: AbortSignal.timeout(10_000),
    })
  } catch (error) {
    const { cause } = error as { cause?: { code?: string; message?: string } }
    const reason = cause?.code ?? cause?.message ?? (error as Error).message
    throw new Error(`cannot reach ${index} (${reason}): check --base-url`)
  }
  if (res.status === 401) {
    throw new Error(`${index} refused the key in REFDESK_API_KEY (401 unauthorized): check the key`)
  }
  const body = (await res.json().catch(() => undefined)) as { data?: { version?: unknown } } | undefined
  if (res.status !== 200 || body?.data?.version !== 'v1') {
    throw new Error(
      `${index} is not a RefDesk API v1 base (GET answered ${res.status}): --base-url is the URL up to and including /api/v1, e.g. https://refdesk.example.com/api/v1`,
    )
  }
}
