// app: the app's pages against the partner API, for one league of 1,000 upcoming games. An approved official
// holds 100 of them. Timed, sequentially over one keep-alive connection, to the last byte: the Open games
// page (its first page; the last page as info) and the Schedule page (all 100 upcoming games), each against
// GET /leagues/{id}/games of the same league in the same round; and the organizer's league page (its first
// page of games with their positions and officials) against GET /leagues/{id}. Target: <= 2x.
import { Pool } from 'undici'
import { redeemSignInLink, issueSignInLink } from '../../dist/domain/people/sign-in-links.js'
import { startService } from '../lib/setup.mjs'
import { entry, median, summary } from '../lib/stats.mjs'

const GAMES = 1000
const HELD = 100

export async function appScenario({ databaseUrl, rounds, requests }) {
  const service = await startService(databaseUrl, 'app')
  const pool = new Pool(service.origin, { connections: 1 })
  try {
    const { api } = service
    const league = await api.ok('POST', '/leagues', { name: 'App bench' })
    const start = Date.now() + 24 * 3_600_000
    for (let from = 0; from < GAMES; from += 500) {
      const games = Array.from({ length: 500 }, (_, k) => ({
        externalId: `app-${from + k}`,
        startsAt: new Date(start + (from + k) * 3_600_000).toISOString(),
        sport: 'soccer',
        location: `Field ${(from + k) % 17}`,
        payDollars: 45,
      }))
      await api.ok('POST', `/leagues/${league.id}/games`, { games })
    }
    const official = await api.ok('POST', `/leagues/${league.id}/officials`, {
      externalId: 'bench-official',
      email: 'bench.official@example.com',
    })
    const games = await api.ok('GET', `/leagues/${league.id}/games`)
    for (const game of games.filter((_, i) => i % (GAMES / HELD) === 0)) {
      await api.ok('POST', `/games/${game.id}/assign`, { userId: official.userId })
    }
    const deps = service.runtime.deps
    const link = await issueSignInLink(deps, 'bench.official@example.com', new Date())
    const session = await redeemSignInLink(deps, link, { now: new Date(), sessionTtlMs: 3_600_000 })
    const cookie = `refdesk_session=${session.token}`
    // The key was issued without --organizer-email: its leagues' organizer has the default address.
    const organizerEmail = `${service.issued.source}@partners.refdesk.invalid`
    const organizerLink = await issueSignInLink(deps, organizerEmail, new Date())
    const organizerSession = await redeemSignInLink(deps, organizerLink, {
      now: new Date(),
      sessionTtlMs: 3_600_000,
    })
    const organizerCookie = `refdesk_session=${organizerSession.token}`

    const targets = {
      api: { path: `/api/v1/leagues/${league.id}/games`, headers: { authorization: service.authorization } },
      open: { path: '/app/open', headers: { cookie } },
      openLast: { path: `/app/open?page=${Math.ceil((GAMES - HELD) / 50)}`, headers: { cookie } },
      schedule: { path: '/app/', headers: { cookie } },
      leagueApi: { path: `/api/v1/leagues/${league.id}`, headers: { authorization: service.authorization } },
      organizerLeague: { path: `/app/organize/leagues/${league.id}`, headers: { cookie: organizerCookie } },
    }
    const time = async ({ path, headers }) => {
      const started = process.hrtime.bigint()
      const res = await pool.request({ method: 'GET', path, headers })
      const body = await res.body.text()
      const ms = Number(process.hrtime.bigint() - started) / 1e6
      if (res.statusCode !== 200) throw new Error(`app ${path}: ${res.statusCode}`)
      return { ms, bytes: Buffer.byteLength(body), body }
    }
    // The pages must show what is measured: 50 open games on the first page, 100 held games on the schedule.
    const openPage = await time(targets.open)
    const schedulePage = await time(targets.schedule)
    const count = (html, needle) => html.split(needle).length - 1
    if (count(openPage.body, '>Claim</button>') !== 50)
      throw new Error('app: the open page shows no 50 games')
    if (count(schedulePage.body, '>Withdraw</button>') !== HELD) throw new Error('app: the schedule is short')
    const organizerPage = await time(targets.organizerLeague)
    if (count(organizerPage.body, '<li class="card">') !== 50)
      throw new Error('app: the league page shows no 50 games')

    const figures = Object.fromEntries(Object.keys(targets).map((k) => [k, []]))
    const bytes = {}
    for (let r = -1; r < rounds; r++) {
      for (const [name, target] of Object.entries(targets)) {
        const samples = []
        for (let i = 0; i < requests; i++) {
          const { ms, bytes: size } = await time(target)
          samples.push(ms)
          bytes[name] = size
        }
        if (r >= 0) figures[name].push(median(samples))
      }
    }
    const of = (name) => summary(figures[name])
    const vsApi = (metric, name, target, check, baseline = 'api') =>
      entry({ name: 'app', metric, value: of(name), baseline: of(baseline), target, check, unit: 'ms' })
    const size = (metric, name, baseline = 'api') =>
      entry({
        name: 'app',
        metric,
        value: summary([bytes[name]]),
        baseline: summary([bytes[baseline]]),
        unit: 'B',
      })
    return [
      vsApi('open_games_page_ms', 'open', '<= 2.0', (ratio) => ratio <= 2),
      vsApi('schedule_page_ms', 'schedule', '<= 2.0', (ratio) => ratio <= 2),
      vsApi('open_games_last_page_ms', 'openLast'),
      size('open_games_page_bytes', 'open'),
      size('schedule_page_bytes', 'schedule'),
      vsApi('organizer_league_page_ms', 'organizerLeague', '<= 2.0', (ratio) => ratio <= 2, 'leagueApi'),
      size('organizer_league_page_bytes', 'organizerLeague', 'leagueApi'),
    ]
  } finally {
    await pool.close()
    await service.close()
  }
}
