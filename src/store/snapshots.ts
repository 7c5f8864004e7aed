// Snapshots of one committed state for big lists read page by page (issue 21 item 3). On a SQLite file they
// are transactions on read-only connections of their own, a small pool, which WAL gives a snapshot that
// writers on the main connection never wait for.
import SQLite from 'better-sqlite3'
import { Kysely, SqliteDialect, type CompiledQuery } from 'kysely'
import { withStatementCache } from './statements.js'
import type { Db } from './tables.js'

export interface Snapshot {
  /** Reads see one committed state of the database, whatever commits meanwhile. */
  readonly db: Kysely<Db>
  /** Rows (games) per page; Infinity where the reads cannot be paged (one synchronous read each). */
  readonly pageSize: number
}

/** A snapshot held open until `release()`, which ends it and hands its connection back (once). */
export interface SnapshotLease {
  readonly snapshot: Snapshot
  release(): Promise<void>
}

/** A compiled read run straight on a connection; undefined means "use Kysely" (database.ts, readDirectly). */
export type DirectReader = (query: CompiledQuery) => unknown[] | Promise<unknown[]> | undefined

/** Read connections opened as snapshots need them, up to a few; more snapshots wait for one. */
const READ_CONNECTIONS = 4

export function readConnections(path: string, direct: (db: Kysely<Db>, read: DirectReader) => void) {
  interface Reader {
    sqlite: SQLite.Database
    db: Kysely<Db>
  }
  const all: Reader[] = []
  const idle: Reader[] = []
  const waiting: { resolve: (reader: Reader) => void; reject: (error: Error) => void }[] = []
  let closed = false

  function open(): Reader {
    const sqlite = new SQLite(path, { readonly: true, fileMustExist: true })
    sqlite.pragma('busy_timeout = 5000')
    const statements = withStatementCache(sqlite)
    const db = new Kysely<Db>({ dialect: new SqliteDialect({ database: statements }) })
    // Prepared reads run straight on the connection, as on the main one: it is this snapshot's alone.
    direct(db, (query) => {
      const statement = statements.prepare(query.sql)
      return statement.reader ? statement.all(query.parameters) : undefined
    })
    const reader = { sqlite, db }
    all.push(reader)
    return reader
  }

  async function acquire(): Promise<Reader> {
    if (closed) throw new Error('database closed')
    const reader = idle.pop() ?? (all.length < READ_CONNECTIONS ? open() : undefined)
    return reader ?? new Promise((resolve, reject) => waiting.push({ resolve, reject }))
  }

  function release(reader: Reader): void {
    if (closed) return
    const next = waiting.shift()
    if (next) next.resolve(reader)
    else idle.push(reader)
  }

  return {
    async open(pageSize: number): Promise<SnapshotLease> {
      const reader = await acquire()
      try {
        // A deferred transaction: its snapshot is taken at its first read and held until released. The
        // connection is read-only: nothing in it can write.
        reader.sqlite.exec('begin')
      } catch (error) {
        release(reader)
        throw error
      }
      let released = false
      return {
        snapshot: { db: reader.db, pageSize },
        async release() {
          if (released) return
          released = true
          try {
            if (reader.sqlite.open && reader.sqlite.inTransaction) reader.sqlite.exec('rollback')
          } finally {
            release(reader)
          }
        },
      }
    },
    close(): void {
      closed = true
      for (const { reject } of waiting.splice(0)) reject(new Error('database closed'))
      for (const reader of all) reader.sqlite.close()
    },
  }
}
