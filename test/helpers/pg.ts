import { randomBytes } from 'node:crypto'
import pg from 'pg'

export const TEMPLATE_DB = 'refdesk_template'

export function databaseUrl(base: string, name: string): string {
  const url = new URL(base)
  url.pathname = `/${name}`
  return url.toString()
}

/** The maintenance connection: the configured database itself (it is never dropped). */
export const adminUrl = (base: string): string => base

/** A fresh database for one test file, cloned from the migrated template. */
export async function cloneTemplate(base: string): Promise<string> {
  const name = `refdesk_t_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: adminUrl(base) })
  await admin.connect()
  try {
    await admin.query(`create database ${name} template ${TEMPLATE_DB}`)
  } finally {
    await admin.end()
  }
  return databaseUrl(base, name)
}
