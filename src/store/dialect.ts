import { PostgresAdapter, type Kysely } from 'kysely'

export function isPostgres(db: Pick<Kysely<unknown>, 'getExecutor'>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter
}
