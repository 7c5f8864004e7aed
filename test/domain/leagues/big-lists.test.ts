// Issue 21 item 3 / issue 27 target 4: the spec's unpaged league lists are read a page of games at a time
// with the event loop free between pages, and every page from one snapshot, so the answer is one state of
// the database however many writes commit while it is read. On SQLite a file (an in-memory database has
// one connection, no snapshot to read from); on PostgreSQL the test file's database.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { sql } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { authenticate } from '../../../src/domain/partners/api-keys.js'
import type { Caller } from '../../../src/domain/core/caller.js'
import { listAssignments } from '../../../src/domain/assignments/assignment-list.js'
import { listGames } from '../../../src/domain/games/games.js'
import { getLeague } from '../../../src/domain/leagues/leagues.js'
import { buildTestApp, isPostgres, testDatabaseUrl, type Partner, type TestApp } from '../../helpers/app.js'

const GAMES = 12
const PAGE = 3
const PAGES = GAMES / PAGE

describe('big league lists: in pages, from one snapshot', () => {
  let t: TestApp
  let dir: string | undefined
  let p: Partner
  let caller: Caller
  let leagueId: string

  beforeEach(async () => {
    dir = isPostgres() ? undefined : mkdtempSync(join(tmpdir(), 'refdesk-big-lists-'))
    const databaseUrl = dir === undefined ? await testDatabaseUrl() : `file:${join(dir, 'refdesk.sqlite')}`
    t = await buildTestApp({ databaseUrl, snapshotPageSize: PAGE })
    p = await t.partner()
    leagueId = (await p.post('/leagues', { name: 'Big' })).body.data.id as string
    const games = Array.from({ length: GAMES }, (_, i) => ({
      externalId: `g-${i}`,
      // Two games at each start, so pages end between games of one start too.
      startsAt: new Date(Date.UTC(2027, 4, 1) + Math.floor(i / 2) * 3_600_000).toISOString(),
      sport: 'soccer',
      location: 'v0',
    }))
    expect((await p.post(`/leagues/${leagueId}/games`, { games })).status).toBe(201)
    const official = await p.post(`/leagues/${leagueId}/officials`, { externalId: 'ref' })
    const userId = official.body.data.userId as string
    await sql`insert into claims (id, position_id, user_id, status, created_at)
              select 'clm_' || p.id, p.id, ${userId}, 'confirmed', '2027-04-01T00:00:00.000Z'
              from positions p join games g on g.id = p.game_id where g.league_id = ${leagueId}`.execute(
      t.deps.db,
    )
    await sql`update positions set status = 'claimed'
              where game_id in (select id from games where league_id = ${leagueId})`.execute(t.deps.db)
    caller = (await authenticate(t.deps, `Bearer ${p.key}`))!
  })

  afterEach(async () => {
    await t.close()
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
  })

  const lists = {
    detail: async () => (await getLeague(t.deps, caller, leagueId)).games.map((g) => g.location),
    games: async () => (await listGames(t.deps, caller, leagueId)).map((g) => g.location),
    assignments: async () => (await listAssignments(t.deps, caller, leagueId)).map((a) => a.game.location),
    // Over HTTP the lists are written as their pages are read (domain/core/streamed.ts).
    'GET detail': async () =>
      ((await p.get(`/leagues/${leagueId}`)).body.data.games as { location: string }[]).map(
        (g) => g.location,
      ),
    'GET games': async () =>
      ((await p.get(`/leagues/${leagueId}/games`)).body.data as { location: string }[]).map(
        (g) => g.location,
      ),
    'GET assignments': async () =>
      ((await p.get(`/leagues/${leagueId}/assignments`)).body.data as { game: { location: string } }[]).map(
        (a) => a.game.location,
      ),
  }

  for (const [name, read] of Object.entries(lists)) {
    it(`${name}: writes that commit while it is read page by page show all or not at all`, async () => {
      // A writer moves every game of the league to the next version in one transaction, again and again,
      // a turn of the event loop apart, until the list is read.
      let reading = true
      let committed = 0
      const writer = (async () => {
        while (reading) {
          await t.deps.db.transaction().execute(async (trx) => {
            await sql`update games set location = ${`v${committed + 1}`} where league_id = ${leagueId}`.execute(
              trx,
            )
          })
          committed++
          await nextTurn()
        }
      })()
      const atStart = committed
      let locations: string[]
      try {
        locations = await read()
      } finally {
        reading = false
        await writer
      }
      // Writes landed while the pages were read (on SQLite, a turn apart, one between every two pages; on
      // PostgreSQL each write is round trips, so as many as the timing allows) …
      expect(committed - atStart).toBeGreaterThanOrEqual(isPostgres() ? 1 : PAGES - 1)
      // … and the answer is one of the states they committed, every game of it.
      expect(locations).toHaveLength(GAMES)
      expect(new Set(locations).size).toBe(1)
      const version = Number(locations[0]!.slice(1))
      expect(version).toBeGreaterThanOrEqual(atStart)
      expect(version).toBeLessThanOrEqual(committed)
      // The writes were never held up by the open snapshot: the last one is there to read.
      expect(await read()).toEqual(Array(GAMES).fill(`v${committed}`))
    })

    it(`${name}: lets the event loop run between pages`, async () => {
      // A timer scheduled as the read starts fires before it ends, once per page boundary at least: the
      // read gives the loop a turn between pages (before, one synchronous read answered on SQLite).
      let turns = 0
      let reading = true
      const ticker = (async () => {
        while (reading) {
          await nextTurn()
          turns++
        }
      })()
      const answer = read()
      const locations = await answer
      reading = false
      await ticker
      expect(locations).toHaveLength(GAMES)
      expect(turns).toBeGreaterThanOrEqual(PAGES - 1)
    })
  }

  it('hands the read connection back when a read fails, and later reads still answer', async () => {
    for (let i = 0; i < 6; i++)
      await expect(listGames(t.deps, caller, 'lg_missing')).rejects.toMatchObject({
        code: 'league_not_found',
      })
    expect(await lists.games()).toHaveLength(GAMES)
  })
})
