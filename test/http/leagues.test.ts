import { describe, expect, it } from 'vitest'
import { useTestApp } from '../helpers/app.js'

describe('leagues', () => {
  const t = useTestApp()

  it('creates a league with defaults and lists it with counts', async () => {
    const p = await t.partner()
    const created = await p.post('/leagues', { name: '  Metro Youth  ' })
    expect(created.status).toBe(201)
    expect(created.body.data).toMatchObject({
      name: 'Metro Youth',
      paymentMode: 'offline',
      currency: 'usd',
      source: p.source,
      externalId: null,
    })
    const list = await p.get('/leagues')
    expect(list.status).toBe(200)
    expect(list.body.data).toEqual([{ ...created.body.data, gameCount: 0, memberCount: 1 }])
  })

  it('upserts on (source, externalId), rewriting name, paymentMode and currency', async () => {
    const p = await t.partner()
    const first = await p.post('/leagues', {
      name: 'A',
      externalId: 'L1',
      paymentMode: 'platform',
      currency: 'EUR',
    })
    expect(first.body.data).toMatchObject({ paymentMode: 'platform', currency: 'eur' })
    const again = await p.post('/leagues', {
      name: 'B',
      externalId: 'L1',
      paymentMode: 'bogus',
      currency: 'cad',
    })
    expect(again.status).toBe(201)
    expect(again.body.data).toMatchObject({
      id: first.body.data.id,
      name: 'B',
      paymentMode: 'offline',
      currency: 'cad',
    })
    expect((await p.get('/leagues')).body.data).toHaveLength(1)
  })

  it('a re-post with only name and externalId keeps the stored paymentMode and currency', async () => {
    const p = await t.partner()
    const first = (
      await p.post('/leagues', { name: 'A', externalId: 'L1', paymentMode: 'platform', currency: 'eur' })
    ).body.data
    const again = await p.post('/leagues', { name: 'Renamed', externalId: 'L1' })
    expect(again).toMatchObject({
      status: 201,
      body: { data: { id: first.id, name: 'Renamed', paymentMode: 'platform', currency: 'eur' } },
    })
    expect((await p.get(`/leagues/${first.id}`)).body.data).toMatchObject({
      name: 'Renamed',
      paymentMode: 'platform',
      currency: 'eur',
    })
    const modeOnly = await p.post('/leagues', { name: 'Renamed', externalId: 'L1', paymentMode: 'offline' })
    expect(modeOnly.body.data).toMatchObject({ paymentMode: 'offline', currency: 'eur' })
  })

  it('a new league with an externalId still gets the defaults for omitted fields', async () => {
    const p = await t.partner()
    const created = await p.post('/leagues', { name: 'A', externalId: 'L1' })
    expect(created.body.data).toMatchObject({ paymentMode: 'offline', currency: 'usd' })
  })

  it('lists newest first', async () => {
    const p = await t.partner()
    for (const name of ['one', 'two', 'three']) await p.post('/leagues', { name })
    expect((await p.get('/leagues')).body.data.map((l: { name: string }) => l.name)).toEqual([
      'three',
      'two',
      'one',
    ])
  })

  it.each([
    [{}, 'name_required'],
    [{ name: '   ' }, 'name_required'],
    [{ name: 7 }, 'invalid_name'],
    [{ name: 'x', source: 'app' }, 'source_reserved'],
    [{ name: 'x', source: 'someone-else' }, 'source_mismatch'],
    [{ name: 'x', source: 'x'.repeat(41) }, 'invalid_source'],
    [{ name: 'x', currency: 'dollars' }, 'invalid_currency'],
    [{ name: 'x', externalId: 5 }, 'invalid_externalId'],
    [[], 'invalid_json'],
  ])('POST /leagues %j → 400 %s', async (body, code) => {
    const p = await t.partner()
    const res = await p.post('/leagues', body)
    expect(res).toMatchObject({ status: 400, body: { error: code } })
    expect((await p.get('/leagues')).body.data).toEqual([])
  })

  it('accepts an echoed source', async () => {
    const p = await t.partner()
    expect((await p.post('/leagues', { name: 'x', source: p.source })).status).toBe(201)
  })

  it('gets detail and patches only provided keys', async () => {
    const p = await t.partner()
    const { id } = (await p.post('/leagues', { name: 'L', currency: 'cad' })).body.data
    const detail = await p.get(`/leagues/${id}`)
    expect(detail.body.data).toMatchObject({ id, name: 'L', currency: 'cad', games: [], officials: [] })
    const patched = await p.patch(`/leagues/${id}`, { paymentMode: 'platform' })
    expect(patched.status).toBe(200)
    expect(patched.body.data).toMatchObject({ name: 'L', currency: 'cad', paymentMode: 'platform' })
    expect((await p.patch(`/leagues/${id}`, { name: '' })).body).toEqual({ error: 'name_required' })
    expect((await p.patch(`/leagues/${id}`, { currency: 12 })).body).toEqual({ error: 'invalid_currency' })
  })

  it.each([
    [{ name: 'hijack', source: 'someone-else' }, 'source_mismatch'],
    [{ currency: 'eur', source: 'app' }, 'source_reserved'],
    [{ paymentMode: 'platform', source: 'x'.repeat(41) }, 'invalid_source'],
  ])('PATCH /leagues/{id} %j → 400 %s, nothing applied', async (body, code) => {
    const p = await t.partner()
    const league = (await p.post('/leagues', { name: 'L' })).body.data
    expect(await p.patch(`/leagues/${league.id}`, body)).toMatchObject({ status: 400, body: { error: code } })
    expect((await p.get(`/leagues/${league.id}`)).body.data).toMatchObject({
      name: 'L',
      paymentMode: 'offline',
      currency: 'usd',
    })
  })

  it('PATCH /leagues/{id} accepts an echoed source', async () => {
    const p = await t.partner()
    const league = (await p.post('/leagues', { name: 'L' })).body.data
    const res = await p.patch(`/leagues/${league.id}`, { name: 'M', source: p.source })
    expect(res).toMatchObject({ status: 200, body: { data: { name: 'M' } } })
  })

  it('hides other sources’ leagues exactly like nonexistent ones', async () => {
    const owner = await t.partner()
    const other = await t.partner()
    const { id } = (await owner.post('/leagues', { name: 'Private' })).body.data
    for (const res of [
      await other.get(`/leagues/${id}`),
      await other.patch(`/leagues/${id}`, { name: 'hijack' }),
      await other.get('/leagues/does-not-exist'),
    ]) {
      expect(res).toMatchObject({ status: 404, body: { error: 'league_not_found' } })
    }
    expect((await other.get('/leagues')).body.data).toEqual([])
    expect((await owner.get(`/leagues/${id}`)).body.data.name).toBe('Private')
  })
})
