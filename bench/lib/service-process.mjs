// The service in a process of its own, so its RSS is the server's alone:
//   node bench/lib/service-process.mjs <databaseUrl> <source>
// Sends {origin, key, keyId, source} over IPC once listening; answers 'peak-rss' with the peak RSS (bytes)
// since the previous answer, 'rss' with process.memoryUsage() now and {issue: source} with {key} of a new key of that source; exits on 'close'.
import { buildHttp, openRuntime } from '../../dist/app.js'
import { DEFAULT_HTTP_SETTINGS } from '../../dist/http/settings.js'
import { issueKey } from '../../dist/domain/partners/api-keys.js'

const [url, source] = process.argv.slice(2)
const runtime = await openRuntime(url, { checkpoints: 'background' })
// The bench measures the service, not the per-key rate limit.
const app = await buildHttp(runtime, false, { http: { ...DEFAULT_HTTP_SETTINGS, rateLimitPerSecond: 0 } })
await app.listen({ port: 0, host: '127.0.0.1' })
const issued = await issueKey(runtime.deps, { source })

let peak = process.memoryUsage.rss()
const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 10)
process.on('message', async (message) => {
  if (message === 'peak-rss') {
    const value = Math.max(peak, process.memoryUsage.rss())
    peak = process.memoryUsage.rss()
    process.send({ peakRss: value })
  } else if (message === 'rss') {
    process.send({ memory: process.memoryUsage() })
  } else if (message?.issue !== undefined) {
    // A key of another source: a second tenant.
    process.send({ key: (await issueKey(runtime.deps, { source: message.issue })).key })
  } else if (message === 'close') {
    clearInterval(timer)
    await app.close()
    await runtime.close()
    process.disconnect()
  }
})
process.send({
  origin: `http://127.0.0.1:${app.server.address().port}`,
  key: issued.key,
  source: issued.source,
})
