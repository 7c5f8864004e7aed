// An endpoint registered by a key with a grant on another tenant's league receives that league's events;
// once the grant is withdrawn or the key revoked, no key of the endpoint's source lists, redelivers or
// recovers those deliveries any more (they answer like missing ones), while the source's own stay.
import { describe, expect, it } from 'vitest'
import { grantLeague, revokeKey, ungrantLeague } from '../../src/domain/partners/api-keys.js'
import { fanOut } from '../../src/webhooks/fan-out.js'
import { useTestApp, type Partner } from '../helpers/app.js'

describe('deliveries of a granted league after the grant ends', () => {
  const t = useTestApp()

  /** Owner's league granted to guest; guest's endpoint gets one event of it and one of its own league. */
  async function world() {
    const owner = await t.partner()
    const guest = await t.partner()
    const sibling = await t.partner({ source: guest.source })
    const shared = (await owner.post('/leagues', { name: 'Shared' })).body.data.id as string
    await grantLeague(t.deps, guest.id, shared)
    const endpoint = (await guest.post('/webhooks', { url: 'https://hooks.example.com/h' })).body.data
    const own = (await guest.post('/leagues', { name: 'Own' })).body.data.id as string
    const game = (leagueId: string, by: Partner) =>
      by.post(`/leagues/${leagueId}/games`, { games: [{ startsAt: '2026-06-01T10:00:00Z' }] })
    expect((await game(shared, owner)).status).toBe(201)
    expect((await game(own, guest)).status).toBe(201)
    await fanOut(t.deps.db, t.deps.clock)
    const listed = async (p: Partner) => {
      const res = await p.get(`/webhooks/${endpoint.id}/deliveries`)
      expect(res.status).toBe(200)
      return res.body.data as { id: string; eventId: string }[]
    }
    const all = await listed(guest)
    expect(all).toHaveLength(2)
    const leagueOf = async (eventId: string) =>
      (
        await t.deps.db
          .selectFrom('outbox_events')
          .select('league_id')
          .where('id', '=', eventId)
          .executeTakeFirstOrThrow()
      ).league_id
    const leagues = await Promise.all(all.map((d) => leagueOf(d.eventId)))
    expect([...leagues].sort()).toEqual([own, shared].sort())
    const theirs = all[leagues.indexOf(shared)]!
    const mine = all[leagues.indexOf(own)]!
    // Both failed, so recover has something to find.
    await t.deps.db
      .updateTable('webhook_deliveries')
      .set({ status: 'failed', next_attempt_at: null })
      .execute()
    return { owner, guest, sibling, shared, endpoint, theirs, mine, listed }
  }

  async function expectHidden(w: Awaited<ReturnType<typeof world>>, keys: Partner[]) {
    for (const p of keys) {
      expect((await w.listed(p)).map((d) => d.id)).toEqual([w.mine.id])
      expect(await p.post(`/webhooks/${w.endpoint.id}/deliveries/${w.theirs.id}/retry`, {})).toMatchObject({
        status: 404,
        body: { error: 'delivery_not_found' },
      })
    }
    const since = new Date(Date.now() - 3_600_000).toISOString()
    const recovered = await keys[0]!.post(`/webhooks/${w.endpoint.id}/recover`, { since })
    expect(recovered.body).toEqual({ data: { recovered: 1 } })
    const theirs = await t.deps.db
      .selectFrom('webhook_deliveries')
      .select('status')
      .where('id', '=', w.theirs.id)
      .executeTakeFirstOrThrow()
    expect(theirs.status).toBe('failed')
  }

  it('a withdrawn grant hides the league’s deliveries from every key of the source', async () => {
    const w = await world()
    expect((await w.listed(w.sibling)).map((d) => d.id).sort()).toEqual([w.mine.id, w.theirs.id].sort())
    await ungrantLeague(t.deps, w.guest.id, w.shared)
    await expectHidden(w, [w.guest, w.sibling])
  })

  it('a revoked registering key hides them from the source’s other keys', async () => {
    const w = await world()
    await revokeKey(t.deps, w.guest.id)
    await expectHidden(w, [w.sibling])
  })

  it('while the grant holds, retry still sends the granted league’s delivery', async () => {
    const w = await world()
    const res = await w.sibling.post(`/webhooks/${w.endpoint.id}/deliveries/${w.theirs.id}/retry`, {})
    expect(res).toMatchObject({ status: 202, body: { data: { id: w.theirs.id, status: 'pending' } } })
  })
})
