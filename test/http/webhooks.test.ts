import { describe, expect, it } from 'vitest'
import { EVENT_NAMES } from '../../src/domain/events.js'
import { useTestApp } from '../helpers/app.js'

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

describe('webhook endpoints', () => {
  const t = useTestApp()

  it('registers an endpoint, shows the secret once, lists newest first without it', async () => {
    const p = await t.partner()
    const first = await p.post('/webhooks', { url: 'https://hooks.example.com/a' })
    expect(first.status).toBe(201)
    expect(first.body.data).toEqual({
      id: expect.any(String),
      url: 'https://hooks.example.com/a',
      events: [],
      source: p.source,
      createdAt: expect.stringMatching(ISO),
      secret: expect.stringMatching(/^sec_[0-9a-f]{48}$/),
    })
    const second = await p.post('/webhooks', {
      url: 'https://hooks.example.com/a',
      events: ['game.created', 'payment.paid', 'game.created'],
      source: p.source,
    })
    expect(second.status).toBe(201)
    expect(second.body.data.id).not.toBe(first.body.data.id)
    expect(second.body.data.secret).not.toBe(first.body.data.secret)
    expect(second.body.data.events).toEqual(['game.created', 'payment.paid'])

    const list = await p.get('/webhooks')
    expect(list.status).toBe(200)
    const { secret: _s2, ...secondListed } = second.body.data
    const { secret: _s1, ...firstListed } = first.body.data
    expect(list.body.data).toEqual([secondListed, firstListed])
    expect(JSON.stringify(list.body)).not.toContain('sec_')
  })

  it.each([
    [{}, 'https_url_required'],
    [{ url: 'http://hooks.example.com/' }, 'https_url_required'],
    [{ url: 'not a url' }, 'https_url_required'],
    [{ url: 'ftp://hooks.example.com/' }, 'https_url_required'],
    [{ url: 42 }, 'invalid_url'],
    [{ url: 'https://h.example/', events: ['game.created', 'game.exploded'] }, 'unknown_event:game.exploded'],
    [{ url: 'https://h.example/', events: 'game.created' }, 'invalid_events'],
    [{ url: 'https://h.example/', events: [1] }, 'invalid_events'],
    [{ url: 'https://h.example/', source: 'app' }, 'source_reserved'],
    [{ url: 'https://h.example/', source: 'other' }, 'source_mismatch'],
    [{ url: 'https://h.example/', source: 'x'.repeat(41) }, 'invalid_source'],
  ])('rejects %j with %s', async (body, code) => {
    const p = await t.partner()
    expect(await p.post('/webhooks', body)).toMatchObject({ status: 400, body: { error: code } })
    expect((await p.get('/webhooks')).body.data).toEqual([])
  })

  it('rejects a body that is not a JSON object', async () => {
    const p = await t.partner()
    expect(await p.post('/webhooks', [])).toMatchObject({ status: 400, body: { error: 'invalid_json' } })
  })

  it('accepts every event name', async () => {
    const p = await t.partner()
    const created = await p.post('/webhooks', { url: 'https://h.example/', events: [...EVENT_NAMES] })
    expect(created.body.data.events).toEqual([...EVENT_NAMES])
  })

  it('endpoints belong to the source: another key of it sees and deletes them, another source does not', async () => {
    const owner = await t.partner()
    const colleague = await t.partner({ source: owner.source })
    const stranger = await t.partner()
    const { id } = (await owner.post('/webhooks', { url: 'https://h.example/' })).body.data

    expect((await colleague.get('/webhooks')).body.data.map((e: { id: string }) => e.id)).toEqual([id])
    expect((await stranger.get('/webhooks')).body.data).toEqual([])
    for (const res of [
      await stranger.delete(`/webhooks/${id}`),
      await stranger.get(`/webhooks/${id}/deliveries`),
    ]) {
      expect(res).toMatchObject({ status: 404, body: { error: 'endpoint_not_found' } })
    }
    expect(await colleague.delete(`/webhooks/${id}`)).toMatchObject({
      status: 200,
      body: { data: { deleted: true } },
    })
    expect((await owner.get('/webhooks')).body.data).toEqual([])
    expect(await owner.delete(`/webhooks/${id}`)).toMatchObject({
      status: 404,
      body: { error: 'endpoint_not_found' },
    })
    expect(await owner.get(`/webhooks/${id}/deliveries`)).toMatchObject({
      status: 404,
      body: { error: 'endpoint_not_found' },
    })
  })

  it('lists deliveries newest first, honouring limit, and removes them with the endpoint', async () => {
    const p = await t.partner()
    const { id } = (await p.post('/webhooks', { url: 'https://h.example/' })).body.data
    const league = (await p.post('/leagues', { name: 'L' })).body.data
    const games = Array.from({ length: 3 }, (_, i) => ({ startsAt: `2026-05-0${i + 1}T18:00:00Z` }))
    const created = (await p.post(`/leagues/${league.id}/games`, { games })).body.data.created

    const all = await p.get(`/webhooks/${id}/deliveries`)
    expect(all.status).toBe(200)
    expect(all.body.data).toHaveLength(3)
    expect(all.body.data[0]).toEqual({
      id: expect.any(String),
      endpointId: id,
      eventId: expect.stringMatching(/^evt_/),
      event: 'game.created',
      status: 'pending',
      attempts: 0,
      lastStatusCode: null,
      lastError: null,
      createdAt: expect.stringMatching(ISO),
      lastAttemptAt: null,
      nextAttemptAt: expect.stringMatching(ISO),
      deliveredAt: null,
    })
    const events = await t.deps.db.selectFrom('outbox_events').select(['id', 'data']).orderBy('seq').execute()
    expect(all.body.data.map((d: { eventId: string }) => d.eventId)).toEqual(
      events.map((e) => e.id).reverse(),
    )
    expect(events.map((e) => JSON.parse(e.data).id)).toEqual(created.map((g: { id: string }) => g.id))

    const two = await p.get(`/webhooks/${id}/deliveries?limit=2`)
    expect(two.body.data).toEqual(all.body.data.slice(0, 2))

    await p.delete(`/webhooks/${id}`)
    const left = await t.deps.db.selectFrom('webhook_deliveries').select('id').execute()
    expect(left).toEqual([])
  })

  it.each(['0', '201', 'abc', '1.5', '-1'])('rejects limit=%s with invalid_limit', async (limit) => {
    const p = await t.partner()
    const { id } = (await p.post('/webhooks', { url: 'https://h.example/' })).body.data
    expect(await p.get(`/webhooks/${id}/deliveries?limit=${limit}`)).toMatchObject({
      status: 400,
      body: { error: 'invalid_limit' },
    })
  })

  it('accepts limit=200', async () => {
    const p = await t.partner()
    const { id } = (await p.post('/webhooks', { url: 'https://h.example/' })).body.data
    expect(await p.get(`/webhooks/${id}/deliveries?limit=200`)).toMatchObject({
      status: 200,
      body: { data: [] },
    })
  })

  it('requires a key', async () => {
    const anonymous = t.client()
    for (const res of [
      await anonymous.get('/webhooks'),
      await anonymous.post('/webhooks', { url: 'https://h.example/' }),
      await anonymous.delete('/webhooks/x'),
      await anonymous.get('/webhooks/x/deliveries'),
    ]) {
      expect(res).toMatchObject({ status: 401, body: { error: 'unauthorized' } })
    }
  })

  it('appears in the index and the OpenAPI document under the agreed operationIds', async () => {
    const p = await t.partner()
    const index = await p.get('/')
    const text = JSON.stringify(index.body)
    for (const route of [
      'GET /webhooks',
      'POST /webhooks',
      'DELETE /webhooks/{webhookId}',
      'GET /webhooks/{webhookId}/deliveries',
    ]) {
      expect(text).toContain(route)
    }
    const doc = (await t.app.inject({ url: '/api/v1/openapi.json' })).json()
    expect(doc.paths['/api/v1/webhooks'].get.operationId).toBe('listWebhooks')
    expect(doc.paths['/api/v1/webhooks'].post.operationId).toBe('createWebhook')
    expect(doc.paths['/api/v1/webhooks/{webhookId}'].delete.operationId).toBe('deleteWebhook')
    expect(doc.paths['/api/v1/webhooks/{webhookId}/deliveries'].get.operationId).toBe('listWebhookDeliveries')
  })
})
