import { randomBytes } from 'node:crypto'
import pg from 'pg'

// One id per `vitest run` (set by the global setup, inherited by the workers), so concurrent runs on one
// server never drop each other's databases.
export const runId = (): string => (process.env.REFDESK_TEST_RUN ??= String(process.pid))
export const templateDb = (): string => `refdesk_t${runId()}_template`
export const TEST_DB_PATTERN = (): string => `refdesk_t${runId()}\\_%`

export function databaseUrl(base: string, name: string): string {
  const url = new URL(base)
  url.pathname = `/${name}`
  return url.toString()
}

/** The maintenance connection: the configured database itself (it is never dropped). */
export const adminUrl = (base: string): string => base

/** A fresh database for one test file, cloned from the migrated template. */
export async function cloneTemplate(base: string): Promise<string> {
  const name = `refdesk_t${runId()}_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: adminUrl(base) })
  await admin.connect()
  try {
    await admin.query(`create database ${name} template ${templateDb()}`)
  } finally {
    await admin.end()
  }
  return databaseUrl(base, name)
}
