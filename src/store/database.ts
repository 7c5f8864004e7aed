// openDatabase(url): one Kysely handle over embedded SQLite (`file:PATH`) or PostgreSQL (`postgres://…`).
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import SQLite from 'better-sqlite3'
import { CompiledQuery, Kysely, Migrator, PostgresDialect, SqliteDialect, SqliteDriver, sql } from 'kysely'
import type { DatabaseConnection, SqliteDatabase } from 'kysely'
import pg from 'pg'
import { isPostgresUrl, sqlitePath, unsupportedDatabaseUrl } from './database-url.js'
import { checkpointInBackground, type Checkpoints } from './checkpoints.js'
import { migrationProvider } from './migrations/index.js'
import { listenForNotifications, onNotifications } from './notifications.js'
import { listenForWork, onWork, type Listener } from './outbox.js'
import { serverOf, unreachable } from './postgres-errors.js'
import { readConnections, type DirectReader, type SnapshotLease } from './snapshots.js'
import { rowBuilder, withStatementCache } from './statements.js'
import type { Db } from './tables.js'

export type DialectName = 'sqlite' | 'postgres'

export interface Database {
  readonly db: Kysely<Db>
  readonly dialect: DialectName
  /** Applies pending migrations; answers the names of those it applied, in order (none when up to date). */
  migrate(): Promise<string[]>
  ping(): Promise<void>
  /**
   * Calls `listener` whenever deliveries are announced: by this process, and on PostgreSQL by any
   * process (LISTEN on a connection of its own, which reconnects and calls `listener` after a drop).
   */
  listenForWork(listener: () => void, onError: (error: unknown) => void): Listener
  /** Likewise for notifications queued (store/notifications.ts), on a channel of their own. */
  listenForNotifications(listener: () => void, onError: (error: unknown) => void): Listener
  /** The PostgreSQL pool's connections; undefined on SQLite, which has one embedded connection. */
  poolStats(): { total: number; idle: number; waiting: number } | undefined
  close(): Promise<void>
}

// Writing transactions take SQLite's write lock at BEGIN, so `serve`, `worker` and `refdesk app` sharing
// one file fail fast into busy_timeout instead of deadlocking on a read-to-write upgrade.
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'))
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  constructor(private readonly database: SqliteDatabase) {
    super({ database })
  }
  override createDriver() {
    return new ImmediateSqliteDriver({ database: this.database })
  }
}

export interface OpenOptions {
  /**
   * Whether a SQLite file that does not exist may be created (the default). Off, its absence is an error
   * naming the path: a command run from the wrong directory must not start an empty database.
   */
  readonly create?: boolean
  /**
   * Games per page when a big list is read from a snapshot (`openSnapshot`): 100 on SQLite, 250 on PostgreSQL. Tests lower it
   * to read a few games in several pages.
   */
  readonly snapshotPageSize?: number
  /**
   * Where a SQLite file's write-ahead log is checkpointed: inside the commit that finds it over 1,000 pages
   * (SQLite's default), or by a thread of its own (`serve` and `worker`: store/checkpoints.ts).
   */
  readonly checkpoints?: 'inline' | 'background'
}

export function openDatabase(url: string, options: OpenOptions = {}): Database {
  const unsupported = unsupportedDatabaseUrl(url)
  if (unsupported !== null) throw new Error(unsupported)
  if (isPostgresUrl(url)) return openPostgres(url, options.snapshotPageSize ?? POSTGRES_PAGE_SIZE)
  const path = sqlitePath(url)
  if (path !== ':memory:') ensureFile(path, options.create ?? true)
  return openSqlite(path, options.snapshotPageSize ?? SQLITE_PAGE_SIZE, options.checkpoints ?? 'inline')
}

/**
 * The file holds webhook signing secrets and officials' email addresses: a directory made for it is 0700
 * and the file is created 0600 before SQLite opens it. SQLite gives the -wal and -shm files the database
 * file's mode, so they are 0600 too. An existing file keeps the mode its operator gave it.
 */
function ensureFile(path: string, create: boolean): void {
  if (existsSync(path)) return
  if (!create)
    throw new Error(
      `no database at ${path}: \`refdesk migrate\` (or \`refdesk serve\`) creates it; to use another, pass --database or set DATABASE_URL`,
    )
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 })
  try {
    // An empty file is an empty SQLite database.
    writeFileSync(path, '', { flag: 'wx', mode: 0o600 })
  } catch (error) {
    // Another process created it between the check and here: theirs is as good.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  }
}

