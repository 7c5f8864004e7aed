import { describe, expect, it } from 'vitest'
import { EVENT_NAMES } from '../../src/schemas/events.js'
import { fanOut } from '../../src/webhooks/fan-out.js'
import { parseAllowPrivate, STRICT_POLICY } from '../../src/net/address-guard.js'
import { buildTestApp, useTestApp } from '../helpers/app.js'

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
      disabled: false,
      disabledAt: null,
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
    [{ url: 'https://user:pass@hooks.example.com/' }, 'https_url_required'],
    [{ url: 'https://user@hooks.example.com/' }, 'https_url_required'],
    [{ url: 'https://:pass@hooks.example.com/' }, 'https_url_required'],
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

  it.each([
    ['HTTPS://Hooks.Example.COM:443/a/./b/../c?x=1#frag', 'https://hooks.example.com/a/c?x=1#frag'],
    ['https://hooks.example.com', 'https://hooks.example.com/'],
    ['https://bücher.example/hook', 'https://xn--bcher-kva.example/hook'],
    ['https://hooks.example.com:8443/a b', 'https://hooks.example.com:8443/a%20b'],
    ['https://[2606:4700:4700:0:0:0:0:1111]/', 'https://[2606:4700:4700::1111]/'],
    ['https://0x08.0x08.0x08.0x08/', 'https://8.8.8.8/'],
  ])('stores %s normalised as %s', async (url, href) => {
    const p = await t.partner()
    const res = await p.post('/webhooks', { url })
    expect(res).toMatchObject({ status: 201, body: { data: { url: href } } })
    expect((await p.get('/webhooks')).body.data[0].url).toBe(href)
  })

  it.each([
    'https:///hooks.example.com/x',
    'https:////hooks.example.com',
    'https:/hooks.example.com/',
    'https:hooks.example.com/',
    'https:\\\\hooks.example.com/',
    ' https://hooks.example.com/',
    'https://',
    'https://:443/',
  ])('refuses %j: the text must name a host right after https://', async (url) => {
    const p = await t.partner()
    expect(await p.post('/webhooks', { url })).toMatchObject({
      status: 400,
      body: { error: 'https_url_required' },
    })
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
    // A dispatcher expands the committed events into deliveries; here, its step is run by hand.
    expect(await fanOut(t.deps.db, t.deps.clock)).toBe(3)

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

// Registration under the delivery policy of a production server (REFDESK_WEBHOOK_ALLOW_PRIVATE unset).
describe('webhook registration refuses literal internal addresses', () => {
  const t = useTestApp({ webhookPolicy: STRICT_POLICY })

  it.each([
    'https://127.0.0.1/hook',
    'https://127.1/',
    'https://2130706433/',
    'https://0x7f000001/',
    'https://0177.0.0.1/',
    'https://[::1]/',
    'https://[::ffff:127.0.0.1]/',
    'https://[::ffff:7f00:1]/',
    'https://[::ffff:10.0.0.1]/',
    'https://0.0.0.0/',
    'https://0/',
    'https://10.0.0.1/',
    'https://172.16.0.1/',
    'https://192.168.1.1:8443/x',
    'https://3232235777/',
    'https://100.64.0.1/',
    'https://169.254.1.1/',
    'https://[fe80::1]/',
    'https://[fd12:3456::1]/',
    'https://169.254.169.254/latest/meta-data/',
    'https://0xa9fea9fe/',
    'https://0251.0376.0251.0376/',
    'https://[fd00:ec2::254]/',
    'https://100.100.100.200/',
    'https://168.63.129.16/',
  ])('%s → 400 https_url_required, nothing stored', async (url) => {
    const p = await t.partner()
    expect(await p.post('/webhooks', { url })).toMatchObject({
      status: 400,
      body: { error: 'https_url_required' },
    })
    expect((await p.get('/webhooks')).body.data).toEqual([])
  })

  it('accepts public addresses, and names (those are checked when a delivery connects)', async () => {
    const p = await t.partner()
    for (const url of ['https://8.8.8.8/', 'https://[2606:4700:4700::1111]/', 'https://localhost/hook']) {
      expect((await p.post('/webhooks', { url })).status).toBe(201)
    }
  })
})

describe('webhook registration with REFDESK_WEBHOOK_ALLOW_PRIVATE', () => {
  it('true: private and loopback literals pass, metadata never does', async () => {
    const t = await buildTestApp({ webhookPolicy: parseAllowPrivate('true') })
    try {
      const p = await t.partner()
      expect((await p.post('/webhooks', { url: 'https://127.0.0.1:8443/hook' })).status).toBe(201)
      expect((await p.post('/webhooks', { url: 'https://10.0.0.1/' })).status).toBe(201)
      expect((await p.post('/webhooks', { url: 'https://169.254.169.254/' })).body).toEqual({
        error: 'https_url_required',
      })
    } finally {
      await t.close()
    }
  })

  it('a CIDR list: exactly those pass', async () => {
    const t = await buildTestApp({ webhookPolicy: parseAllowPrivate('10.1.0.0/16') })
    try {
      const p = await t.partner()
      expect((await p.post('/webhooks', { url: 'https://10.1.2.3/' })).status).toBe(201)
      expect((await p.post('/webhooks', { url: 'https://10.2.0.1/' })).body).toEqual({
        error: 'https_url_required',
      })
      expect((await p.post('/webhooks', { url: 'https://127.0.0.1/' })).body).toEqual({
        error: 'https_url_required',
      })
    } finally {
      await t.close()
    }
  })
})
