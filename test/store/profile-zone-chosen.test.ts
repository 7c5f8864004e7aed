// Issue 22, item 5, in the store: migration 0017 records whether a profile's zone was chosen. A zone other
// than UTC was; a stored UTC counts as the old default. On SQLite and PostgreSQL; its down drops the column.
import { Migrator, sql } from 'kysely'
import { afterAll, describe, expect, it } from 'vitest'
import { openDatabase, type Database } from '../../src/store/database.js'
import { migrationProvider } from '../../src/store/migrations/index.js'
import { testDatabaseUrl } from '../helpers/app.js'

describe('migration 0017: a chosen time zone', () => {
  let database: Database | undefined
  afterAll(async () => {
    await database?.close()
  })

  it('marks the non-UTC zones of existing profiles chosen; down drops the column', async () => {
    database = openDatabase(await testDatabaseUrl())
    await database.migrate()
    const migrator = new Migrator({ db: database.db, provider: migrationProvider })
    const names = (await migrator.getMigrations()).map((m) => m.name)
    const before = names[names.indexOf('0017_profile_zone_chosen') - 1]!
    expect((await migrator.migrateTo(before)).error).toBeUndefined()

    const at = '2026-05-01T12:00:00.000Z'
    await sql`insert into profiles (email, time_zone, created_at, updated_at)
              values ('la@zone.test', 'America/Los_Angeles', ${at}, ${at}),
                     ('utc@zone.test', 'UTC', ${at}, ${at})`.execute(database.db)

    expect((await migrator.migrateToLatest()).error).toBeUndefined()
    const rows = await database.db
      .selectFrom('profiles')
      .select(['email', 'time_zone_chosen_at'])
      .where('email', 'like', '%@zone.test')
      .orderBy('email')
      .execute()
    expect(rows).toEqual([
      { email: 'la@zone.test', time_zone_chosen_at: at },
      { email: 'utc@zone.test', time_zone_chosen_at: null },
    ])

    expect((await migrator.migrateTo(before)).error).toBeUndefined()
    const tables = await database.db.introspection.getTables()
    const columns = tables.find((t) => t.name === 'profiles')!.columns.map((c) => c.name)
    expect(columns).not.toContain('time_zone_chosen_at')
    expect((await migrator.migrateToLatest()).error).toBeUndefined()
  })
})
