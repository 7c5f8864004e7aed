// The load process: autocannon against one URL, run as a child so the server under test owns its core.
//   node bench/lib/load.mjs <url> <connections> <seconds> [authorization]
// Prints one JSON line: {rps, p50, p99, non2xx, errors}.
import autocannon from 'autocannon'

const [url, connections, seconds, authorization] = process.argv.slice(2)
const result = await autocannon({
  url,
  connections: Number(connections),
  duration: Number(seconds),
  headers: authorization ? { authorization } : {},
})
process.stdout.write(
  `${JSON.stringify({
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  })}\n`,
)
