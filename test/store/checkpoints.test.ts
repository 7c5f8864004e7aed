// A long-running process moves SQLite's checkpoints out of its commits, into a thread of its own; one-shot
// commands keep SQLite's default. Either way the committed pages reach the database file.
import { execFile } from 'node:child_process'
import { statSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql, type Kysely } from 'kysely'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { checkpointsOf, openDatabase } from '../../src/store/database.js'
import type { Db } from '../../src/store/tables.js'

/** The built store (global-setup builds it), as a script of its own would load it. */
const DATABASE_MODULE = new URL('../../dist/store/database.js', import.meta.url).href

const autocheckpoint = async (db: Kysely<Db>) =>
  (await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(db)).rows[0]
    ?.wal_autocheckpoint

/** About 200 pages of committed rows, all in the write-ahead log until something checkpoints it. */
async function writePages(db: Kysely<Db>): Promise<void> {
  await sql`create table filler (body text not null)`.execute(db)
  await sql`with recursive n (i) as (select 1 union all select i + 1 from n where i < 200)
    insert into filler (body) select printf('%.4000c', 'x') from n`.execute(db)
}

describe('SQLite checkpoints', () => {
  let dir: string
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'refdesk-checkpoints-'))
  })
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('in the background: no commit checkpoints, the thread does, unasked', async () => {
    const path = join(dir, 'refdesk.sqlite')
    const database = openDatabase(`file:${path}`, { checkpoints: 'background' })
    try {
      await database.migrate()
      expect(await autocheckpoint(database.db)).toBe(0)
      const before = statSync(path).size
      await writePages(database.db)
      await vi.waitFor(() => expect(statSync(path).size).toBeGreaterThan(before + 150 * 4096), {
        timeout: 5000,
        interval: 20,
      })
      const { log, checkpointed } = await checkpointsOf(database.db)!.now()
      expect(log).toBeGreaterThan(0)
      expect(checkpointed).toBe(log)
    } finally {
      await database.close()
    }
  })

  it('closing waits for the thread, even in a script with nothing else to keep it running', async () => {
    // The thread has answered once: it is running when the database closes.
    const script = `import { checkpointsOf, openDatabase } from '${DATABASE_MODULE}'
      const database = openDatabase(process.env.DATABASE_URL, { checkpoints: 'background' })
      await database.migrate()
      await checkpointsOf(database.db).now()
      await database.close()
      console.log('closed')`
    const file = join(dir, 'close.mjs')
    await writeFile(file, script)
    const { code, stdout } = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      const child = execFile(
        process.execPath,
        [file],
        { env: { ...process.env, DATABASE_URL: `file:${join(dir, 'refdesk.sqlite')}` } },
        (_error, out) => resolve({ code: child.exitCode, stdout: out }),
      )
    })
    expect({ code, stdout }).toEqual({ code: 0, stdout: 'closed\n' })
  })

  it('inline (one-shot commands): SQLite’s own threshold, no thread', async () => {
    const database = openDatabase(`file:${join(dir, 'refdesk.sqlite')}`)
    try {
      await database.migrate()
      expect(await autocheckpoint(database.db)).toBe(1000)
      expect(checkpointsOf(database.db)).toBeUndefined()
    } finally {
      await database.close()
    }
  })
})
