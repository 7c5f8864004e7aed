// How SQLite statements run fast: one prepared statement per SQL text, and rows built from arrays by one
// compiled object literal per statement (PostgreSQL's named reads build their rows the same way).
import type SQLite from 'better-sqlite3'
import type { SqliteDatabase, SqliteStatement } from 'kysely'

const STATEMENT_CACHE_SIZE = 500

/**
 * Kysely's SQLite driver prepares every statement it runs, and preparing costs more than running a
 * primary-key lookup. The same SQL text gets the same prepared statement here (least recently used
 * evicted). Sharing is safe because better-sqlite3 runs each statement to completion synchronously.
 */
export function withStatementCache(
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
export function rowBuilder(names: readonly string[]): (row: unknown[]) => Record<string, unknown> {
  const fields = names.map((name, i) => `${JSON.stringify(name)}: row[${i}]`)
  return new Function('row', `return { ${fields.join(', ')} }`) as (row: unknown[]) => Record<string, unknown>
}
