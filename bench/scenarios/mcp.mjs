// mcp: refdesk_get_game through MCP over Streamable HTTP against GET /games/{id}, both sequential over one
// keep-alive connection to the same server. Both go through the same lean HTTP client (an undici Pool),
// so the ratio is the server's: a tools/call is a JSON-RPC POST answered with JSON. The MCP SDK's own
// client is measured too (info): its per-call work on the caller's side is the caller's, not ours.
import { setMaxListeners } from 'node:events'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { Pool } from 'undici'
import { importGames, startService } from '../lib/setup.mjs'
import { entry, median, quantile, summary, timed } from '../lib/stats.mjs'

export async function mcpScenario({ databaseUrl, rounds, calls }) {
  const service = await startService(databaseUrl, 'mcp')
  const pool = new Pool(service.origin, { connections: 1 })
  const headers = { authorization: service.authorization }
  const client = new Client({ name: 'bench', version: '0' })
  // The SDK client's transport passes one AbortSignal to every fetch; undici drops each listener only
  // when its Request is garbage-collected, so thousands of sequential calls trip Node's leak warning.
  setMaxListeners(0)
  try {
    const league = await service.api.ok('POST', '/leagues', { name: 'MCP' })
    const [gameId] = await importGames(service.api, league.id, 1, 'mcp')
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${service.api.base}/mcp`), { requestInit: { headers } }),
    )
    const call = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'refdesk_get_game', arguments: { gameId } },
    })
    const send = async (request) => {
      const res = await pool.request(request)
      const body = Buffer.from(await res.body.arrayBuffer())
      if (res.statusCode !== 200) throw new Error(`${request.path}: ${res.statusCode} ${body}`)
      return body
    }
    const rest = () => send({ method: 'GET', path: `/api/v1/games/${gameId}`, headers })
    const mcp = () =>
      send({
        method: 'POST',
        path: '/api/v1/mcp',
        headers: {
          ...headers,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-06-18',
        },
        body: call,
      })
    const sdk = async () => {
      const result = await client.callTool({ name: 'refdesk_get_game', arguments: { gameId } })
      if (result.isError) throw new Error(result.content[0].text)
    }
    // Both answers carry the same game: the MCP result's structured content is the REST body.
    const same = JSON.parse(await mcp()).result.structuredContent
    if (JSON.stringify(same) !== (await rest()).toString()) throw new Error('mcp: answers differ from REST')

    const series = async (once) => {
      const times = []
      for (let i = 0; i < calls; i++) times.push((await timed(once)).ms)
      return times
    }
    for (const once of [rest, mcp, sdk]) await series(once) // warm-up
    const figures = { rest: [], mcp: [], sdk: [], restP99: [], mcpP99: [] }
    for (let r = 0; r < rounds; r++) {
      const [a, b, c] = [await series(rest), await series(mcp), await series(sdk)]
      figures.rest.push(median(a))
      figures.mcp.push(median(b))
      figures.sdk.push(median(c))
      figures.restP99.push(quantile(a, 0.99))
      figures.mcpP99.push(quantile(b, 0.99))
    }
    return [
      entry({
        name: 'mcp',
        metric: 'get_game_p50_ms',
        value: summary(figures.mcp),
        baseline: summary(figures.rest),
        target: '<= 1.5',
        check: (ratio) => ratio <= 1.5,
        unit: 'ms',
      }),
      entry({
        name: 'mcp',
        metric: 'get_game_p99_ms',
        value: summary(figures.mcpP99),
        baseline: summary(figures.restP99),
        unit: 'ms',
      }),
      entry({
        name: 'mcp',
        metric: 'get_game_sdk_client_p50_ms',
        value: summary(figures.sdk),
        baseline: summary(figures.rest),
        unit: 'ms',
      }),
    ]
  } finally {
    await client.close()
    await pool.close()
    await service.close()
  }
}
