#!/usr/bin/env node
// Per-call latency of refdesk_get_game over MCP (Streamable HTTP) against GET /games/{id} over REST,
// both sequential over keep-alive HTTP to one in-memory SQLite server. Run after `npm run build`:
//   node bench/mcp-latency.mjs [calls]
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { buildHttp, openRuntime } from '../dist/app.js'
import { issueKey } from '../dist/domain/api-keys.js'

const calls = Number(process.argv[2] ?? 1000)
const runtime = await openRuntime('file::memory:')
const app = await buildHttp(runtime)
await app.listen({ port: 0, host: '127.0.0.1' })
const base = `http://127.0.0.1:${app.server.address().port}/api/v1`
const { key } = await issueKey(runtime.deps, { source: 'bench' })
const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' }
const post = async (path, body) =>
  (await fetch(`${base}${path}`, { method: 'POST', headers, body: JSON.stringify(body) })).json()
const leagueId = (await post('/leagues', { name: 'Bench' })).data.id
const gameId = (await post(`/leagues/${leagueId}/games`, { games: [{ startsAt: '2026-06-01T18:00:00Z' }] }))
  .data.created[0].id

const client = new Client({ name: 'bench', version: '0' })
await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers } }))

async function measure(label, once) {
  for (let i = 0; i < 50; i++) await once() // warm-up
  const times = []
  for (let i = 0; i < calls; i++) {
    const start = process.hrtime.bigint()
    await once()
    times.push(Number(process.hrtime.bigint() - start) / 1e6)
  }
  times.sort((a, b) => a - b)
  const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(2)
  console.log(
    `${label.padEnd(28)} p50 ${at(0.5)} ms  p95 ${at(0.95)} ms  p99 ${at(0.99)} ms  (${calls} calls)`,
  )
}

await measure('REST GET /games/{id}', async () => {
  const res = await fetch(`${base}/games/${gameId}`, { headers })
  if (res.status !== 200) throw new Error(`REST ${res.status}`)
  await res.json()
})
await measure('MCP refdesk_get_game', async () => {
  const result = await client.callTool({ name: 'refdesk_get_game', arguments: { gameId } })
  if (result.isError) throw new Error(result.content[0].text)
})

await client.close()
await app.close()
await runtime.close()
