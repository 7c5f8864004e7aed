// Multi-row INSERTs for batches: an import's 500 games, their positions, events and deliveries, and the
// dispatcher's recorded attempts. Kysely's builder makes an operation node per value and compiles them
// all on every call, which for 500 rows costs about 0.7 ms, more than SQLite spends running the
// statement. Here the text is one placeholder list per row and the values go as one flat array.
import { CompiledQuery, type Kysely } from 'kysely'
import { isPostgres } from './dialect.js'
import type { Db } from './tables.js'

type Value = string | number | null

// Bounded so one statement stays under SQLite's (32,766) and PostgreSQL's (65,535) bind-parameter limits.
const ROWS_PER_STATEMENT = 500

/**
 * Inserts `rows` into `table`, `columns` taken from each row in that order. `tail` follows the VALUES
 * list (an ON CONFLICT clause). Table, column names and tail are the caller's constants, never input.
 */
export async function insertRows<C extends string>(
  db: Kysely<Db>,
  table: keyof Db & string,
  columns: readonly C[],
  rows: readonly { readonly [K in C]?: Value }[],
  tail = '',
): Promise<void> {
  const postgres = isPostgres(db)
  const head = `insert into "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) values `
  // SQLite's anonymous placeholders make every row's list the same text.
  const sqliteRow = `(${columns.map(() => '?').join(', ')})`
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
    const chunk = rows.slice(start, start + ROWS_PER_STATEMENT)
    const values: Value[] = []
    for (const row of chunk) for (const column of columns) values.push(row[column] ?? null)
    const lists = postgres
      ? chunk.map((_, r) => `(${columns.map((_, c) => `$${r * columns.length + c + 1}`).join(', ')})`)
      : chunk.map(() => sqliteRow)
    await db.executeQuery(CompiledQuery.raw(`${head}${lists.join(', ')}${tail}`, values))
  }
}