function openSqlite(path: string, pageSize: number, checkpoints: 'inline' | 'background'): Database {
  const sqlite = new SQLite(path)
  sqlite.pragma('journal_mode = WAL')
  sqlite.pragma('synchronous = FULL')
  sqlite.pragma('foreign_keys = ON')
  sqlite.pragma('busy_timeout = 5000')
  const statements = withStatementCache(sqlite)
  const db = new Kysely<Db>({ dialect: new ImmediateSqliteDialect(statements) })
  const totalChanges = sqlite.prepare('select total_changes()').pluck()
  const dataVersion = sqlite.prepare('pragma data_version').pluck()
  changeStamps.set(db, () =>
    sqlite.inTransaction ? undefined : `${totalChanges.get() as number}.${dataVersion.get() as number}`,
  )
  directReaders.set(db, (query) => {
    if (sqlite.inTransaction) return undefined
    const statement = statements.prepare(query.sql)
    return statement.reader ? statement.all(query.parameters) : undefined
  })
  // An in-memory database is this connection's alone: its big lists are read in one page, synchronously.
  const readers =
    path === ':memory:' ? undefined : readConnections(path, (reader, read) => directReaders.set(reader, read))
  if (readers) snapshotOpeners.set(db, () => readers.open(pageSize))
  const background =
    path !== ':memory:' && checkpoints === 'background' ? checkpointInBackground(sqlite, path) : undefined
  if (background) backgroundCheckpoints.set(db, background)
  const opened = handle(
    db,
    'sqlite',
    (listener) => {
      const off = onWork(listener)
      return { close: async () => off() }
    },
    (listener) => {
      const off = onNotifications(listener)
      return { close: async () => off() }
    },
    () => undefined,
    (error) => error,
  )
  return {
    ...opened,
    async close() {
      await background?.close()
      await opened.close()
      readers?.close()
    },
  }
}

/**
 * Games per page of a big list read from a snapshot. SQLite reads a page synchronously: 100 games are well
 * under a millisecond. PostgreSQL's reads are asynchronous and a page costs round trips, so its pages are
 * larger; each is still mapped and written in slices.
 */
const SQLITE_PAGE_SIZE = 100
const POSTGRES_PAGE_SIZE = 250

const backgroundCheckpoints = new WeakMap<Kysely<Db>, Checkpoints>()

/** The thread checkpointing this handle's SQLite file, if it has one (`checkpoints: 'background'`). */
export function checkpointsOf(db: Kysely<Db>): Checkpoints | undefined {
  return backgroundCheckpoints.get(db)
}

const snapshotOpeners = new WeakMap<Kysely<Db>, () => Promise<SnapshotLease>>()

/**
 * A snapshot to read from until the caller releases it (in a `finally`), so a big list read page by page,
 * with the event loop free between pages, is still one state of the database (issue 21 item 3):
 * - SQLite (a file): a transaction on a read-only connection of its own (a small pool), which WAL gives a
 *   snapshot that writers on the main connection never wait for; rolled back and handed back on release.
 * - PostgreSQL: a `repeatable read`, read-only transaction on a pooled connection, rolled back on release.
 * - In-memory SQLite, or `db` already a transaction: `db` itself, in one page.
 */
export function openSnapshot(db: Kysely<Db>): Promise<SnapshotLease> {
  const open = snapshotOpeners.get(db)
  return open ? open() : Promise.resolve({ snapshot: { db, pageSize: Infinity }, release: async () => {} })
}

const directReaders = new WeakMap<Kysely<Db>, DirectReader>()

/**
 * Runs a compiled read of a prepared query (`store/prepared.ts`) without Kysely's executor, when `db` is
 * the root handle (never a transaction's). Undefined means "use Kysely".
 * - SQLite: straight on the connection, unless a transaction is open on it. better-sqlite3 runs the read
 *   to completion synchronously, so nothing can begin a transaction midway and the read never sees
 *   another request's uncommitted rows.
 * - PostgreSQL: as a named prepared statement on a pooled connection, so each connection parses and
 *   plans the query once instead of on every request.
 */
export function readDirectly(
  db: Kysely<Db>,
  query: CompiledQuery,
): unknown[] | Promise<unknown[]> | undefined {
  return directReaders.get(db)?.(query)
}

const changeStamps = new WeakMap<Kysely<Db>, () => string | undefined>()

/**
 * A token that stays the same only while nothing in the database has changed: on SQLite, this
 * connection's `total_changes()` (every row it wrote, committed or not) with `data_version` (bumped by
 * every commit of any other connection, other processes included), read outside any transaction in
 * about a microsecond. Undefined on PostgreSQL, which has no such cheap check, and while a transaction is
 * open. A value read from the root handle with a token still current is what reading it again would give.
 */
