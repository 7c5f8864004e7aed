// openDatabase(url): one Kysely handle over embedded SQLite (`file:PATH`) or PostgreSQL (`postgres://…`).
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import SQLite from 'better-sqlite3'
import { CompiledQuery, Kysely, Migrator, PostgresDialect, SqliteDialect, SqliteDriver, sql } from 'kysely'
import type { DatabaseConnection, SqliteDatabase, SqliteStatement } from 'kysely'
import pg from 'pg'
import { isPostgresUrl, sqlitePath } from '../database-url.js'
import { migrationProvider } from './migrations/index.js'
import type { Db } from './tables.js'

export type DialectName = 'sqlite' | 'postgres'

export interface Database {
  readonly db: Kysely<Db>
  readonly dialect: DialectName
  migrate(): Promise<void>
  ping(): Promise<void>
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

export function openDatabase(url: string): Database {
  return isPostgresUrl(url) ? openPostgres(url) : openSqlite(sqlitePath(url))
}

function openSqlite(path: string): Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true })
  const sqlite = new SQLite(path)
  sqlite.pragma('journal_mode = WAL')
  sqlite.pragma('synchronous = FULL')
  sqlite.pragma('foreign_keys = ON')
  sqlite.pragma('busy_timeout = 5000')
  const statements = withStatementCache(sqlite)
  const db = new Kysely<Db>({ dialect: new ImmediateSqliteDialect(statements) })
  directReaders.set(db, (query) => {
    if (sqlite.inTransaction) return undefined
    const statement = statements.prepare(query.sql)
    return statement.reader ? statement.all(query.parameters) : undefined
  })
  return handle(db, 'sqlite')
}

type DirectReader = (query: CompiledQuery) => unknown[] | Promise<unknown[]> | undefined

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

const STATEMENT_CACHE_SIZE = 500

/**
 * Kysely's SQLite driver prepares every statement it runs, and preparing costs more than running a
 * primary-key lookup. The same SQL text gets the same prepared statement here (least recently used
 * evicted). Sharing is safe because better-sqlite3 runs each statement to completion synchronously.
 */
function withStatementCache(
  sqlite: SQLite.Database,
): SqliteDatabase & { prepare(text: string): SqliteStatement } {
  const statements = new Map<string, SqliteStatement>()
  return {
    close: () => sqlite.close(),
    prepare(text: string) {
      let statement = statements.get(text)
      if (statement) statements.delete(text)
      else {
        statement = rowMapping(sqlite.prepare(text))
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!)
      }
      statements.set(text, statement)
      return statement
    },
  }
}

/**
 * A reading statement that fetches rows as arrays and builds each object in JavaScript. better-sqlite3
 * builds row objects property by property through its native API, about 1 µs per row of a dozen
 * columns: a third of a game-detail read, and of an import's read of the 500 games it names.
 */
function rowMapping(statement: SQLite.Statement): SqliteStatement {
  if (!statement.reader) return statement
  const toRow = rowBuilder(statement.columns().map((c) => c.name))
  statement.raw(true)
  return {
    reader: true,
    all: (parameters) => (statement.all(parameters) as unknown[][]).map(toRow),
    run: (parameters) => statement.run(parameters),
    *iterate(parameters) {
      for (const row of statement.iterate(parameters) as IterableIterator<unknown[]>) yield toRow(row)
    },
  }
}

/**
 * One object literal for the statement's columns, compiled once, so every row gets the same shape at
 * the cost of a literal. Names are quoted with JSON.stringify; a repeated name keeps its last column,
 * as better-sqlite3's own objects do.
 */
function rowBuilder(names: readonly string[]): (row: unknown[]) => Record<string, unknown> {
  const fields = names.map((name, i) => `${JSON.stringify(name)}: row[${i}]`)
  return new Function('row', `return { ${fields.join(', ')} }`) as (row: unknown[]) => Record<string, unknown>
}

function openPostgres(url: string): Database {
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
  directReaders.set(db, (query) => {
    if (query.query.kind !== 'SelectQueryNode') return undefined
    let statement = statements.get(query.sql)
    if (statement === undefined)
      statements.set(query.sql, (statement = { name: `refdesk_${statements.size}` }))
    const { name } = statement
    return pool
      .query<unknown[]>({ name, text: query.sql, values: [...query.parameters], rowMode: 'array' })
      .then((result) => result.rows.map((statement.toRow ??= rowBuilder(result.fields.map((f) => f.name)))))
  })
  return handle(db, 'postgres')
}

function handle(db: Kysely<Db>, dialect: DialectName): Database {
  // Kysely re-opens a destroyed driver on the next query; a closed handle must stay closed (readiness).
  let closed = false
  return {
    db,
    dialect,
    async migrate() {
      const { error, results } = await new Migrator({ db, provider: migrationProvider }).migrateToLatest()
      if (error) {
        const failed = results?.find((r) => r.status === 'Error')?.migrationName
        throw new Error(`migration ${failed ?? '(unknown)'} failed`, { cause: error })
      }
    },
    async ping() {
      if (closed) throw new Error('database closed')
      await sql`select 1`.execute(db)
    },
    async close() {
      if (closed) return
      closed = true
      await db.destroy()
    },
  }
}
