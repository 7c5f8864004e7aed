import { describe, expect, it } from 'vitest'
import { openRuntime } from '../../src/app.js'
import { describeDatabase } from '../../src/cli/output.js'
import { runBin, useCliDatabase } from '../helpers/cli.js'

describe('refdesk migrate', () => {
  const t = useCliDatabase()

  it('applies the migrations and says so on one line; repeating is harmless', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await t.run('migrate')
      expect(res).toMatchObject({ code: 0, stderr: '' })
      expect(res.stdout).toBe(`migrations applied: ${describeDatabase(t.url)} is up to date\n`)
    }
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
