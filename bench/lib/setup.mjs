// What every scenario stands on: a fresh database (a temporary SQLite file, or a scratch PostgreSQL
// database created beside the one named), the compiled service listening on a local port, a partner key,
// and the raw driver on the same database for the baselines.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import SQLite from 'better-sqlite3'
import pg from 'pg'
import { buildHttp, openRuntime } from '../../dist/app.js'
import { DEFAULT_HTTP_SETTINGS } from '../../dist/http/settings.js'
import { issueKey } from '../../dist/domain/partners/api-keys.js'
import { parseAllowPrivate } from '../../dist/net/address-guard.js'

/** A fresh database for one scenario; `drop()` removes it. */
export async function freshDatabase(databaseUrl, label) {
  if (!databaseUrl) {
    const dir = mkdtempSync(join(tmpdir(), `refdesk-bench-${label}-`))
    return { url: `file:${join(dir, 'bench.sqlite')}`, drop: async () => rmSync(dir, { recursive: true }) }
  }
  const name = `refdesk_bench_${label}_${process.pid}`
  const admin = new pg.Client({ connectionString: databaseUrl })
  await admin.connect()
  await admin.query(`drop database if exists ${name}`)
  await admin.query(`create database ${name}`)
  await admin.end()
  const url = new URL(databaseUrl)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    async drop() {
      // Not `with (force)`: terminating a connection some pool still holds would crash this process with
      // an unhandled pool 'error'. Pools that closed a moment ago may still be disconnecting, so retry.
      const c = new pg.Client({ connectionString: databaseUrl })
      await c.connect()
      try {
        for (let attempt = 1; ; attempt++) {
          try {
            await c.query(`drop database if exists ${name}`)
            return
          } catch (error) {
            if (attempt >= 10) {
              process.stderr.write(`\nbench: left database ${name} behind: ${error.message}\n`)
              return
            }
            await new Promise((r) => setTimeout(r, 300))
          }
        }
      } finally {
        await c.end()
      }
    },
  }
}

/**
 * The raw driver: better-sqlite3 or a pg Pool, SQL written with $n placeholders, statements prepared once
 * (better-sqlite3 statements cached by text; pg named statements).
 */
export function rawDriver(url) {
  if (url.startsWith('postgres')) {
    const pool = new pg.Pool({ connectionString: url, max: 10 })
    // Dropping the scratch database at the end terminates idle connections; that is not a failure.
    pool.on('error', () => undefined)
    const names = new Map()
    const named = (text) => {
      if (!names.has(text)) names.set(text, `bench_${names.size}`)
      return names.get(text)
    }
    const run = (client, text, values) => client.query({ name: named(text), text, values })
    return {
      kind: 'postgres',
      async all(text, values = []) {
        return (await run(pool, text, values)).rows
      },
      /** Runs `fn(exec)` in one transaction; exec(text, values) runs a prepared statement. */
      async transaction(fn) {
        const client = await pool.connect()
        try {
          await client.query('begin')
          const out = await fn(async (text, values) => (await run(client, text, values)).rows)
          await client.query('commit')
          return out
        } catch (error) {
          await client.query('rollback')
          throw error
        } finally {
          client.release()
        }
      },
      checkpoint: async () => undefined,
      close: () => pool.end(),
    }
  }
  const db = new SQLite(url.slice('file:'.length))
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = FULL')
  db.pragma('busy_timeout = 5000')
  const statements = new Map()
  const prepare = (text) => {
    let st = statements.get(text)
    if (!st) {
      st = db.prepare(text.replace(/\$\d+/g, '?'))
      statements.set(text, st)
    }
    return st
  }
  const exec = (text, values = []) => {
    const st = prepare(text)
    return st.reader ? st.all(values) : (st.run(values), [])
  }
  return {
    kind: 'sqlite',
    async all(text, values) {
      return exec(text, values)
    },
    async transaction(fn) {
      // better-sqlite3 runs synchronously, so nothing interleaves between begin and commit.
      prepare('begin immediate').run()
      try {
        const out = await fn(async (text, values) => exec(text, values))
        prepare('commit').run()
        return out
      } catch (error) {
        prepare('rollback').run()
        throw error
      }
    },
    /** Empties the WAL into the database file, so the next writer starts without a checkpoint due. */
    checkpoint: async () => void db.pragma('wal_checkpoint(TRUNCATE)'),
    close: async () => db.close(),
  }
}

