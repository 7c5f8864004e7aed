// mcp: refdesk_get_game through MCP over Streamable HTTP against GET /games/{id}, both sequential over
// keep-alive HTTP to the same server: per-call latency (median of each round's median).
import { setMaxListeners } from 'node:events'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { importGames, startService } from '../lib/setup.mjs'
import { entry, median, quantile, summary, timed } from '../lib/stats.mjs'

export async function mcpScenario({ databaseUrl, rounds, calls }) {
  const service = await startService(databaseUrl, 'mcp')
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
    const rest = async () => {
      const res = await fetch(`${service.api.base}/games/${gameId}`, { headers })
      if (res.status !== 200) throw new Error(`REST ${res.status}`)
      await res.json()
    }
    const mcp = async () => {
      const result = await client.callTool({ name: 'refdesk_get_game', arguments: { gameId } })
      if (result.isError) throw new Error(result.content[0].text)
    }
    const series = async (once) => {
      const times = []
      for (let i = 0; i < calls; i++) times.push((await timed(once)).ms)
      return times
    }
    await series(rest)
    await series(mcp) // warm-up
    const figures = { rest: [], mcp: [], restP99: [], mcpP99: [] }
    for (let r = 0; r < rounds; r++) {
      const a = await series(rest)
      const b = await series(mcp)
      figures.rest.push(median(a))
      figures.mcp.push(median(b))
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
    ]
  } finally {
    await client.close()
    await service.close()
  }
}
