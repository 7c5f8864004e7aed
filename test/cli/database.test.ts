// Which database a command opens: only serve and migrate create a SQLite file, a URL of another kind of
// database is refused rather than taken for a file name, and an unreachable PostgreSQL is named.
import { existsSync, readdirSync, statSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runBin } from '../helpers/cli.js'

describe('the database a command opens', () => {
  let dir: string
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'refdesk-db-'))
  })
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('migrate refuses a URL of another database, names only its scheme, and creates nothing', async () => {
    const res = await runBin(['migrate', '--database', 'mysql://root:hunter2@db/x'], {}, dir)
    expect(res.code).toBe(1)
    expect(res.stderr).toBe(
      'refdesk: unsupported database URL "mysql:…": use file:PATH or a plain path (SQLite), or postgres://… or postgresql://… (PostgreSQL)\n',
    )
    expect(readdirSync(dir)).toEqual([])
  })

  it.each([
    [['keys', 'list']],
    [['keys', 'issue', '--source', 'acme']],
    [['app', 'complete', 'game-1']],
    [['worker']],
  ])('%j refuses to create a database and says which file it looked for', async (args) => {
    const path = join(dir, 'elsewhere', 'refdesk.sqlite')
    const res = await runBin([...args, '--database', `file:${path}`])
    expect(res.code).toBe(1)
    expect(res.stderr).toContain(`refdesk: no database at ${path}: \`refdesk migrate\``)
    expect(existsSync(join(dir, 'elsewhere'))).toBe(false)
  })

  it('run from another directory without --database, keys names ./data/refdesk.sqlite there', async () => {
    const res = await runBin(['keys', 'list'], { DATABASE_URL: undefined }, dir)
    expect(res.code).toBe(1)
    expect(res.stderr).toContain(`no database at ${join(dir, 'data', 'refdesk.sqlite')}`)
    expect(readdirSync(dir)).toEqual([])
  })

  it('migrate creates the directory 0700 and the file 0600; keys then use it', async () => {
    const path = join(dir, 'new', 'refdesk.sqlite')
    expect((await runBin(['migrate', '--database', `file:${path}`], {}, dir)).code).toBe(0)
    expect(statSync(join(dir, 'new')).mode & 0o777).toBe(0o700)
    expect(statSync(path).mode & 0o777).toBe(0o600)
    expect(await runBin(['keys', 'list', '--database', `file:${path}`])).toMatchObject({
      code: 0,
      stderr: '',
    })
  })

  it.each([
    ['postgres://refdesk@127.0.0.1:1/refdesk', '127.0.0.1:1'],
    ['postgresql://refdesk:hunter2@localhost:1/refdesk', 'localhost:1'],
  ])('an unreachable PostgreSQL (%s) is named with host and port', async (url, server) => {
    const res = await runBin(['migrate', '--database', url])
    expect(res.code).toBe(1)
    expect(res.stderr.split('\n')[0]).toBe(`refdesk: cannot reach PostgreSQL at ${server} (ECONNREFUSED)`)
    expect(res.stderr).not.toContain('hunter2')
  })
})
