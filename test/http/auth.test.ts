import { describe, expect, it } from 'vitest'
import { ERROR_STATUS } from '../../src/domain/core/errors.js'
import { revokeKey } from '../../src/domain/partners/api-keys.js'
import { useTestApp } from '../helpers/app.js'

describe('authentication', () => {
  const t = useTestApp()

  it('answers the index with a valid key', async () => {
    const p = await t.partner()
    const res = await p.get('/')
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ version: 'v1', mcp: 'http://localhost:80/api/v1/mcp' })
    expect(res.body.data.webhookEvents).toHaveLength(13)
    // Every status a partner's operation can answer, 429 included (405 is only the MCP endpoint's).
    const statuses = new Set(Object.values(ERROR_STATUS).filter((status) => status !== 405))
    for (const status of statuses) expect(res.body.data.notes.errors).toContain(String(status))
    expect(res.body.data.notes.errors).toContain('Retry-After')
    expect(res.body.data.endpoints).toEqual(
      expect.arrayContaining([
        'GET /leagues',
        'POST /leagues',
        'GET /leagues/{leagueId}',
        'PATCH /leagues/{leagueId}',
      ]),
    )
  })

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['not bearer', 'Basic a2V5Og=='],
    ['no key', 'Bearer '],
    ['short key', `Bearer key_${'a'.repeat(47)}`],
    ['uppercase hex', `Bearer key_${'A'.repeat(48)}`],
    ['unknown key', `Bearer key_${'0'.repeat(48)}`],
    ['trailing junk', `Bearer key_${'0'.repeat(48)} x`],
  ])('401 unauthorized for a %s header', async (_label, header) => {
    const res = await t.client(header).get('/leagues')
    expect(res).toMatchObject({ status: 401, body: { error: 'unauthorized' } })
    expect(res.headers['www-authenticate']).toBe('Bearer realm="refdesk"')
  })

  it('401 on every operation without a key, before validation or lookup', async () => {
    const anon = t.client()
    for (const res of [
      await anon.get('/'),
      await anon.post('/leagues', 'not json at all'),
      await anon.get('/leagues/nope'),
      await anon.patch('/leagues/nope', {}),
      await anon.get('/leagues/nope/games'),
      await anon.post('/leagues/nope/games', {}),
      await anon.get('/games/nope'),
      await anon.patch('/games/nope', {}),
      await anon.delete('/games/nope'),
      await anon.get('/leagues/nope/officials'),
      await anon.post('/leagues/nope/officials', {}),
      await anon.delete('/leagues/nope/officials/nope'),
      await anon.get('/leagues/nope/assignments'),
      await anon.post('/games/nope/assign', {}),
      await anon.delete('/games/nope/assign'),
      await anon.get('/leagues/nope/payments'),
    ]) {
      expect(res).toMatchObject({ status: 401, body: { error: 'unauthorized' } })
    }
  })

  it('a revoked key gets 401 at once', async () => {
    const p = await t.partner()
    expect((await p.get('/leagues')).status).toBe(200)
    await revokeKey(t.deps, p.id)
    expect(await p.get('/leagues')).toMatchObject({ status: 401, body: { error: 'unauthorized' } })
  })

  it('two keys of one source share its leagues', async () => {
    const a = await t.partner()
    const b = await t.partner({ source: a.source })
    const { id } = (await a.post('/leagues', { name: 'Shared' })).body.data
    expect((await b.get(`/leagues/${id}`)).status).toBe(200)
  })
})
