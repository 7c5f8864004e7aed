import { describe, expect, it } from 'vitest'
import { openRuntime } from '../../src/app.js'
import { describeDatabase } from '../../src/config.js'
import { migrationProvider } from '../../src/store/migrations/index.js'
import { isPostgres } from '../helpers/app.js'
import { runBin, useCliDatabase } from '../helpers/cli.js'

describe('refdesk migrate', () => {
  const t = useCliDatabase({ existing: false })

  it('says which migrations it applied; repeating applies none and says so', async () => {
    const database = describeDatabase(t.url)
    const all = Object.keys(await migrationProvider.getMigrations()).sort()
    // A PostgreSQL test database is a clone of a migrated template: nothing is left to apply.
    const first = isPostgres()
      ? `${database} was already up to date\n`
      : `${all.map((name) => `applied ${name}\n`).join('')}${database} is up to date (${all.length} migrations applied)\n`
    expect(await t.run('migrate')).toEqual({ code: 0, stdout: first, stderr: '' })
    expect(await t.run('migrate')).toEqual({
      code: 0,
      stdout: `${database} was already up to date\n`,
      stderr: '',
    })
    const runtime = await openRuntime(t.url, { migrate: false })
    try {
      const tables = ['users', 'api_keys', 'leagues', 'games', 'positions', 'claims', 'payments'] as const
      for (const table of tables) {
        await expect(runtime.deps.db.selectFrom(table).selectAll().execute()).resolves.toBeInstanceOf(Array)
      }
    } finally {
      await runtime.close()
    }
  })

  it('takes the database from DATABASE_URL when --database is absent', async () => {
    const res = await runBin(['migrate'], { DATABASE_URL: t.url })
    expect(res).toMatchObject({ code: 0, stderr: '' })
    expect(res.stdout).toContain(describeDatabase(t.url))
  })

  it('masks a PostgreSQL password when it prints the database', () => {
    expect(describeDatabase('postgres://refdesk:hunter2@db.internal:5432/refdesk')).toBe(
      'postgres://refdesk:***@db.internal:5432/refdesk',
    )
    expect(describeDatabase('file:/var/lib/refdesk.sqlite')).toBe('file:/var/lib/refdesk.sqlite')
  })
})
