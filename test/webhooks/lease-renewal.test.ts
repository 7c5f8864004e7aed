// Issue 21, item 15: an attempt that outlasts its lease (an endpoint that answers late, a commit that lags
// on a loaded machine) must not be sent again by another dispatcher. The dispatcher renews the lease of
// every attempt still out; its clock is moved here past the first lease while the attempt hangs.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Clock } from '../../src/clock.js'
import { leaseDue } from '../../src/store/leases.js'
import { useTestApp } from '../helpers/app.js'
import { useDispatchers } from './dispatch.js'
import { startReceiver, type Receiver } from './receiver.js'
import { eventually } from '../helpers/eventually.js'

const LEASE_MS = 5000
const iso = (ms: number) => new Date(ms).toISOString()

describe('a lease while its attempt is out', () => {
  const t = useTestApp()
  const dispatcher = useDispatchers(t)
  let receiver: Receiver
  beforeEach(async () => {
    receiver = await startReceiver()
  })
  afterEach(async () => {
    await receiver.close()
  })

  it('is renewed, so a second dispatcher past the first lease finds nothing to send; the one attempt is recorded', async () => {
    const p = await t.partner()
    const endpoint = (await p.post('/webhooks', { url: receiver.url, events: ['game.created'] })).body.data
    // The dispatcher's clock stands a minute ahead, so the events the test creates meanwhile are due.
    let now = Date.now() + 60_000
    const clock: Clock = { now: () => now }
    receiver.script('hang')
    // A timeout far beyond the lease: the attempt stays out for as long as the test holds it.
    const first = await dispatcher({ timeoutMs: 600_000 }, LEASE_MS, clock)
    const league = (await p.post('/leagues', { name: 'L' })).body.data
    await p.post(`/leagues/${league.id}/games`, { games: [{ startsAt: '2026-05-01T18:00:00Z' }] })
    await eventually(() => expect(receiver.received).toHaveLength(1))
    const leaseOf = () =>
      t.deps.db
        .selectFrom('webhook_deliveries')
        .select(['lease_owner', 'lease_until'])
        .where('endpoint_id', '=', endpoint.id)
        .executeTakeFirstOrThrow()
    const leased = await leaseOf()
    expect(leased.lease_owner).toBe(first.owner)

    now += LEASE_MS / 2
    await vi.waitFor(async () => expect((await leaseOf()).lease_until! > leased.lease_until!).toBe(true), {
      timeout: 20_000,
      interval: 20,
    })
    // Past the first lease's end, within the renewed one: what another dispatcher's lease finds.
    now = Date.parse(leased.lease_until!) + 1000
    const second = {
      owner: 'second-dispatcher',
      now: iso(now),
      until: iso(now + LEASE_MS),
      limit: 10,
      room: new Map<string, number>(),
      defaultRoom: 4,
      sourceRoom: new Map<string, number>(),
      defaultSourceRoom: 8,
      exclude: [],
    }
    expect(await leaseDue(t.deps.db, second)).toEqual([])
    expect(await leaseOf()).toMatchObject({ lease_owner: first.owner })

    receiver.answerHung(200)
    await eventually(async () => {
      const [delivery] = (await p.get(`/webhooks/${endpoint.id}/deliveries`)).body.data
      expect(delivery).toMatchObject({ status: 'succeeded', attempts: 1, lastStatusCode: 200 })
    })
    expect(receiver.received).toHaveLength(1)
  })
})
