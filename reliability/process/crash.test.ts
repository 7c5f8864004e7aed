// Issue 6, item 4: crash safety. `refdesk serve` is SIGKILLed at a random moment while 500-game batch
// imports, or assign storms with official upserts, are in flight, then restarted on the same database
// (SQLite file or PostgreSQL). After every restart the database is intact (integrity_check / amcheck),
// every game has its one position and its game.created event, every claim its position, no
// (source, externalId) is duplicated, and every write the server acknowledged with a 2xx is there.
// Batches the kill left unanswered are re-posted later: the externalId upsert makes the retry safe.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { recordFigure } from '../lib/figures.js'
import { openCheckedDatabase, type CheckedDatabase, type Invariants } from './invariants.js'
import { call, issueKeyByBin, startServe, type Answer, type Server } from './spawn.js'

// Kills alternate between imports and assign storms; the next round's server is the previous round's
// restart. 30 rounds (15 of each) fit the suite's budget on 2 busy cores (each start of `serve` costs 1-2 s);
// RELIABILITY_CRASH_ROUNDS=60 gives the full 30 of each kind for a longer soak.
const ROUNDS = Number(process.env.RELIABILITY_CRASH_ROUNDS ?? 30)
const IMPORT_CLIENTS = 3
const BATCH_SIZE = 500
const STORM_SIZE = 50
const OFFICIAL_POOL = STORM_SIZE
// The run's bound grows with its rounds, a minute each (a kill, a restart of `serve`, a batch or a storm,
// the checks), instead of one guess for the whole run: a loaded machine only slows it, a stall still fails it.
const ROUND_BOUND_MS = 60_000

interface Batch {
  leagueId: string
  games: { externalId: string; startsAt: string; location: string; payDollars: number }[]
}

/** Writes answered 2xx during one round, to be found after the restart that ends it. */
interface Acknowledged {
  leagues: Set<string>
  /** game id -> its league and externalId */
  games: Map<string, { leagueId: string; externalId: string }>
  /** userId -> league, approved */
  officials: Map<string, string>
  /** positionId -> the claim's game and official */
  claims: Map<string, { gameId: string; userId: string }>
}

const acknowledged = (): Acknowledged => ({
  leagues: new Set(),
  games: new Map(),
  officials: new Map(),
  claims: new Map(),
})

