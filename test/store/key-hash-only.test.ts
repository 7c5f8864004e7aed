// Issue 21 items 7 and 11, in the store: migration 0012 drops the key prefix column and blanks the webhook
// secrets kept in Idempotency-Key answers, on SQLite and PostgreSQL, and its down brings the column back.
import { Migrator, sql } from 'kysely'
import { afterAll, describe, expect, it } from 'vitest'
import { openDatabase, type Database } from '../../src/store/database.js'
import { migrationProvider } from '../../src/store/migrations/index.js'
import { testDatabaseUrl } from '../helpers/app.js'

const SECRET = `sec_${'ab'.repeat(24)}`

async function columnsOf(database: Database, table: string): Promise<string[]> {
  const tables = await database.db.introspection.getTables()
  return tables.find((t) => t.name === table)!.columns.map((c) => c.name)
}

describe('migration 0012: only hashes and no kept secrets', () => {
  let database: Database | undefined
  afterAll(async () => {
    await database?.close()
  })

  it('drops api_keys.prefix and blanks kept registration secrets; down restores the column', async () => {
    database = openDatabase(await testDatabaseUrl())
    await database.migrate()
    const migrator = new Migrator({ db: database.db, provider: migrationProvider })
    const names = (await migrator.getMigrations()).map((m) => m.name)
    const before = names[names.indexOf('0012_key_hash_only') - 1]!
    expect((await migrator.migrateTo(before)).error).toBeUndefined()
    expect(await columnsOf(database, 'api_keys')).toContain('prefix')

    // A key and a kept registration answer as the versions before 0012 wrote them.
    const at = '2026-05-01T12:00:00.000Z'
    await sql`insert into users (id, source, external_id, email, name, created_at, updated_at)
              values ('u1', 'acme', null, 'a@b.invalid', 'a', ${at}, ${at})`.execute(database.db)
    await sql`insert into api_keys (id, source, name, key_hash, organizer_id, created_at, prefix)
              values ('k1', 'acme', 'n', ${'0'.repeat(64)}, 'u1', ${at}, '0123abcd')`.execute(database.db)
    const answer = `{"data":{"id":"w1","url":"https://x.example","events":[],"source":"acme","createdAt":"${at}","secret":"${SECRET}"}}`
    await sql`insert into idempotency_keys
                (api_key_id, idempotency_key, fingerprint, status, response_status, response_body, created_at)
              values ('k1', 'i1', 'f', 'completed', 201, ${answer}, ${at}),
                     ('k1', 'i2', 'f', 'completed', 409, '{"error":"position_taken"}', ${at})`.execute(
      database.db,
    )

    expect((await migrator.migrateToLatest()).error).toBeUndefined()
    expect(await columnsOf(database, 'api_keys')).not.toContain('prefix')
    const kept = await database.db
      .selectFrom('idempotency_keys')
      .select(['idempotency_key', 'response_body'])
      .orderBy('idempotency_key')
      .execute()
    expect(kept).toEqual([
      { idempotency_key: 'i1', response_body: answer.replace(`"${SECRET}"`, 'null') },
      { idempotency_key: 'i2', response_body: '{"error":"position_taken"}' },
    ])

    expect((await migrator.migrateTo(before)).error).toBeUndefined()
    expect(await columnsOf(database, 'api_keys')).toContain('prefix')
    expect((await migrator.migrateToLatest()).error).toBeUndefined()
  })
})
