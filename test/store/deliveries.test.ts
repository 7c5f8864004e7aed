// Recording attempts: an outcome counts only under the lease its attempt was sent with, even when a stale
// outcome and the current one for the same delivery share one group commit.
import { describe, expect, it } from 'vitest'
import { leaseDue, recordAttempts, type AttemptOutcome } from '../../src/store/leases.js'
import { fanOut } from '../../src/webhooks/fan-out.js'
import { useTestApp } from '../helpers/app.js'

describe('recordAttempts', () => {
  const t = useTestApp()

  it('records only the outcome of the current lease when a stale one for the same delivery is in the batch', async () => {
    const p = await t.partner()
    await p.post('/webhooks', { url: 'https://hooks.example.com/refdesk', events: ['game.created'] })
    const league = (await p.post('/leagues', { name: 'L' })).body.data
    await p.post(`/leagues/${league.id}/games`, { games: [{ startsAt: '2026-05-01T18:00:00Z' }] })
    await fanOut(t.deps.db, t.deps.clock)
    const now = Date.now()
    const iso = (ms: number) => new Date(ms).toISOString()
    const lease = (until: number) =>
      leaseDue(t.deps.db, {
        owner: 'dispatcher-1',
        now: iso(until - 1000),
        until: iso(until),
        limit: 10,
        room: new Map(),
        defaultRoom: 10,
        sourceRoom: new Map(),
        defaultSourceRoom: 10,
        exclude: [],
      })
    const [first] = await lease(now + 1000)
    // The first lease runs out while its attempt is still out; the same dispatcher leases the row again.
    const [second] = await lease(now + 5000)
    expect(second!.id).toBe(first!.id)
    const outcome = (until: number, statusCode: number, ok: boolean): AttemptOutcome => ({
      lease: { owner: 'dispatcher-1', until: iso(until) },
      attempt: {
        delivery_id: first!.id,
        attempted_at: iso(now),
        status_code: statusCode,
        error: ok ? null : 'http_status',
        duration_ms: 5,
      },
      status: ok ? 'succeeded' : 'pending',
      attempts: 1,
      nextAttemptAt: ok ? null : iso(now + 100),
      deliveredAt: ok ? iso(now) : null,
    })
    // The current lease's outcome first, the stale one after it: order within a batch must not matter.
    expect(
      await recordAttempts(t.deps.db, {
        renewals: [],
        outcomes: [outcome(now + 5000, 200, true), outcome(now + 1000, 500, false)],
      }),
    ).toEqual({ renewed: [], recorded: [true, false] })
    const attempts = await t.deps.db
      .selectFrom('webhook_attempts')
      .select('status_code')
      .where('delivery_id', '=', first!.id)
      .execute()
    expect(attempts).toEqual([{ status_code: 200 }])
    const row = await t.deps.db
      .selectFrom('webhook_deliveries')
      .select(['status', 'attempts', 'lease_owner'])
      .where('id', '=', first!.id)
      .executeTakeFirstOrThrow()
    expect(row).toEqual({ status: 'succeeded', attempts: 1, lease_owner: null })
  })

  it('passes over rows the dispatcher still has an attempt out for, even past their lease', async () => {
    const p = await t.partner()
    await p.post('/webhooks', { url: 'https://hooks.example.com/refdesk', events: ['game.created'] })
    const league = (await p.post('/leagues', { name: 'L' })).body.data
    const games = [{ startsAt: '2026-05-01T18:00:00Z' }, { startsAt: '2026-05-02T18:00:00Z' }]
    await p.post(`/leagues/${league.id}/games`, { games })
    await fanOut(t.deps.db, t.deps.clock)
    const iso = (ms: number) => new Date(ms).toISOString()
    const lease = (at: number, exclude: string[]) =>
      leaseDue(t.deps.db, {
        owner: 'dispatcher-1',
        now: iso(at),
        until: iso(at + 1000),
        limit: 10,
        room: new Map(),
        defaultRoom: 10,
        sourceRoom: new Map(),
        defaultSourceRoom: 10,
        exclude,
      })
    const now = Date.now()
    const first = await lease(now, [])
    expect(first).toHaveLength(2)
    const again = await lease(now + 5000, [first[0]!.id])
    expect(again.map((r) => r.id)).toEqual([first[1]!.id])
  })
  it('renews a lease that still holds, records an outcome under the lease renewed in its batch, and refuses a lost one', async () => {
    const p = await t.partner()
    await p.post('/webhooks', { url: 'https://hooks.example.com/refdesk', events: ['game.created'] })
    const league = (await p.post('/leagues', { name: 'L' })).body.data
    const games = [{ startsAt: '2026-05-01T18:00:00Z' }, { startsAt: '2026-05-02T18:00:00Z' }]
    await p.post(`/leagues/${league.id}/games`, { games })
    await fanOut(t.deps.db, t.deps.clock)
    const iso = (ms: number) => new Date(ms).toISOString()
    const now = Date.now()
    const [a, b] = await leaseDue(t.deps.db, {
      owner: 'dispatcher-1',
      now: iso(now),
      until: iso(now + 1000),
      limit: 10,
      room: new Map(),
      defaultRoom: 10,
      sourceRoom: new Map(),
      defaultSourceRoom: 10,
      exclude: [],
    })
    const held = { owner: 'dispatcher-1', until: iso(now + 1000) }
    const lost = { owner: 'dispatcher-1', until: iso(now + 999) }
    const outcome: AttemptOutcome = {
      lease: held,
      attempt: { delivery_id: a!.id, attempted_at: iso(now), status_code: 204, error: null, duration_ms: 5 },
      status: 'succeeded',
      attempts: 1,
      nextAttemptAt: null,
      deliveredAt: iso(now),
    }
    const written = await recordAttempts(t.deps.db, {
      renewals: [
        { id: a!.id, lease: held, until: iso(now + 9000) },
        { id: b!.id, lease: lost, until: iso(now + 9000) },
      ],
      outcomes: [outcome],
    })
    expect(written).toEqual({ renewed: [true, false], recorded: [true] })
    const rows = await t.deps.db
      .selectFrom('webhook_deliveries')
      .select(['id', 'status', 'lease_until'])
      .where('id', 'in', [a!.id, b!.id])
      .execute()
    expect(new Map(rows.map((r) => [r.id, [r.status, r.lease_until]]))).toEqual(
      new Map([
        [a!.id, ['succeeded', null]],
        [b!.id, ['pending', iso(now + 1000)]],
      ]),
    )
  })
})
