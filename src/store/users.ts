import type { Kysely } from 'kysely'
import { prepared } from './prepared.js'
import type { Db, UserRow } from './tables.js'

const userById = prepared((db, p: { id: string }) =>
  db.selectFrom('users').selectAll().where('id', '=', p.id),
)

export function findUser(db: Kysely<Db>, id: string): Promise<UserRow | undefined> {
  return userById.takeFirst(db, { id })
}

export function findUserByExternalId(
  db: Kysely<Db>,
  source: string,
  externalId: string,
): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('source', '=', source)
    .where('external_id', '=', externalId)
    .executeTakeFirst()
}

export function findUserByEmail(db: Kysely<Db>, source: string, email: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('source', '=', source)
    .where('email', '=', email)
    .orderBy('seq')
    .executeTakeFirst()
}

export async function insertUser(db: Kysely<Db>, row: Omit<UserRow, 'seq'>): Promise<UserRow> {
  return db.insertInto('users').values(row).returningAll().executeTakeFirstOrThrow()
}

/**
 * Insert, or on an existing (source, externalId) update only the fields given. Race-safe: the loser of
 * two concurrent first inserts updates the winner's row.
 */
export async function upsertUserByExternalId(
  db: Kysely<Db>,
  row: Omit<UserRow, 'seq'>,
  update: Partial<Pick<UserRow, 'email' | 'name'>>,
): Promise<UserRow> {
  return db
    .insertInto('users')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['source', 'external_id']).doUpdateSet({ ...update, updated_at: row.updated_at }),
    )
    .returningAll()
    .executeTakeFirstOrThrow()
}