const random = (min: number, max: number) => min + Math.random() * (max - min)
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('crash safety: SIGKILL of `refdesk serve` mid-request', () => {
  let database: CheckedDatabase
  let server: Server | undefined

  beforeAll(async () => {
    database = await openCheckedDatabase()
  })
  afterAll(async () => {
    server?.kill('SIGKILL')
    await server?.exit
    await database?.close()
  })

  it(
    `keeps the store's invariants and every acknowledged write across ${ROUNDS} kills`,
    async () => {
      const key = await issueKeyByBin(database.url, `crash-${process.pid}`)
      // Requests the client has sent and not yet seen answered: a kill with some pending is mid-request.
      let pending = 0
      const api = async <T = any>(method: string, path: string, body?: unknown): Promise<Answer<T>> => {
        pending += 1
        try {
          return await call<T>(server!.base, key, method, path, body)
        } finally {
          pending -= 1
        }
      }
      server = await startServe(database.url)

      const totals = {
        killsMidRequest: 0,
        integrityFailures: 0,
        orphanGames: 0,
        orphanClaims: 0,
        missingCreated: 0,
        duplicates: 0,
        otherViolations: 0,
        acknowledgedChecked: 0,
        acknowledgedMissing: 0,
        unexpectedAnswers: [] as string[],
        positionsStormed: 0,
        positionsWithSeveralWinners: 0,
        fullyAnsweredStormsWithoutOneWinner: 0,
        batchesRetried: 0,
      }
      const everything = acknowledged()
      const unanswered: Batch[] = []
      let batchLatency = 300
      /** Batches (or storms) answered in the current round. */
      let progress = 0
      let batchSeq = 0
      let stormLatency = 300
      let officialSeq = 0

      const expectAnswer = (what: string, answer: Answer, ok: (a: Answer) => boolean) => {
        if (answer.status !== 0 && !ok(answer))
          totals.unexpectedAnswers.push(`${what}: ${answer.status} ${JSON.stringify(answer.body)}`)
        return answer.status !== 0 && ok(answer)
      }

      async function postBatch(batch: Batch, acks: Acknowledged): Promise<boolean> {
        const started = performance.now()
        const res = await api('POST', `/leagues/${batch.leagueId}/games`, { games: batch.games })
        if (!expectAnswer('import', res, (a) => a.status === 201)) return false
        batchLatency = 0.8 * batchLatency + 0.2 * (performance.now() - started)
        progress += 1
        for (const game of res.body.data.created)
          acks.games.set(game.id, { leagueId: batch.leagueId, externalId: game.externalId })
        return true
      }

      function newBatch(leagueId: string, round: number): Batch {
        const seq = batchSeq++
        return {
          leagueId,
          games: Array.from({ length: BATCH_SIZE }, (_, i) => ({
            externalId: `crash-${round}-${seq}-${i}`,
            startsAt: new Date(Date.UTC(2026, 5, 1) + (seq * BATCH_SIZE + i) * 60_000).toISOString(),
            location: `Field ${i % 17}`,
            payDollars: 25,
          })),
        }
      }

      /** Import clients loop until the kill: fresh batches, re-posts of answered ones, earlier orphans. */
      async function importLoad(round: number, acks: Acknowledged, killed: () => boolean) {
        const league = await api('POST', '/leagues', { name: `Crash ${round}` })
        if (!expectAnswer('league', league, (a) => a.status === 201)) return
        const leagueId: string = league.body.data.id
        acks.leagues.add(leagueId)
        const answered: Batch[] = []
        await Promise.all(
          Array.from({ length: IMPORT_CLIENTS }, async () => {
            while (!killed()) {
              let batch: Batch
              const retry = unanswered.shift()
              if (retry) {
                batch = retry
                totals.batchesRetried += 1
              } else if (answered.length > 0 && Math.random() < 0.25) {
                // An upsert-update racing the other clients' creates.
                const earlier = answered[Math.floor(Math.random() * answered.length)]!
                batch = { ...earlier, games: earlier.games.map((g) => ({ ...g, location: 'Moved' })) }
              } else {
                batch = newBatch(leagueId, round)
              }
              if (await postBatch(batch, acks)) answered.push(batch)
              else if (killed()) unanswered.push(batch)
            }
          }),
        )
      }

      /** Storms: one fresh game, 50 approved officials assigning to its position at once, upserts beside. */
      async function upsertOfficial(leagueId: string, externalId: string, acks: Acknowledged) {
        const res = await api('POST', `/leagues/${leagueId}/officials`, { externalId })
        if (!expectAnswer('official', res, (a) => a.status === 201)) return undefined
        acks.officials.set(res.body.data.userId, leagueId)
        return res.body.data.userId as string
      }

      async function assignLoad(round: number, acks: Acknowledged, killed: () => boolean) {
        const leagueId = assignLeague
        const upsert = (externalId: string) => upsertOfficial(leagueId, externalId, acks)
        const upserts = (async () => {
          while (!killed()) {
            // New officials join and pool members are re-approved while the storms run.
            await Promise.all([upsert(`off-${officialSeq++}`), upsert('off-0')])
          }
        })()
        while (!killed()) {
          const started = performance.now()
          const batch = newBatch(leagueId, round)
          batch.games = batch.games.slice(0, 1)
          const imported = await api('POST', `/leagues/${leagueId}/games`, { games: batch.games })
          if (!expectAnswer('storm game', imported, (a) => a.status === 201)) break
          const game = imported.body.data.created[0]
          acks.games.set(game.id, { leagueId, externalId: game.externalId })
          const positionId: string = game.positions[0].id
          totals.positionsStormed += 1
          const answers = await Promise.all(
            pool.slice(0, STORM_SIZE).map(async (userId) => ({
              userId,
              res: await api('POST', `/games/${game.id}/assign`, { userId, positionId }),
            })),
          )
          const winners = answers.filter(({ res }) => res.status === 200)
          for (const { res } of answers)
            expectAnswer(
              'assign',
              res,
              (a) => a.status === 200 || (a.status === 409 && a.body?.error === 'position_taken'),
            )
          if (winners.length > 1) totals.positionsWithSeveralWinners += 1
          if (answers.every(({ res }) => res.status !== 0) && winners.length !== 1)
            totals.fullyAnsweredStormsWithoutOneWinner += 1
          for (const { userId } of winners) acks.claims.set(positionId, { gameId: game.id, userId })
          stormLatency = 0.8 * stormLatency + 0.2 * (performance.now() - started)
          progress += 1
        }
        await upserts
      }

      /** Every acknowledged write of `acks`, read back through the restarted server's API. */
      async function missingWrites(acks: Acknowledged): Promise<string[]> {
        const missing: string[] = []
        const gamesByLeague = new Map<string, Map<string, any>>()
        const officialsByLeague = new Map<string, Map<string, any>>()
        for (const leagueId of acks.leagues) {
          if ((await api('GET', `/leagues/${leagueId}`)).status !== 200) missing.push(`league ${leagueId}`)
        }
        for (const [gameId, { leagueId, externalId }] of acks.games) {
          if (!gamesByLeague.has(leagueId)) {
            const list = await api('GET', `/leagues/${leagueId}/games`)
            gamesByLeague.set(leagueId, new Map((list.body?.data ?? []).map((g: any) => [g.id, g])))
          }
          const game = gamesByLeague.get(leagueId)!.get(gameId)
          if (game?.externalId !== externalId) missing.push(`game ${gameId} (${externalId})`)
        }
        for (const [userId, leagueId] of acks.officials) {
          if (!officialsByLeague.has(leagueId)) {
            const list = await api('GET', `/leagues/${leagueId}/officials`)
            officialsByLeague.set(leagueId, new Map((list.body?.data ?? []).map((o: any) => [o.userId, o])))
          }
          if (officialsByLeague.get(leagueId)!.get(userId)?.status !== 'approved')
            missing.push(`official ${userId}`)
        }
        for (const [positionId, { gameId, userId }] of acks.claims) {
          const detail = await api('GET', `/games/${gameId}`)
          const position = detail.body?.data?.positions?.find((p: any) => p.id === positionId)
          if (position?.status !== 'claimed' || position.official?.id !== userId)
            missing.push(`claim of ${positionId} by ${userId}`)
        }
        totals.acknowledgedChecked +=
          acks.leagues.size + acks.games.size + acks.officials.size + acks.claims.size
        return missing
      }

      function tally(found: Invariants) {
        totals.integrityFailures += found.integrityProblems > 0 ? 1 : 0
        totals.orphanGames += found.orphanGames
        totals.orphanClaims += found.orphanClaims
        totals.missingCreated += found.gamesMissingCreatedEvent
        totals.duplicates += found.duplicateExternalIds
        totals.otherViolations += found.gamesWithSeveralPositions + found.claimStatusMismatches
      }

      // The storms' league and its officials, set up before the first kill (and checked at the end).
      const setup = acknowledged()
      const assignLeagueReply = await api('POST', '/leagues', { name: 'Crash storms' })
      expect(assignLeagueReply.status).toBe(201)
      const assignLeague: string = assignLeagueReply.body.data.id
      setup.leagues.add(assignLeague)
      const pool: string[] = []
      for (let i = 0; i < OFFICIAL_POOL; i++)
        pool.push((await upsertOfficial(assignLeague, `off-${officialSeq++}`, setup))!)
      for (const [id, v] of setup.officials) everything.officials.set(id, v)
      everything.leagues.add(assignLeague)

      const violations: string[] = []
      for (let round = 0; round < ROUNDS; round++) {
        const acks = acknowledged()
        let killedAt = 0
        const killed = () => killedAt > 0
        const running = server
        progress = 0
        let loadDone = false
        const load = (
          round % 2 === 0 ? importLoad(round, acks, killed) : assignLoad(round, acks, killed)
        ).finally(() => (loadDone = true))
        // The kill lands after 0, 1 or 2 answered batches (storms), then anywhere within one more: before
        // the first commit, inside a transaction, between commit and answer, or on a fresh request.
        const after = Math.floor(random(0, 3))
        while (progress < after && !loadDone) await sleep(2)
        await sleep(random(0, round % 2 === 0 ? batchLatency : stormLatency))
        if (pending > 0) totals.killsMidRequest += 1
        running.kill('SIGKILL')
        killedAt = performance.now()
        expect((await running.exit).signal).toBe('SIGKILL')
        await load

        server = await startServe(database.url)
        const found = await database.check()
        tally(found)
        const missing = await missingWrites(acks)
        totals.acknowledgedMissing += missing.length
        if (found.integrityProblems > 0 || Object.values(found).some((n) => n > 0) || missing.length > 0)
          violations.push(
            `round ${round}: ${JSON.stringify(found)} missing ${missing.slice(0, 5).join(', ')}`,
          )
        for (const [id, v] of acks.games) everything.games.set(id, v)
        for (const [id, v] of acks.officials) everything.officials.set(id, v)
        for (const [id, v] of acks.claims) everything.claims.set(id, v)
        for (const id of acks.leagues) everything.leagues.add(id)
      }

      // Once more at the end: nothing acknowledged in any round was lost by a later crash.
      const lostLater = await missingWrites(everything)
      totals.acknowledgedMissing += lostLater.length
      server.kill('SIGTERM')
      expect(await server.exit).toEqual({ code: 0, signal: null })
      server = undefined

      const figure = (metric: string, value: number | string, target: string, met: boolean) =>
        recordFigure({ section: 'crash', metric, value, target, met })
      figure('rounds (SIGKILL, restart)', ROUNDS, `${ROUNDS}`, true)
      figure(
        'rounds during imports / assign storms',
        `${Math.ceil(ROUNDS / 2)} / ${Math.floor(ROUNDS / 2)}`,
        '',
        true,
      )
      figure('kills mid-request', totals.killsMidRequest, `${ROUNDS}`, totals.killsMidRequest === ROUNDS)
      figure('integrity_check failures', totals.integrityFailures, '0', totals.integrityFailures === 0)
      figure('orphan games (no position)', totals.orphanGames, '0', totals.orphanGames === 0)
      figure('orphan claims (no position)', totals.orphanClaims, '0', totals.orphanClaims === 0)
      figure('games missing game.created', totals.missingCreated, '0', totals.missingCreated === 0)
      figure('duplicate (source, externalId)', totals.duplicates, '0', totals.duplicates === 0)
      figure('acknowledged writes checked', totals.acknowledgedChecked, '> 0', totals.acknowledgedChecked > 0)
      figure('acknowledged writes missing', totals.acknowledgedMissing, '0', totals.acknowledgedMissing === 0)
      figure('unanswered batches re-posted', totals.batchesRetried, '> 0', totals.batchesRetried > 0)
      figure('positions stormed', totals.positionsStormed, '> 0', totals.positionsStormed > 0)
      figure(
        'positions with more than one winner',
        totals.positionsWithSeveralWinners,
        '0',
        totals.positionsWithSeveralWinners === 0,
      )

      expect(violations).toEqual([])
      expect(lostLater).toEqual([])
      expect(totals.unexpectedAnswers.slice(0, 5)).toEqual([])
      expect(totals).toMatchObject({
        killsMidRequest: ROUNDS,
        integrityFailures: 0,
        orphanGames: 0,
        orphanClaims: 0,
        missingCreated: 0,
        duplicates: 0,
        otherViolations: 0,
        acknowledgedMissing: 0,
        positionsWithSeveralWinners: 0,
        fullyAnsweredStormsWithoutOneWinner: 0,
      })
      expect(totals.acknowledgedChecked).toBeGreaterThan(0)
      expect(totals.batchesRetried).toBeGreaterThan(0)
      expect(totals.positionsStormed).toBeGreaterThan(0)
    },
    ROUNDS * ROUND_BOUND_MS,
  )
})
