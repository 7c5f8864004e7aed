// Idempotency-Key on the three POSTs the spec calls non-idempotent: a retry with the same key and body
// replays the first answer without acting again, a different body is refused, keys belong to the API key,
// and two identical requests at once act once.
import { describe, expect, it } from 'vitest'
import { grantLeague, ungrantLeague } from '../../src/domain/partners/api-keys.js'
import { useTestApp, type Partner } from '../helpers/app.js'
import { eventsOf } from '../helpers/fixtures.js'

describe('Idempotency-Key', () => {
  const t = useTestApp()
  const send = async (p: Partner, method: 'POST', url: string, body: unknown, key?: string) => {
    const res = await t.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: { authorization: `Bearer ${p.key}`, ...(key !== undefined && { 'idempotency-key': key }) },
      payload: body as object,
    })
    return { status: res.statusCode, body: res.body, replayed: res.headers['idempotent-replayed'] }
  }

  async function leagueWithOfficial(p: Partner) {
    const league = (await p.post('/leagues', { name: 'L' })).body.data.id as string
    const created = await p.post(`/leagues/${league}/games`, {
      games: [{ startsAt: '2026-05-02T15:00:00Z' }],
    })
    const official = await p.post(`/leagues/${league}/officials`, { externalId: 'ref-1' })
    return {
      league,
      game: created.body.data.created[0].id as string,
      userId: official.body.data.userId as string,
    }
  }

  it('replays a registration: same status and body, one endpoint, the same secret', async () => {
    const p = await t.partner()
    const body = { url: 'https://hooks.example.com/a' }
    const first = await send(p, 'POST', '/webhooks', body, 'key-1')
    const again = await send(p, 'POST', '/webhooks', body, 'key-1')
    expect(first.status).toBe(201)
    expect(first.replayed).toBeUndefined()
    expect(again).toEqual({ status: 201, body: first.body, replayed: 'true' })
    expect((await p.get('/webhooks')).body.data).toHaveLength(1)
    // Without a key, the spec's behaviour: every call registers.
    await send(p, 'POST', '/webhooks', body)
    expect((await p.get('/webhooks')).body.data).toHaveLength(2)
  })

  it('replays an assign instead of answering position_taken, and emits position.claimed once', async () => {
    const p = await t.partner()
    const { league, game, userId } = await leagueWithOfficial(p)
    const first = await send(p, 'POST', `/games/${game}/assign`, { userId }, 'assign-1')
    const again = await send(p, 'POST', `/games/${game}/assign`, { userId }, 'assign-1')
    expect(first.status).toBe(200)
    expect(again).toEqual({ status: 200, body: first.body, replayed: 'true' })
    expect((await send(p, 'POST', `/games/${game}/assign`, { userId })).body).toBe(
      '{"error":"position_taken"}',
    )
    const claimed = (await eventsOf(t.deps.db, league)).filter((e) => e.event === 'position.claimed')
    expect(claimed).toHaveLength(1)
  })

  it('replays a games batch, refusals included, without running it again', async () => {
    const p = await t.partner()
    const league = (await p.post('/leagues', { name: 'L' })).body.data.id as string
    const batch = { games: [{ externalId: 'g-1', startsAt: '2026-05-02T15:00:00Z' }, { startsAt: 'never' }] }
    const first = await send(p, 'POST', `/leagues/${league}/games`, batch, 'batch-1')
    expect([first.status, JSON.parse(first.body)]).toEqual([400, { error: 'invalid_startsAt:never' }])
    const again = await send(p, 'POST', `/leagues/${league}/games`, batch, 'batch-1')
    expect(again).toEqual({ ...first, replayed: 'true' })
    expect((await eventsOf(t.deps.db, league)).map((e) => e.event)).toEqual(['game.created'])
  })

  // Issue 21 item 7: a replay re-checks access, and kept answers hold no secret.
  it('answers a replay after the grant is withdrawn with the 404 any other key gets', async () => {
    const owner = await t.partner()
    const guest = await t.partner()
    const stranger = await t.partner()
    const { league, game, userId } = await leagueWithOfficial(owner)
    await grantLeague(t.deps, guest.id, league)
    const batch = { games: [{ externalId: 'g-9', startsAt: '2026-05-03T15:00:00Z' }] }
    const assigned = await send(guest, 'POST', `/games/${game}/assign`, { userId }, 'grant-1')
    const imported = await send(guest, 'POST', `/leagues/${league}/games`, batch, 'grant-2')
    expect([assigned.status, imported.status]).toEqual([200, 201])
    expect((await send(guest, 'POST', `/games/${game}/assign`, { userId }, 'grant-1')).replayed).toBe('true')
    await ungrantLeague(t.deps, guest.id, league)
    const replays = [
      await send(guest, 'POST', `/games/${game}/assign`, { userId }, 'grant-1'),
      await send(guest, 'POST', `/leagues/${league}/games`, batch, 'grant-2'),
    ]
    const strangers = [
      await send(stranger, 'POST', `/games/${game}/assign`, { userId }, 'grant-1'),
      await send(stranger, 'POST', `/leagues/${league}/games`, batch, 'grant-2'),
    ]
    expect(replays).toEqual(strangers)
    expect(replays).toEqual([
      { status: 404, body: '{"error":"game_not_found"}', replayed: undefined },
      { status: 404, body: '{"error":"league_not_found"}', replayed: undefined },
    ])
    // The refusal is not kept: granted again, the retry replays the first answer.
    await grantLeague(t.deps, guest.id, league)
    const again = await send(guest, 'POST', `/games/${game}/assign`, { userId }, 'grant-1')
    expect(again).toEqual({ ...assigned, replayed: 'true' })
  })

  it('stores no webhook secret, and never replays a deleted endpoint’s secret', async () => {
    const p = await t.partner()
    const body = { url: 'https://hooks.example.com/a' }
    const first = await send(p, 'POST', '/webhooks', body, 'hook-1')
    const { id, secret } = JSON.parse(first.body).data as { id: string; secret: string }
    expect(secret).toMatch(/^sec_[0-9a-f]{48}$/)
    const kept = await t.deps.db.selectFrom('idempotency_keys').select('response_body').execute()
    expect(kept.map((row) => row.response_body).join()).not.toContain(secret)
    expect(kept.map((row) => row.response_body).join()).not.toMatch(/sec_[0-9a-f]{48}/)
    // While the endpoint exists, the replay is the first answer byte for byte, its secret included.
    expect(await send(p, 'POST', '/webhooks', body, 'hook-1')).toEqual({ ...first, replayed: 'true' })
    expect((await p.delete(`/webhooks/${id}`)).status).toBe(200)
    const gone = await send(p, 'POST', '/webhooks', body, 'hook-1')
    expect(gone).toEqual({ status: 404, body: '{"error":"endpoint_not_found"}', replayed: undefined })
    expect((await p.get('/webhooks')).body.data).toEqual([])
  })

  it('refuses the same key with a different request, and acts on nothing', async () => {
    const p = await t.partner()
    await send(p, 'POST', '/webhooks', { url: 'https://hooks.example.com/a' }, 'key-1')
    const other = await send(p, 'POST', '/webhooks', { url: 'https://hooks.example.com/b' }, 'key-1')
    expect([other.status, other.body]).toEqual([400, '{"error":"idempotency_key_reused"}'])
    const { game, userId } = await leagueWithOfficial(p)
    const elsewhere = await send(p, 'POST', `/games/${game}/assign`, { userId }, 'key-1')
    expect([elsewhere.status, elsewhere.body]).toEqual([400, '{"error":"idempotency_key_reused"}'])
    expect((await p.get('/webhooks')).body.data).toHaveLength(1)
    expect((await p.get(`/games/${game}`)).body.data.status).toBe('open')
  })

  it('keeps keys per API key: another key of the same source acts on its own', async () => {
    const p = await t.partner()
    const q = await t.partner({ source: p.source })
    const body = { url: 'https://hooks.example.com/a' }
    const first = await send(p, 'POST', '/webhooks', body, 'shared')
    const second = await send(q, 'POST', '/webhooks', body, 'shared')
    expect([first.status, second.status, second.replayed]).toEqual([201, 201, undefined])
    expect(JSON.parse(second.body).data.id).not.toBe(JSON.parse(first.body).data.id)
    expect((await p.get('/webhooks')).body.data).toHaveLength(2)
  })

  it('acts once for two identical requests at once; the loser answers idempotency_key_in_use', async () => {
    const p = await t.partner()
    const { league, game, userId } = await leagueWithOfficial(p)
    const hook = { url: 'https://hooks.example.com/a' }
    const [a, b, c, d] = await Promise.all([
      send(p, 'POST', '/webhooks', hook, 'race-1'),
      send(p, 'POST', '/webhooks', hook, 'race-1'),
      send(p, 'POST', `/games/${game}/assign`, { userId }, 'race-2'),
      send(p, 'POST', `/games/${game}/assign`, { userId }, 'race-2'),
    ])
    const outcomes = (x: typeof a, y: typeof a) => [x.status, y.status].sort()
    expect([201, 409]).toEqual(expect.arrayContaining(outcomes(a!, b!)))
    expect(outcomes(a!, b!)).toContain(201)
    expect(outcomes(c!, d!)).toContain(200)
    for (const lost of [a!, b!, c!, d!].filter((r) => r.status === 409))
      expect(lost.body).toBe('{"error":"idempotency_key_in_use"}')
    expect((await p.get('/webhooks')).body.data).toHaveLength(1)
    const claimed = (await eventsOf(t.deps.db, league)).filter((e) => e.event === 'position.claimed')
    expect(claimed).toHaveLength(1)
    // Once the winner has answered, the retry replays it.
    const retry = await send(p, 'POST', '/webhooks', hook, 'race-1')
    expect([retry.status, retry.replayed]).toEqual([201, 'true'])
  })

  it('keeps no answer for a request its own validation refused, so the corrected one acts', async () => {
    const p = await t.partner()
    const refused = await send(p, 'POST', '/webhooks', { url: 'http://insecure.example.com' }, 'fix-me')
    expect(refused.body).toBe('{"error":"https_url_required"}')
    const fixed = await send(p, 'POST', '/webhooks', { url: 'https://hooks.example.com/a' }, 'fix-me')
    expect([fixed.status, fixed.replayed]).toEqual([201, undefined])
  })

  it.each([[''], ['x'.repeat(256)], ['has space'], ['ünïcode']])('refuses the key %j', async (key) => {
    const p = await t.partner()
    const res = await send(p, 'POST', '/webhooks', { url: 'https://hooks.example.com/a' }, key)
    expect([res.status, res.body]).toEqual([400, '{"error":"invalid_idempotency_key"}'])
    expect((await p.get('/webhooks')).body.data).toEqual([])
  })
})
