// growth: league detail, games list and assignments of leagues with 100 / 1,000 / 10,000 games, every
// position claimed: latency, response bytes and the server's peak RSS. Each figure is a ratio against the
// same figure for the 100-game league, so "linear" reads as ratio <= size ratio. The service runs in a
// child process so that the peak RSS is the server's own.
import { importGames, rawDriver, startServiceProcess } from '../lib/setup.mjs'
import { entry, summary, timed } from '../lib/stats.mjs'

const ENDPOINTS = {
  league_detail: (id) => `/leagues/${id}`,
  games_list: (id) => `/leagues/${id}/games`,
  assignments: (id) => `/leagues/${id}/assignments`,
}

/** Every position of the league claimed by one official, written straight into the database. */
export async function claimEverything(raw, leagueId, userId) {
  const at = new Date().toISOString()
  await raw.transaction(async (exec) => {
    await exec(
      `insert into claims (id, position_id, user_id, status, created_at)
       select 'clm_' || p.id, p.id, $1, 'confirmed', $2 from positions p join games g on g.id = p.game_id
       where g.league_id = $3`,
      [userId, at, leagueId],
    )
    await exec(
      `update positions set status = 'claimed' where game_id in (select id from games where league_id = $1)`,
      [leagueId],
    )
    await exec(`update games set status = 'claimed' where league_id = $1`, [leagueId])
  })
}

export async function growthScenario({ databaseUrl, rounds, sizes }) {
  const service = await startServiceProcess(databaseUrl, 'growth')
  const raw = rawDriver(service.database.url)
  try {
    const { api } = service
    const figures = {}
    for (const size of sizes) {
      const league = await api.ok('POST', '/leagues', { name: `Growth ${size}` })
      await importGames(api, league.id, size, `growth-${size}`)
      const officials = []
      for (let i = 0; i < 10; i++) {
        officials.push(
          await api.ok('POST', `/leagues/${league.id}/officials`, { externalId: `g${size}-${i}` }),
        )
      }
      await claimEverything(raw, league.id, officials[0].userId)
      await service.peakRss()
      const at = (figures[size] = { rss: [] })
      for (const [name, path] of Object.entries(ENDPOINTS)) {
        at[name] = { ms: [], bytes: 0 }
        for (let r = -3; r < rounds; r++) {
          const { ms, result } = await timed(() => api.get(path(league.id)))
          if (result.status !== 200) throw new Error(`growth ${name}: ${result.status}`)
          at[name].bytes = result.bytes
          if (r >= 0) at[name].ms.push(ms)
        }
      }
      at.rss.push((await service.peakRss()) / 2 ** 20)
    }
    const [base, ...larger] = sizes
    const rows = []
    for (const size of larger) {
      const factor = size / base
      for (const name of Object.keys(ENDPOINTS)) {
        const ten = name === 'league_detail' && factor === 100
        rows.push(
          entry({
            name: 'growth',
            metric: `${name}_ms@${size}`,
            value: summary(figures[size][name].ms),
            baseline: summary(figures[base][name].ms),
            target: ten ? '<= 100' : `<= ${factor} (linear)`,
            check: (ratio) => ratio <= factor,
            unit: 'ms',
          }),
          entry({
            name: 'growth',
            metric: `${name}_bytes@${size}`,
            value: summary([figures[size][name].bytes]),
            baseline: summary([figures[base][name].bytes]),
            unit: 'B',
          }),
        )
      }
      rows.push(
        entry({
          name: 'growth',
          metric: `peak_rss_mb@${size}`,
          value: summary(figures[size].rss),
          baseline: summary(figures[base].rss),
          target: '<= 4 (bounded)',
          check: (ratio) => ratio <= 4,
          unit: 'MB',
        }),
      )
    }
    return rows
  } finally {
    await raw.close()
    await service.close()
  }
}
