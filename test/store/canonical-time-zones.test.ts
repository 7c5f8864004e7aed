// Issue 36, item 12, in the store: migration 0023 rewrites leagues' time zones stored as sent
// (`europe/berlin`) to their canonical names; canonical ones stay. On SQLite and PostgreSQL.
import { Migrator } from 'kysely'
import { afterAll, describe, expect, it } from 'vitest'
import { openDatabase, type Database } from '../../src/store/database.js'
import { migrationProvider } from '../../src/store/migrations/index.js'
import { testDatabaseUrl } from '../helpers/app.js'
import { seedLeague } from '../helpers/fixtures.js'

describe('migration 0023: canonical time zones', () => {
  let database: Database | undefined
  afterAll(async () => {
    await database?.close()
  })

  it('rewrites stored zone names to their canonical names, and leaves canonical ones', async () => {
    database = openDatabase(await testDatabaseUrl())
    await database.migrate()
    const { db } = database
    const migrator = new Migrator({ db, provider: migrationProvider })
    const names = (await migrator.getMigrations()).map((m) => m.name)
    expect((await migrator.migrateTo(names[names.indexOf('0023_canonical_time_zones') - 1]!)).error).toBe(
      undefined,
    )
    const sent = ['europe/berlin', 'AMERICA/NEW_YORK', 'Europe/Paris']
    const ids: string[] = []
    for (const zone of sent) {
      const id = await seedLeague(db)
      await db.updateTable('leagues').set({ time_zone: zone }).where('id', '=', id).execute()
      ids.push(id)
    }
    expect((await migrator.migrateToLatest()).error).toBeUndefined()
    const rows = await db.selectFrom('leagues').select(['id', 'time_zone']).where('id', 'in', ids).execute()
    expect(ids.map((id) => rows.find((r) => r.id === id)!.time_zone)).toEqual([
      'Europe/Berlin',
      'America/New_York',
      'Europe/Paris',
    ])
  })
})
