// The store's invariants read straight from the database with SQL, next to the processes that write it:
// physical integrity (SQLite integrity_check; on PostgreSQL amcheck over every B-tree index and its heap)
// and the relations the services must keep whatever moment a process dies at.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import SQLite from 'better-sqlite3'
import pg from 'pg'
import { openDatabase } from '../../src/store/database.js'
import { cloneTemplate } from '../../test/helpers/pg.js'

export interface Invariants {
  /** Integrity problems found, as the database reports them (empty: intact). */
  integrityProblems: number
  orphanGames: number
  gamesWithSeveralPositions: number
  orphanClaims: number
  /** Positions whose status disagrees with having a claim (claimed without one, or open with one). */
  claimStatusMismatches: number
  gamesMissingCreatedEvent: number
  duplicateExternalIds: number
}

export interface CheckedDatabase {
  url: string
  check(): Promise<Invariants>
  close(): Promise<void>
}

const duplicates = (table: string) =>
  `select count(*) as n from (select source, external_id from ${table} where external_id is not null
     group by source, external_id having count(*) > 1) d`

const relationQueries = (
  gameIdOfEvent: string,
): Omit<Record<keyof Invariants, string>, 'integrityProblems'> => ({
  orphanGames: `select count(*) as n from games g where not exists (select 1 from positions p where p.game_id = g.id)`,
  gamesWithSeveralPositions: `select count(*) as n from (select game_id from positions group by game_id having count(*) > 1) d`,
  orphanClaims: `select count(*) as n from claims c where not exists (select 1 from positions p where p.id = c.position_id)`,
  claimStatusMismatches: `select count(*) as n from positions p
     where (p.status = 'claimed') <> exists (select 1 from claims c where c.position_id = p.id)`,
  gamesMissingCreatedEvent: `select count(*) as n from games where id not in
     (select ${gameIdOfEvent} from outbox_events where event = 'game.created')`,
  duplicateExternalIds: `select (${duplicates('games')}) + (${duplicates('leagues')}) + (${duplicates('users')}) as n`,
})

/** A fresh database for this test file: a SQLite file, or a clone of the PostgreSQL template. */
export async function openCheckedDatabase(): Promise<CheckedDatabase> {
  const base = process.env.TEST_DATABASE_URL
  return base ? openPostgres(await cloneTemplate(base)) : openSqlite()
}

async function openSqlite(): Promise<CheckedDatabase> {
  const dir = await mkdtemp(join(tmpdir(), 'refdesk-crash-'))
  const path = join(dir, 'refdesk.sqlite')
  // Migrated first, as an operator does: `refdesk keys` refuses to create a database.
  const created = openDatabase(`file:${path}`)
  await created.migrate()
  await created.close()
  const queries = relationQueries(`json_extract(data, '$.id')`)
  return {
    url: `file:${path}`,
    async check() {
      // Opened per check and closed again, so that after the next kill the restarted server alone finds
      // the file as the dead process left it and recovers it. WAL lets this read beside the server.
      const sqlite = new SQLite(path, { fileMustExist: true })
      try {
        sqlite.pragma('busy_timeout = 10000')
        const integrity = sqlite.pragma('integrity_check') as { integrity_check: string }[]
        const result = { integrityProblems: integrity.filter((r) => r.integrity_check !== 'ok').length }
        for (const [name, query] of Object.entries(queries))
          Object.assign(result, { [name]: (sqlite.prepare(query).get() as { n: number }).n })
        return result as Invariants
      } finally {
        sqlite.close()
      }
    },
    async close() {
      await rm(dir, { recursive: true, force: true })
    },
  }
}

async function openPostgres(url: string): Promise<CheckedDatabase> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  await client.query('create extension if not exists amcheck')
  const queries = relationQueries(`cast(data as json) ->> 'id'`)
  return {
    url,
    async check() {
      // bt_index_check with heapallindexed: every index is a valid B-tree and holds every heap tuple.
      const { rows: indexes } = await client.query<{ oid: number; name: string }>(
        `select c.oid, c.relname as name from pg_index i join pg_class c on c.oid = i.indexrelid
           join pg_am a on a.oid = c.relam where a.amname = 'btree' and c.relnamespace = 'public'::regnamespace`,
      )
      let integrityProblems = 0
      for (const index of indexes) {
        try {
          await client.query('select bt_index_check($1::regclass, true)', [index.oid])
        } catch {
          integrityProblems += 1
        }
      }
      const result = { integrityProblems }
      for (const [name, query] of Object.entries(queries))
        Object.assign(result, { [name]: Number((await client.query(query)).rows[0].n) })
      return result as Invariants
    },
    async close() {
      await client.end()
    },
  }
}
