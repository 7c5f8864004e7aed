// Multi-row INSERTs for batches: an import's 500 games, their positions, events and deliveries, the
// dispatcher's recorded attempts, a reschedule's notifications. Kysely's builder makes an operation node per
// value and compiles them all on every call, which for 500 rows costs about 0.7 ms, more than SQLite spends
// running the statement. On SQLite the text is one placeholder list per row and the values go as one flat
// array. On PostgreSQL the rows go as one JSON parameter that `json_populate_recordset` reads with the
// table's own column types: 500 rows of 13 columns as 6,500 parameters cost the driver and the server's
// parser more than the insert itself. The table and its columns are checked against the table types, so a
// misspelt column does not compile.
import { CompiledQuery, type Insertable, type Kysely } from 'kysely'
import { isPostgres } from './dialect.js'
import type { Db } from './tables.js'

type Value = string | number | null

// Bounded so one statement stays under SQLite's (32,766) and PostgreSQL's (65,535) bind-parameter limits.
const ROWS_PER_STATEMENT = 500

/** Inserts `rows` into `table`, `columns` taken from each row in that order (a missing value is null). */
export async function insertRows<T extends keyof Db & string, C extends keyof Insertable<Db[T]> & string>(
  db: Kysely<Db>,
  table: T,
  columns: readonly C[],
  rows: readonly Pick<Insertable<Db[T]>, C>[],
): Promise<void> {
  const list = columns.map((c) => `"${c}"`).join(', ')
  const text = isPostgres(db)
    ? `insert into "${table}" (${list}) select ${list} from json_populate_recordset(null::"${table}", $1)`
    : undefined
  // SQLite's anonymous placeholders make every row's list the same text.
  const sqliteRow = `(${columns.map(() => '?').join(', ')})`
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
    const chunk = rows.slice(start, start + ROWS_PER_STATEMENT)
    if (text !== undefined) {
      const records = chunk.map((row) => Object.fromEntries(columns.map((c) => [c, row[c] ?? null])))
      await db.executeQuery(CompiledQuery.raw(text, [JSON.stringify(records)]))
      continue
    }
    const values: Value[] = []
    for (const row of chunk)
      for (const column of columns) values.push((row[column] as Value | undefined) ?? null)
    await db.executeQuery(
      CompiledQuery.raw(
        `insert into "${table}" (${list}) values ${chunk.map(() => sqliteRow).join(', ')}`,
        values,
      ),
    )
  }
}
