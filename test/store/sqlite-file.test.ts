// The SQLite file holds webhook signing secrets and officials' emails: what RefDesk creates is readable
// by its own user alone. And a database URL that names no database RefDesk can open is refused.
import { chmodSync, existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openDatabase } from '../../src/store/database.js'
import { unsupportedDatabaseUrl } from '../../src/store/database-url.js'

const mode = (path: string) => statSync(path).mode & 0o777

describe('the SQLite file', () => {
  let dir: string
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'refdesk-file-'))
  })
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('is created 0600 in a directory created 0700, and its -wal and -shm are 0600', async () => {
    const path = join(dir, 'new', 'nested', 'refdesk.sqlite')
    // The usual umask, which leaves files 0644 and directories 0755 unless the creator says otherwise.
    const umask = process.umask(0o022)
    const database = openDatabase(`file:${path}`)
    try {
      await database.migrate()
      // Open, written and not yet checkpointed: both side files exist.
      expect(existsSync(`${path}-wal`) && existsSync(`${path}-shm`)).toBe(true)
      expect(mode(join(dir, 'new'))).toBe(0o700)
      expect(mode(join(dir, 'new', 'nested'))).toBe(0o700)
      for (const file of [path, `${path}-wal`, `${path}-shm`]) expect(mode(file), file).toBe(0o600)
    } finally {
      await database.close()
      process.umask(umask)
    }
  })

  it('keeps the mode an operator gave an existing file and directory', async () => {
    const shared = join(dir, 'shared')
    mkdirSync(shared, { mode: 0o750 })
    chmodSync(shared, 0o750)
    const path = join(shared, 'refdesk.sqlite')
    writeFileSync(path, '')
    chmodSync(path, 0o640)
    const database = openDatabase(`file:${path}`)
    try {
      await database.migrate()
      expect([mode(shared), mode(path), mode(`${path}-wal`)]).toEqual([0o750, 0o640, 0o640])
    } finally {
      await database.close()
    }
  })

  it('is not created when creation is off: the error names the path, and nothing is left behind', () => {
    const path = join(dir, 'elsewhere', 'refdesk.sqlite')
    expect(() => openDatabase(`file:${path}`, { create: false })).toThrow(`no database at ${path}`)
    expect(existsSync(join(dir, 'elsewhere'))).toBe(false)
  })
})

describe('database URLs', () => {
  it.each(['mysql://user:secret@db/x', 'sqlite:///var/lib/x.sqlite', 'http://x', 'jdbc:postgresql://h/x'])(
    'refuses %s naming only its scheme',
    (url) => {
      const reason = unsupportedDatabaseUrl(url)
      expect(reason).toMatch(/^unsupported database URL "[a-z]+:…"/)
      expect(reason).not.toContain('secret')
      expect(() => openDatabase(url)).toThrow(reason!)
    },
  )

  it.each(['file:/var/lib/x.sqlite', 'file:rel.sqlite', 'data/x.sqlite', '/abs/x.sqlite', 'C:\\x.sqlite'])(
    'takes %s for SQLite',
    (url) => expect(unsupportedDatabaseUrl(url)).toBeNull(),
  )

  it.each(['postgres://u@h/x', 'postgresql://u@h:5433/x'])('takes %s for PostgreSQL', (url) =>
    expect(unsupportedDatabaseUrl(url)).toBeNull(),
  )

  it.each([
    ['postgres://refdesk@127.0.0.1:1/x', '127.0.0.1:1'],
    ['postgres://refdesk@localhost:1/x', 'localhost:1'],
  ])('an unreachable PostgreSQL (%s) is named with host and port', async (url, server) => {
    const database = openDatabase(url)
    try {
      await expect(database.migrate()).rejects.toThrow(`cannot reach PostgreSQL at ${server} (ECONNREFUSED)`)
      await expect(database.ping()).rejects.toThrow(`cannot reach PostgreSQL at ${server} (ECONNREFUSED)`)
    } finally {
      await database.close()
    }
  })
})
