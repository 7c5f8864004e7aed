import { createHash } from 'node:crypto'
import { describe, expect, it, vi } from 'vitest'
import { uniqueSource } from '../helpers/app.js'
import { lastLine, useCliDatabase } from '../helpers/cli.js'
import { seedLeague } from '../helpers/fixtures.js'

describe('refdesk keys', () => {
  const t = useCliDatabase()

  async function issue(...extra: string[]) {
    const source = uniqueSource('cli')
    const res = await t.run('keys', 'issue', '--source', source, ...extra)
    expect(res.code).toBe(0)
    const id = /^id: (\S+)$/m.exec(res.stdout)?.[1]
    return { res, source, id: id!, key: lastLine(res.stdout) }
  }

  it('issues a key: id and source first, the plaintext key alone on the last line, and it works', async () => {
    const { res, source, id, key } = await issue(
      '--name',
      'Acme prod',
      '--organizer-email',
      'Ops@Acme.Example',
    )
    expect(key).toMatch(/^key_[0-9a-f]{48}$/)
    expect(res.stdout).toContain(`source: ${source}\n`)
    expect(res.stdout).toContain('name: Acme prod\n')
    expect(
      res.stdout
        .trimEnd()
        .split('\n')
        .filter((l) => l.includes(key)),
    ).toEqual([key])

    const api = await t.api(key)
    const created = await api.post('/leagues', { name: 'Via CLI key' })
    expect(created).toMatchObject({ status: 201, body: { data: { source } } })
    expect((await api.get('/leagues')).body.data).toHaveLength(1)

    const listed = JSON.parse((await t.run('keys', 'list')).stdout)
    expect(listed.find((k: { id: string }) => k.id === id)).toMatchObject({
      source,
      name: 'Acme prod',
      revokedAt: null,
    })
  })

  it('issues with an organizer external id', async () => {
    const { key } = await issue('--organizer-external-id', 'org-1')
    expect(key).toMatch(/^key_[0-9a-f]{48}$/)
  })

  it('lists keys as JSON without the key or its hash', async () => {
    const { id, key, source } = await issue()
    const res = await t.run('keys', 'list')
    expect(res.code).toBe(0)
    const keys = JSON.parse(res.stdout)
    expect(Array.isArray(keys)).toBe(true)
    expect(keys.find((k: { id: string }) => k.id === id)).toEqual({
      id,
      source,
      name: '',
      organizerId: expect.any(String),
      createdAt: expect.stringMatching(/Z$/),
      lastUsedAt: null,
      revokedAt: null,
      grantedLeagueIds: [],
    })
    expect(res.stdout).not.toContain(key)
    expect(res.stdout).not.toContain(createHash('sha256').update(key).digest('hex'))
    expect(res.stdout).not.toMatch(/hash/i)
  })

  // Issue 21 item 11: the spec says only a hash is stored; keys are told apart by id and name.
  it('stores only the key’s hash: no column holds any 8 characters of the key', async () => {
    const { id, key } = await issue('--name', 'Acme prod')
    const { deps } = await t.runtime()
    const row = await deps.db
      .selectFrom('api_keys')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
    const stored = Object.values(row).map(String).join(' ')
    const hex = key.slice('key_'.length)
    for (let i = 0; i + 8 <= hex.length; i++) expect(stored).not.toContain(hex.slice(i, i + 8))
    expect(row.key_hash).toBe(createHash('sha256').update(key).digest('hex'))
    const listed = JSON.parse((await t.run('keys', 'list')).stdout).find((k: { id: string }) => k.id === id)
    expect(listed).toMatchObject({ id, name: 'Acme prod' })
    expect(Object.keys(listed)).not.toContain('prefix')
  })

  it('shows when a key was last used, written at most once a minute per key', async () => {
    const { id, key } = await issue()
    const api = await t.api(key)
    const lastUsed = async () =>
      JSON.parse((await t.run('keys', 'list')).stdout).find((k: { id: string }) => k.id === id).lastUsedAt
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-05-01T12:00:00.000Z') })
    try {
      await api.get('/leagues')
      expect(await lastUsed()).toBe('2026-05-01T12:00:00.000Z')
      // Within the minute: no write.
      vi.setSystemTime(new Date('2026-05-01T12:00:59.000Z'))
      await api.get('/leagues')
      expect(await lastUsed()).toBe('2026-05-01T12:00:00.000Z')
      vi.setSystemTime(new Date('2026-05-01T12:01:00.000Z'))
      await api.get('/leagues')
      expect(await lastUsed()).toBe('2026-05-01T12:01:00.000Z')
      // A refused request is no use of the key.
      await (await t.api(`${key.slice(0, -1)}x`)).get('/leagues')
      expect(await lastUsed()).toBe('2026-05-01T12:01:00.000Z')
    } finally {
      vi.useRealTimers()
    }
  })

  it('revokes a key: later requests get 401', async () => {
    const { id, key } = await issue()
    const api = await t.api(key)
    expect((await api.get('/leagues')).status).toBe(200)
    const res = await t.run('keys', 'revoke', id)
    expect(res.code).toBe(0)
    expect(res.stdout).toContain(id)
    expect(await api.get('/leagues')).toMatchObject({ status: 401, body: { error: 'unauthorized' } })
    const listed = JSON.parse((await t.run('keys', 'list')).stdout)
    expect(listed.find((k: { id: string }) => k.id === id).revokedAt).toMatch(/Z$/)
  })

  it('grants and ungrants a league of another source', async () => {
    const { id, key } = await issue()
    const leagueId = await seedLeague((await t.runtime()).deps.db, { source: uniqueSource('other') })
    const api = await t.api(key)
    expect((await api.get(`/leagues/${leagueId}`)).status).toBe(404)

    expect((await t.run('keys', 'grant', id, leagueId)).code).toBe(0)
    expect((await api.get(`/leagues/${leagueId}`)).status).toBe(200)
    expect((await api.get('/leagues')).body.data.map((l: { id: string }) => l.id)).toEqual([leagueId])
    const listed = JSON.parse((await t.run('keys', 'list')).stdout)
    expect(listed.find((k: { id: string }) => k.id === id).grantedLeagueIds).toEqual([leagueId])

    expect((await t.run('keys', 'ungrant', id, leagueId)).code).toBe(0)
    expect(await api.get(`/leagues/${leagueId}`)).toMatchObject({
      status: 404,
      body: { error: 'league_not_found' },
    })
  })

  it.each([
    [['keys', 'issue', '--source', 'app'], 'source "app" is reserved'],
    [['keys', 'issue', '--source', 'not ok!'], 'source must be'],
    [['keys', 'issue'], "required option '--source <source>' not specified"],
    [['keys', 'revoke', 'nope'], 'no key nope'],
    [['keys', 'grant', 'nope', 'nope'], 'no key nope'],
    [['keys', 'ungrant', 'nope', 'nope'], 'no key nope'],
  ])('%j fails with a message on stderr and exit 1', async (args, message) => {
    const res = await t.run(...args)
    expect(res.code).toBe(1)
    expect(res.stdout).toBe('')
    expect(res.stderr).toContain(message)
  })

  it('refuses to grant an unknown league or ungrant a missing grant', async () => {
    const { id } = await issue()
    const grant = await t.run('keys', 'grant', id, 'nope')
    expect(grant).toMatchObject({ code: 1, stdout: '' })
    expect(grant.stderr).toContain('no league nope')
    const ungrant = await t.run('keys', 'ungrant', id, 'nope')
    expect(ungrant).toMatchObject({ code: 1, stdout: '' })
    expect(ungrant.stderr).toContain('has no grant')
  })
})
