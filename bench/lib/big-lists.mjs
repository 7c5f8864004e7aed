// The stall scenario's big-list client, in a process of its own (as the other tenant would be): reading
// megabytes of bodies a second in the bench's process delayed the paced requests' own timing there, which
// is the client's cost, not the service's.
//   node bench/lib/big-lists.mjs <origin> <authorization> <path>…
// On 'start' fetches the paths one after the other, over one keep-alive connection, bodies read and never
// parsed, until 'stop'; then answers {fetched} (or {error}) and waits for the next 'start'; exits on 'close'.
import { Pool } from 'undici'

const [origin, authorization, ...paths] = process.argv.slice(2)
const pool = new Pool(origin, { connections: 1 })
let running = false
let fetched = 0
let loop = Promise.resolve()

async function get(path) {
  const res = await pool.request({ method: 'GET', path, headers: { authorization } })
  for await (const chunk of res.body) void chunk
  if (res.statusCode !== 200) throw new Error(`stall: GET ${path} answered ${res.statusCode}`)
}

process.on('message', async (message) => {
  if (message === 'start') {
    running = true
    fetched = 0
    loop = (async () => {
      while (running) {
        await get(paths[fetched % paths.length])
        fetched++
      }
    })()
    process.send('started')
  } else if (message === 'stop') {
    running = false
    try {
      await loop
      process.send({ fetched })
    } catch (error) {
      process.send({ error: String(error) })
    }
  } else if (message === 'close') {
    await pool.close()
    process.disconnect()
  }
})
process.send('ready')
