import { describe, expect, it } from 'vitest'
import { BODY_LIMIT } from '../../src/http/body.js'
import { useTestApp } from '../helpers/app.js'

describe('hostile and malformed input', () => {
  const t = useTestApp()

  async function raw(
    key: string,
    method: 'POST' | 'PATCH' | 'PUT' | 'OPTIONS' | 'GET',
    url: string,
    payload?: string,
    contentType = 'application/json',
  ) {
    const res = await t.app.inject({
      method,
      url,
      headers: {
        authorization: `Bearer ${key}`,
        ...(payload !== undefined && { 'content-type': contentType }),
      },
      ...(payload !== undefined && { payload }),
    })
    return { status: res.statusCode, body: res.json(), headers: res.headers }
  }

  it.each([
    ['malformed JSON', '{"name": '],
    ['an array', '[{"name":"x"}]'],
    ['a string', '"x"'],
    ['a number', '42'],
    ['null', 'null'],
    ['an empty body', ''],
  ])('%s → 400 invalid_json', async (_label, payload) => {
    const p = await t.partner()
    expect(await raw(p.key, 'POST', '/api/v1/leagues', payload)).toMatchObject({
      status: 400,
      body: { error: 'invalid_json' },
    })
  })

  it('a non-JSON content type → 400 invalid_json', async () => {
    const p = await t.partner()
    const res = await raw(p.key, 'POST', '/api/v1/leagues', 'name=x', 'application/x-www-form-urlencoded')
    expect(res).toMatchObject({ status: 400, body: { error: 'invalid_json' } })
  })

  it('a body over 1 MiB → 400 body_too_large and nothing written', async () => {
    const p = await t.partner()
    const payload = JSON.stringify({ name: 'x'.repeat(BODY_LIMIT) })
    expect(await raw(p.key, 'POST', '/api/v1/leagues', payload)).toMatchObject({
      status: 400,
      body: { error: 'body_too_large' },
    })
    expect((await p.get('/leagues')).body.data).toEqual([])
  })

  it('a huge string under the body limit is refused by its field’s maximum, and nothing written', async () => {
    const p = await t.partner()
    const res = await p.post('/leagues', { name: 'é'.repeat(200_000) })
    expect(res).toMatchObject({ status: 400, body: { error: 'invalid_name' } })
    expect((await p.get('/leagues')).body.data).toEqual([])
  })

  it('deep nesting never crashes', async () => {
    const p = await t.partner()
    const depth = 200_000
    const payload = `{"name":"deep","extra":${'['.repeat(depth)}${']'.repeat(depth)}}`
    const res = await raw(p.key, 'POST', '/api/v1/leagues', payload)
    expect([201, 400]).toContain(res.status)
    expect(res.body).not.toHaveProperty('statusCode')
  })

  it('__proto__ and constructor keys are harmless', async () => {
    const p = await t.partner()
    const payload =
      '{"name":"safe","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}'
    const res = await raw(p.key, 'POST', '/api/v1/leagues', payload)
    expect(res.status).toBe(201)
    expect(res.body.data.name).toBe('safe')
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('a NUL character is refused as the field’s own error, the same on both databases', async () => {
    const p = await t.partner()
    expect(await p.post('/leagues', { name: 'a\u0000b' })).toMatchObject({
      status: 400,
      body: { error: 'invalid_name' },
    })
    expect(await p.post('/leagues', { name: 'x', externalId: '\u0000' })).toMatchObject({
      status: 400,
      body: { error: 'invalid_externalId' },
    })
    expect(await p.get('/leagues/a%00b')).toMatchObject({ status: 404, body: { error: 'league_not_found' } })
    expect(await p.get('/games/%00')).toMatchObject({ status: 404, body: { error: 'game_not_found' } })
    expect((await p.get('/leagues')).body.data).toEqual([])
  })

  it('keys that live in unique indexes are capped at 255 characters', async () => {
    const p = await t.partner()
    const long = 'k'.repeat(256)
    expect(await p.post('/leagues', { name: 'x', externalId: long })).toMatchObject({
      status: 400,
      body: { error: 'invalid_externalId' },
    })
    const { id } = (await p.post('/leagues', { name: 'x', externalId: long.slice(1) })).body.data
    expect(await p.post(`/leagues/${id}/officials`, { externalId: long })).toMatchObject({
      status: 400,
      body: { error: 'invalid_externalId' },
    })
    expect(
      await p.post(`/leagues/${id}/officials`, { externalId: 'r', email: `${long}@x.example` }),
    ).toMatchObject({
      status: 400,
      body: { error: 'invalid_email' },
    })
  })

  it('unicode round-trips', async () => {
    const p = await t.partner()
    const name = 'Liga 🏟️ Ñandú — 東京'
    expect((await p.post('/leagues', { name })).body.data.name).toBe(name)
  })

  it('unknown routes and methods → 404 not_found, never 405', async () => {
    const p = await t.partner()
    expect(await raw(p.key, 'GET', '/api/v1/nope')).toMatchObject({
      status: 404,
      body: { error: 'not_found' },
    })
    expect(await raw(p.key, 'PUT', '/api/v1/leagues', '{}')).toMatchObject({
      status: 404,
      body: { error: 'not_found' },
    })
    expect(await raw(p.key, 'GET', '/nope')).toMatchObject({ status: 404, body: { error: 'not_found' } })
    expect(await raw(p.key, 'GET', '/api/v1/leagues/%E0%A4%A')).toMatchObject({
      status: 404,
      body: { error: 'not_found' },
    })
  })

  it('sends no CORS headers, even to a preflight', async () => {
    const p = await t.partner()
    const res = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/v1/leagues',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    })
    expect(res.statusCode).toBe(404)
    const get = await t.app.inject({
      method: 'GET',
      url: '/api/v1/leagues',
      headers: { authorization: `Bearer ${p.key}`, origin: 'https://evil.example' },
    })
    for (const headers of [res.headers, get.headers]) {
      expect(Object.keys(headers).filter((h) => h.startsWith('access-control-'))).toEqual([])
    }
  })
})
