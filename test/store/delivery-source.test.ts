// Issue 21, item 1, in the store: migration 0016 gives every delivery the source that owns its endpoint,
// the deliveries written before it included, on SQLite and PostgreSQL; its down drops the column again.
import { Migrator, sql } from 'kysely'
import { afterAll, describe, expect, it } from 'vitest'
import { openDatabase, type Database } from '../../src/store/database.js'
import { migrationProvider } from '../../src/store/migrations/index.js'
import { testDatabaseUrl } from '../helpers/app.js'

describe('migration 0016: the source of each delivery', () => {
  let database: Database | undefined
  afterAll(async () => {
    await database?.close()
  })

  it('fills the source of existing deliveries from their endpoints; down drops it', async () => {
    database = openDatabase(await testDatabaseUrl())
    await database.migrate()
    const migrator = new Migrator({ db: database.db, provider: migrationProvider })
    const names = (await migrator.getMigrations()).map((m) => m.name)
    const before = names[names.indexOf('0016_delivery_source') - 1]!
    expect((await migrator.migrateTo(before)).error).toBeUndefined()

    const at = '2026-05-01T12:00:00.000Z'
    for (const [endpoint, source] of [
      ['e1', 'acme'],
      ['e2', 'zenith'],
    ])
      await sql`insert into webhook_endpoints (id, source, key_id, url, events, secret, created_at)
                values (${endpoint}, ${source}, 'k1', 'https://x.example', '[]', 's', ${at})`.execute(
        database.db,
      )
    await sql`insert into webhook_deliveries (id, endpoint_id, event_id, event, status, attempts, created_at)
              values ('d1', 'e1', 'v1', 'game.created', 'pending', 0, ${at}),
                     ('d2', 'e2', 'v1', 'game.created', 'failed', 3, ${at}),
                     ('d3', 'e1', 'v2', 'game.created', 'succeeded', 1, ${at})`.execute(database.db)

    expect((await migrator.migrateToLatest()).error).toBeUndefined()
    const rows = await database.db
      .selectFrom('webhook_deliveries')
      .select(['id', 'source'])
      .orderBy('id')
      .execute()
    expect(rows).toEqual([
      { id: 'd1', source: 'acme' },
      { id: 'd2', source: 'zenith' },
      { id: 'd3', source: 'acme' },
    ])

    expect((await migrator.migrateTo(before)).error).toBeUndefined()
    const tables = await database.db.introspection.getTables()
    const columns = tables.find((t) => t.name === 'webhook_deliveries')!.columns.map((c) => c.name)
    expect(columns).not.toContain('source')
    expect((await migrator.migrateToLatest()).error).toBeUndefined()
  })
})
