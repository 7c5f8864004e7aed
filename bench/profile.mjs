// CPU profile of the service process under one load, summarised by package and by function:
//   node bench/profile.mjs <game|league|league-games> [seconds] [postgres://…]
// Any other .cpuprofile (e.g. `node --cpu-prof bench/run.mjs --only webhooks`): node bench/lib/cpuprofile.mjs FILE
// Writes the .cpuprofile under bench/results/profiles/ and prints the top self-time entries.
import { mkdirSync, readdirSync, rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { loadTest } from './lib/autocannon.mjs'
import { summarize } from './lib/cpuprofile.mjs'
import { importGames, startServiceProcess } from './lib/setup.mjs'

const [target = 'game', seconds = '5', databaseUrl] = process.argv.slice(2)
const dir = fileURLToPath(new URL(`./results/profiles/${target}/`, import.meta.url))
rmSync(dir, { recursive: true, force: true })
mkdirSync(dir, { recursive: true })
process.env.BENCH_CPU_PROF = dir
const service = await startServiceProcess(databaseUrl, 'profile')
const league = await service.api.ok('POST', '/leagues', { name: 'Profile' })
const [gameId] = await importGames(service.api, league.id, 100, 'profile')
const paths = {
  game: `/games/${gameId}`,
  league: `/leagues/${league.id}`,
  'league-games': `/leagues/${league.id}/games`,
}
const figures = await loadTest(`${service.api.base}${paths[target]}`, {
  seconds: Number(seconds),
  authorization: service.authorization,
})
await service.close()
console.log(`${target}: ${Math.round(figures.rps)} req/s, p50 ${figures.p50} ms, p99 ${figures.p99} ms`)

const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'))
console.log(summarize(`${dir}${file}`))
process.exit()