/**
 * The compiled service on a fresh database, listening on 127.0.0.1, with one partner key; webhook
 * endpoints on 127.0.0.1 (the bench's receiver) may be registered.
 */
export async function startService(databaseUrl, label) {
  const database = await freshDatabase(databaseUrl, label)
  const runtime = await openRuntime(database.url, {
    webhookPolicy: parseAllowPrivate('127.0.0.0/8'),
    checkpoints: 'background',
  })
  // The bench measures the service, not the per-key rate limit.
  const app = await buildHttp(runtime, false, { http: { ...DEFAULT_HTTP_SETTINGS, rateLimitPerSecond: 0 } })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const origin = `http://127.0.0.1:${app.server.address().port}`
  const issued = await issueKey(runtime.deps, { source: `bench-${label}` })
  const api = client(`${origin}/api/v1`, `Bearer ${issued.key}`)
  return {
    database,
    runtime,
    app,
    origin,
    api,
    issued,
    authorization: `Bearer ${issued.key}`,
    async close() {
      await app.close()
      await runtime.close()
      await database.drop()
    },
  }
}

export function client(base, authorization) {
  const call = async (method, path, body) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { authorization, ...(body !== undefined && { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await res.text()
    return { status: res.status, bytes: Buffer.byteLength(text), body: text ? JSON.parse(text) : undefined }
  }
  return {
    base,
    get: (path) => call('GET', path),
    post: (path, body) => call('POST', path, body),
    async ok(method, path, body) {
      const res = await call(method, path, body)
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`)
      return res.body.data
    },
  }
}

export const gameItem = (externalId, i, extra = {}) => ({
  externalId,
  startsAt: new Date(Date.UTC(2026, 4, 1) + i * 3_600_000).toISOString(),
  sport: 'soccer',
  location: `Field ${i % 17}`,
  payDollars: 45,
  ...extra,
})

/** Creates `n` games in a league in 500-game batches through HTTP; returns their ids. */
export async function importGames(api, leagueId, n, prefix) {
  const ids = []
  for (let start = 0; start < n; start += 500) {
    const games = Array.from({ length: Math.min(500, n - start) }, (_, k) =>
      gameItem(`${prefix}-${start + k}`, start + k),
    )
    const data = await api.ok('POST', `/leagues/${leagueId}/games`, { games })
    ids.push(...data.created.map((g) => g.id))
  }
  return ids
}

/**
 * The child process's next IPC message, or an error naming `what` if it exits first. Each call's listeners
 * go once it settles, so a scenario that talks to a child hundreds of times does not pile them up.
 */
export function nextMessage(child, what) {
  return new Promise((resolve, reject) => {
    const onMessage = (message) => {
      child.off('exit', onExit)
      resolve(message)
    }
    const onExit = (code) => {
      child.off('message', onMessage)
      reject(new Error(`${what} exited with ${code}`))
    }
    child.once('message', onMessage)
    child.once('exit', onExit)
  })
}

/** Like startService, but the service runs in a child process; `peakRss()` is that process's peak since the last call. */
export async function startServiceProcess(databaseUrl, label) {
  const { fork } = await import('node:child_process')
  const database = await freshDatabase(databaseUrl, label)
  const child = fork(new URL('./service-process.mjs', import.meta.url), [database.url, `bench-${label}`], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    // BENCH_CPU_PROF=<dir> writes the service's CPU profile there on close (node --cpu-prof).
    execArgv: process.env.BENCH_CPU_PROF
      ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
      : [],
  })
  const next = () => nextMessage(child, 'service process')
  const ready = await next()
  const authorization = `Bearer ${ready.key}`
  return {
    database,
    origin: ready.origin,
    api: client(`${ready.origin}/api/v1`, authorization),
    issued: { source: ready.source },
    authorization,
    async peakRss() {
      const answer = next()
      child.send('peak-rss')
      return (await answer).peakRss
    },
    /** The service's process.memoryUsage() now (bytes). */
    async memory() {
      const answer = next()
      child.send('rss')
      return (await answer).memory
    },
    /** A new key of another source (a second tenant of the same service): its Authorization and client. */
    async tenant(source) {
      const answer = next()
      child.send({ issue: source })
      const authorization = `Bearer ${(await answer).key}`
      return { authorization, api: client(`${ready.origin}/api/v1`, authorization) }
    },
    async close() {
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.send('close')
      await exited
      await database.drop()
    },
  }
}
