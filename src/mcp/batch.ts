// JSON-RPC batches on the MCP endpoint. One POST of many calls multiplied one request's cost past every
// per-request bound (20 league reads: 296 MB out; 30 imports: 15,000 games). MCP dropped batches in
// 2025-06-18, so from that version a batch is refused; older versions get at most `maxBatch` messages,
// and the batch's upsert_games calls share one request's game limit.
import { MAX_GAMES_PER_BATCH } from '../schemas/games.js'
import { TOOL_PREFIX } from './tool.js'

/** The first protocol version without JSON-RPC batching (versions are dates, so they sort as strings). */
const BATCHLESS_FROM = '2025-06-18'

// The SDK's transport assumes this version when a request names none.
const UNNAMED_VERSION = '2025-03-26'

const UPSERT_GAMES = `${TOOL_PREFIX}upsert_games`

/** Why the batch is refused (a JSON-RPC Invalid Request message), or undefined to serve it. */
export function batchRefusal(batch: readonly unknown[], version: string | undefined, maxBatch: number) {
  if ((version ?? UNNAMED_VERSION) >= BATCHLESS_FROM)
    return `Invalid Request: protocol version ${version} has no JSON-RPC batches; send one message per request`
  if (batch.length > maxBatch) return `Invalid Request: a batch carries at most ${maxBatch} messages`
  if (gamesIn(batch) > MAX_GAMES_PER_BATCH)
    return `Invalid Request: the upsert_games calls of a batch carry at most ${MAX_GAMES_PER_BATCH} games together`
  return undefined
}

interface MaybeToolCall {
  method?: unknown
  params?: { name?: unknown; arguments?: { games?: unknown } }
}

function gamesIn(batch: readonly unknown[]): number {
  let games = 0
  for (const message of batch) {
    const call = message as MaybeToolCall | null
    if (call?.method !== 'tools/call' || call.params?.name !== UPSERT_GAMES) continue
    const list = call.params.arguments?.games
    if (Array.isArray(list)) games += list.length
  }
  return games
}
