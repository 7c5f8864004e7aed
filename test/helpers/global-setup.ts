// PostgreSQL runs (TEST_DATABASE_URL set) get one migrated template database; each test file clones it.
// The compiled bin is built once for the CLI tests.
import { execFileSync } from 'node:child_process'
import pg from 'pg'
import { openDatabase } from '../../src/store/database.js'
import { TEST_DB_PATTERN, adminUrl, databaseUrl, runId, templateDb } from './pg.js'

export async function setup(): Promise<() => Promise<void>> {
  buildBin()
  runId()
  const base = process.env.TEST_DATABASE_URL
  if (!base) return async () => {}
  const admin = new pg.Client({ connectionString: adminUrl(base) })
  await admin.connect()
  await admin.query(`create database ${templateDb()}`)
  const template = openDatabase(databaseUrl(base, templateDb()))
  await template.migrate()
  await template.close()
  return async () => {
    await dropTestDatabases(admin)
    await admin.end()
  }
}

// Type errors are `npm run typecheck`'s job; tsc still emits, so the CLI tests can run the bin.
function buildBin(): void {
  try {
    execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { stdio: 'pipe' })
  } catch {
    // emitted anyway (noEmitOnError is off)
  }
}

async function dropTestDatabases(admin: pg.Client): Promise<void> {
  const { rows } = await admin.query<{ datname: string }>(
    `select datname from pg_database where datname like $1`,
    [TEST_DB_PATTERN()],
  )
  for (const { datname } of rows) await admin.query(`drop database if exists "${datname}" with (force)`)
}