export function changeStamp(db: Kysely<Db>): string | undefined {
  return changeStamps.get(db)?.()
}

function openPostgres(url: string, pageSize: number): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    // int8 (seq, count(*)) fits a JS number for any realistic table size.
    types: { getTypeParser: (oid, format) => (oid === 20 ? Number : pg.types.getTypeParser(oid, format)) },
  })
  // A pooled connection the server cuts while idle (restart, failover, admin termination) is dropped by
  // the pool and replaced on next use; unlistened, its 'error' event would crash the process.
  pool.on('error', (error) => process.emitWarning(`idle PostgreSQL connection lost: ${error.message}`))
  const db = new Kysely<Db>({ dialect: new PostgresDialect({ pool }) })
  // Rows come as arrays and are built by one compiled literal per statement, as on SQLite: pg would build
  // each row object by copying a template and setting every field by name.
  const statements = new Map<string, { name: string; toRow?: (row: unknown[]) => Record<string, unknown> }>()
  const namedReader =
    (run: (config: pg.QueryArrayConfig) => Promise<pg.QueryArrayResult>): DirectReader =>
    (query) => {
      if (query.query.kind !== 'SelectQueryNode') return undefined
      let statement = statements.get(query.sql)
      if (statement === undefined)
        statements.set(query.sql, (statement = { name: `refdesk_${statements.size}` }))
      const { name } = statement
      return run({ name, text: query.sql, values: [...query.parameters], rowMode: 'array' }).then((result) =>
        result.rows.map((statement.toRow ??= rowBuilder(result.fields.map((f) => f.name)))),
      )
    }
  directReaders.set(
    db,
    namedReader((config) => pool.query(config)),
  )
  // A snapshot is a pooled connection of its own in a `repeatable read`, read-only transaction, behind a
  // Kysely of its own whose prepared reads run as named statements with array rows, as above.
  snapshotOpeners.set(db, async () => {
    const client = await pool.connect()
    try {
      await client.query('begin isolation level repeatable read read only')
    } catch (error) {
      client.release(error as Error)
      throw error
    }
    const onePool = {
      connect: async () => ({
        query: client.query.bind(client),
        release: () => {},
      }),
      end: async () => {},
    }
    const snapshotDb = new Kysely<Db>({
      dialect: new PostgresDialect({ pool: onePool as unknown as pg.Pool }),
    })
    directReaders.set(
      snapshotDb,
      namedReader((config) => client.query(config)),
    )
    let released = false
    return {
      snapshot: { db: snapshotDb, pageSize },
      async release() {
        if (released) return
        released = true
        try {
          await client.query('rollback')
          client.release()
        } catch (error) {
          // A connection that cannot end its transaction is not handed back to the pool.
          client.release(error as Error)
        }
      },
    }
  })
  return handle(
    db,
    'postgres',
    (listener, onError) => {
      const off = onWork(listener)
      const remote = listenForWork(url, listener, onError)
      return {
        async close() {
          off()
          await remote.close()
        },
      }
    },
    (listener, onError) => {
      const off = onNotifications(listener)
      const remote = listenForNotifications(url, listener, onError)
      return {
        async close() {
          off()
          await remote.close()
        },
      }
    },
    () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    (error) => unreachable(error, serverOf(url)) ?? error,
  )
}

function handle(
  db: Kysely<Db>,
  dialect: DialectName,
  listen: Database['listenForWork'],
  listenNotifications: Database['listenForNotifications'],
  poolStats: Database['poolStats'],
  /** The error to report for one the driver threw (an unreachable server, named). */
  explain: (error: unknown) => unknown,
): Database {
  // Kysely re-opens a destroyed driver on the next query; a closed handle must stay closed (readiness).
  let closed = false
  return {
    db,
    dialect,
    async migrate() {
      const { error, results } = await new Migrator({ db, provider: migrationProvider }).migrateToLatest()
      if (error) {
        const failed = results?.find((r) => r.status === 'Error')?.migrationName
        // No migration named: none ran, the database itself failed (unreachable, refused the login).
        throw failed === undefined
          ? explain(error)
          : new Error(`migration ${failed} failed`, { cause: error })
      }
      return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName)
    },
    listenForWork: listen,
    listenForNotifications: listenNotifications,
    poolStats,
    async ping() {
      if (closed) throw new Error('database closed')
      try {
        await sql`select 1`.execute(db)
      } catch (error) {
        throw explain(error)
      }
    },
    async close() {
      if (closed) return
      closed = true
      await db.destroy()
    },
  }
}
