// reads: GET /games/{id}, GET /leagues/{id} (100 games) and GET /leagues/{id}/games under 50 connections from
// a separate autocannon process. Baseline: the bare raw-driver route serving the same game row.
import { loadTest } from '../lib/autocannon.mjs'
import { startBaselineServer } from '../lib/baseline-server.mjs'
import { importGames, rawDriver, startService } from '../lib/setup.mjs'
import { entry, summary } from '../lib/stats.mjs'

export async function readsScenario({ databaseUrl, rounds, seconds }) {
  const service = await startService(databaseUrl, 'reads')
  const raw = rawDriver(service.database.url)
  const baseline = await startBaselineServer(raw)
  try {
    const league = await service.api.ok('POST', '/leagues', { name: 'Reads' })
    const [gameId] = await importGames(service.api, league.id, 100, 'reads')
    const v1 = `${service.origin}/api/v1`
    const targets = {
      baseline: `${baseline.origin}/games/${gameId}`,
      game: `${v1}/games/${gameId}`,
      league: `${v1}/leagues/${league.id}`,
      leagueGames: `${v1}/leagues/${league.id}/games`,
    }
    const figures = Object.fromEntries(Object.keys(targets).map((k) => [k, []]))
    const options = { seconds, authorization: service.authorization }
    for (const url of Object.values(targets)) await loadTest(url, { ...options, seconds: 1 }) // warm-up
    for (let r = 0; r < rounds; r++) {
      for (const [name, url] of Object.entries(targets)) figures[name].push(await loadTest(url, options))
    }
    const of = (name, key) => summary(figures[name].map((f) => f[key]))
    const rps = (metric, name, target, check) =>
      entry({ name: 'reads', metric, value: of(name, 'rps'), baseline: of('baseline', 'rps'), target, check })
    const p99 = (metric, name, target, check) =>
      entry({
        name: 'reads',
        metric,
        value: of(name, 'p99'),
        baseline: of('baseline', 'p99'),
        target,
        check,
        unit: 'ms',
      })
    return [
      // Issue 27: at least 0.75x the bare route's req/s, a p99 within 1.3x of its p99 (issue 5: 0.5x, 10 ms).
      rps('game_rps', 'game', '>= 0.75', (ratio) => ratio >= 0.75),
      p99('game_p99_ms', 'game', '<= 1.3', (ratio) => ratio <= 1.3),
      entry({
        name: 'reads',
        metric: 'game_p50_ms',
        value: of('game', 'p50'),
        baseline: of('baseline', 'p50'),
        unit: 'ms',
      }),
      rps('league_detail_rps', 'league'),
      p99('league_detail_p99_ms', 'league'),
      rps('league_games_rps', 'leagueGames'),
      p99('league_games_p99_ms', 'leagueGames'),
    ]
  } finally {
    await baseline.close()
    await raw.close()
    await service.close()
  }
}
