import pg from 'pg'
import { expect, it } from 'vitest'
import { openDatabase } from '../../src/store/database.js'
import { testDatabaseUrl } from '../helpers/app.js'

it('survives the server cutting its idle connections, and reconnects', async () => {
  const url = await testDatabaseUrl()
  const database = openDatabase(url)
  await database.ping()
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL })
  await admin.connect()
  const { rows } = await admin.query<{ n: number }>(
    'select count(pg_terminate_backend(pid))::int as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
    [new URL(url).pathname.slice(1)],
  )
  await admin.end()
  expect(rows[0]!.n).toBeGreaterThan(0)
  // The idle client hears of its termination asynchronously; the next query must still succeed.
  await new Promise((resolve) => setTimeout(resolve, 200))
  await expect(database.ping()).resolves.toBeUndefined()
  await database.close()
})
