// import: a 500-game batch of new games, then the same batch again as upserts, through HTTP, once with one
// position per game (the spec's import) and once with a crew of three (a referee and two assistants).
// Baseline: the raw driver writing the same rows (games, positions, outbox events) in one transaction, one
// prepared statement per row. A batch is timed from sending its (already serialized) body to the last byte of the
// answer, as a server's latency is; parsing the answer is the client's own work, checked outside the time.
// Each timed batch starts on an empty SQLite WAL, so an automatic checkpoint, whose cost depends on what
// the batches before wrote, falls on neither side.
import { randomUUID } from 'node:crypto'
import { Pool } from 'undici'
import { gameItem, rawDriver, startService } from '../lib/setup.mjs'
import { entry, summary, timed } from '../lib/stats.mjs'

const BATCH = 500

const CREWS = [['Official'], ['Referee', 'Assistant 1', 'Assistant 2']]
const GAME_MINUTES = 90

const INSERT_GAME = `insert into games (id, league_id, source, external_id, sport, starts_at, ends_at, location,
  latitude, longitude, status, created_at, updated_at) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11,
  $12, $13)`
const UPSERT_GAME = `${INSERT_GAME} on conflict (source, external_id) do update set sport = excluded.sport,
  starts_at = excluded.starts_at, ends_at = excluded.ends_at, location = excluded.location,
  latitude = excluded.latitude, longitude = excluded.longitude, updated_at = excluded.updated_at
  returning id, status`
const INSERT_POSITION = `insert into positions (id, game_id, label, pay_cents, status, created_at, updated_at)
  values ($1, $2, $3, $4, $5, $6, $7)`
const INSERT_EVENT = `insert into outbox_events (id, event, league_id, data, created_at) values ($1, $2, $3, $4, $5)`

/**
 * The raw side writes the same rows as the service: each event's data is the game as the spec's `game.created`
 * carries it (every field, its positions included), so both sides write events of the same size. An upsert's
 * positions are the ones this driver created for that game, kept in `crews` (no read).
 */
async function rawBatch(raw, leagueId, source, items, create, crew, crews) {
  const at = new Date().toISOString()
  await raw.transaction(async (exec) => {
    for (const item of items) {
      const starts = new Date(item.startsAt)
      const startsAt = starts.toISOString()
      const endsAt = new Date(starts.getTime() + GAME_MINUTES * 60_000).toISOString()
      const values = [randomUUID(), leagueId, source, item.externalId, item.sport, startsAt, endsAt]
      const row = [...values, item.location, null, null, 'open', at, at]
      const game = {
        leagueId,
        id: row[0],
        sport: item.sport,
        startsAt,
        durationMinutes: GAME_MINUTES,
        endsAt,
        location: item.location,
        status: 'open',
        latitude: null,
        longitude: null,
        source,
        externalId: item.externalId,
        positions: [],
      }
      if (create) {
        await exec(INSERT_GAME, row)
        for (const label of crew) {
          const position = [randomUUID(), game.id, label, 4500, 'open', at, at]
          await exec(INSERT_POSITION, position)
          game.positions.push({
            id: position[0],
            label,
            payCents: 4500,
            payDollars: 45,
            status: 'open',
            minLevel: null,
          })
        }
        crews.set(item.externalId, game.positions)
      } else {
        const [written] = await exec(UPSERT_GAME, row)
        game.id = written.id
        game.positions = crews.get(item.externalId)
      }
      await exec(INSERT_EVENT, [`evt_${randomUUID()}`, 'game.created', leagueId, JSON.stringify(game), at])
    }
  })
}

export async function importScenario({ databaseUrl, rounds }) {
  const results = []
  for (const crew of CREWS) results.push(...(await importCrews({ databaseUrl, rounds, crew })))
  return results
}

async function importCrews({ databaseUrl, rounds, crew }) {
  const service = await startService(databaseUrl, 'import')
  const raw = rawDriver(service.database.url)
  const pool = new Pool(service.origin, { connections: 1 })
  const item =
    crew.length === 1
      ? (externalId, i) => gameItem(externalId, i)
      : (externalId, i) => {
          const { payDollars, ...game } = gameItem(externalId, i)
          return { ...game, positions: crew.map((label) => ({ label, payDollars })) }
        }
  const name = crew.length === 1 ? 'import' : `import (${crew.length} positions)`
  try {
    const league = await service.api.ok('POST', '/leagues', { name: 'Import' })
    const items = (prefix) => Array.from({ length: BATCH }, (_, i) => item(`${prefix}-${i}`, i))
    const post = async (body) => {
      const res = await pool.request({
        method: 'POST',
        path: `/api/v1/leagues/${league.id}/games`,
        headers: { authorization: service.authorization, 'content-type': 'application/json' },
        body,
      })
      const answer = Buffer.from(await res.body.arrayBuffer())
      if (res.statusCode !== 201) throw new Error(`import: ${res.statusCode} ${answer}`)
      return answer
    }
    const measure = async (fn) => {
      await raw.checkpoint()
      return timed(fn)
    }
    const figures = { create: [], upsert: [], rawCreate: [], rawUpsert: [] }
    const crews = new Map()
    for (let r = -1; r < rounds; r++) {
      const http = JSON.stringify({ games: items(`http-${r}`) })
      const direct = items(`raw-${r}`)
      const create = await measure(() => post(http))
      const upsert = await measure(() => post(http))
      const rawCreate = await measure(() =>
        rawBatch(raw, league.id, service.issued.source, direct, true, crew, crews),
      )
      const rawUpsert = await measure(() =>
        rawBatch(raw, league.id, service.issued.source, direct, false, crew, crews),
      )
      if (r < 0) {
        // Warm-up: the answers are what the issue describes, the upserts naming the games just created.
        const [created, upserted] = [create, upsert].map((t) => JSON.parse(t.result).data.created)
        if (created.length !== BATCH || upserted.some((g, i) => g.id !== created[i].id))
          throw new Error('import: the upserts did not answer the games the batch created')
        if (created.some((g) => g.positions.length !== crew.length))
          throw new Error(`import: a game was not created with its ${crew.length} positions`)
        continue
      }
      figures.create.push(create.ms)
      figures.upsert.push(upsert.ms)
      figures.rawCreate.push(rawCreate.ms)
      figures.rawUpsert.push(rawUpsert.ms)
    }
    // Issue 27: within 1.5x of the raw driver on SQLite; on PostgreSQL, whose baseline pays a round trip per
    // row, below it (issues 5 and 22 asked for 2.0).
    const postgres = service.database.url.startsWith('postgres')
    const target = postgres ? '< 1.0' : '<= 1.5'
    const check = (ratio) => (postgres ? ratio < 1 : ratio <= 1.5)
    return [
      entry({
        name,
        metric: 'ms_per_batch_create',
        value: summary(figures.create),
        baseline: summary(figures.rawCreate),
        target,
        check,
        unit: 'ms',
      }),
      entry({
        name,
        metric: 'ms_per_batch_upsert',
        value: summary(figures.upsert),
        baseline: summary(figures.rawUpsert),
        target,
        check,
        unit: 'ms',
      }),
    ]
  } finally {
    await pool.close()
    await raw.close()
    await service.close()
  }
}
