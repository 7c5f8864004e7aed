// The dispatcher's units on their own: pacing, endpoint queues, group commit and what an attempt's result
// means for its delivery. No database and no network; timers are faked.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { DeliveryJob } from '../../src/store/leases.js'
import { EndpointQueues } from '../../src/webhooks/endpoint-queues.js'
import { groupCommit } from '../../src/webhooks/group-commit.js'
import { outcomeOf } from '../../src/webhooks/outcome.js'
import { MAX_BATCH_FACTOR, Pacing } from '../../src/webhooks/pacing.js'

const job = (id: string, endpointId: string, attempts = 0, source = 's1'): DeliveryJob => ({
  id,
  endpointId,
  source,
  attempts,
  leaseUntil: '2030-01-01T00:00:30.000Z',
  url: 'https://hooks.example/x',
  secret: 'sec_x',
  eventId: `evt_${id}`,
  event: 'game.created',
  createdAt: '2030-01-01T00:00:00.000Z',
  data: '{}',
})

describe('Pacing', () => {
  it('gives an endpoint of unknown pace its concurrency', () => {
    const pacing = new Pacing(4, 10_000)
    expect(pacing.capacity()).toBe(4)
    expect(pacing.capacity('e1')).toBe(4)
  })

  it('gives a fast endpoint as many rounds as fit in half a lease, up to the batch factor', () => {
    const pacing = new Pacing(4, 10_000)
    pacing.observe('slow', 2_500)
    pacing.observe('quick', 500)
    pacing.observe('instant', 0)
    expect(pacing.capacity('slow')).toBe(4 * 2)
    expect(pacing.capacity('quick')).toBe(4 * 10)
    expect(pacing.capacity('instant')).toBe(4 * MAX_BATCH_FACTOR)
  })

  it('keeps at least one round for an endpoint slower than half a lease', () => {
    const pacing = new Pacing(4, 10_000)
    pacing.observe('e1', 60_000)
    expect(pacing.capacity('e1')).toBe(4)
  })

  it('follows a moving average: one slow attempt does not undo a fast pace', () => {
    const pacing = new Pacing(1, 10_000)
    pacing.observe('e1', 100)
    pacing.observe('e1', 1_100)
    expect(pacing.capacity('e1')).toBe(Math.floor(5_000 / 300))
  })
})

describe('EndpointQueues', () => {
  it('counts room per endpoint and asks for a lease once a queue has drained to half', () => {
    const queues = new EndpointQueues()
    queues.add([job('a', 'e1'), job('b', 'e1'), job('c', 'e1')], new Map())
    const capacity = () => 4
    expect(queues.room(capacity, 8)).toEqual({
      room: new Map([['e1', 1]]),
      sourceRoom: new Map([['s1', 5]]),
      known: 1,
      lowQueue: false,
    })
    const started = [...queues.startable(4, 8, () => true)]
    expect(started.map((j) => j.id)).toEqual(['a', 'b', 'c'])
    expect(queues.waiting).toBe(0)
    for (const j of started.slice(0, 2)) queues.begin(j)
    expect(queues.room(capacity, 8)).toEqual({
      room: new Map([['e1', 2]]),
      sourceRoom: new Map([['s1', 6]]),
      known: 2,
      lowQueue: true,
    })
  })

  it('starts at most perEndpoint per endpoint and stops when mayStart says so', () => {
    const queues = new EndpointQueues()
    queues.add([job('a', 'e1'), job('b', 'e1'), job('c', 'e2'), job('d', 'e2')], new Map())
    const taken: string[] = []
    for (const j of queues.startable(1, 8, () => queues.sending < 10)) {
      queues.begin(j)
      taken.push(j.id)
    }
    expect(taken).toEqual(['a', 'c'])
    expect(queues.sending).toBe(2)
    expect([...queues.startable(5, 8, () => false)]).toEqual([])
    expect(queues.waiting).toBe(2)
  })

  it('takes turns between sources and holds each at its share, however many endpoints it has', () => {
    const queues = new EndpointQueues()
    // Source s1: 16 endpoints with 4 jobs each (a partner whose endpoints hang); s2: one endpoint, 3 jobs.
    const s1 = Array.from({ length: 64 }, (_, i) => job(`a${i}`, `e${i % 16}`, 0, 's1'))
    queues.add([...s1, job('b0', 'x', 0, 's2'), job('b1', 'x', 0, 's2'), job('b2', 'x', 0, 's2')], new Map())
    const taken: string[] = []
    for (const j of queues.startable(4, 8, () => queues.sending < 32)) {
      queues.begin(j)
      taken.push(j.id)
    }
    // s2 gets its turn at once, round-robin with s1, up to its own endpoint's bound; s1 stops at 8, one per
    // endpoint in turn.
    expect(taken.slice(0, 6)).toEqual(['a0', 'b0', 'a1', 'b1', 'a2', 'b2'])
    expect(taken.filter((id) => id.startsWith('a'))).toEqual(['a0', 'a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7'])
    expect(queues.sending).toBe(11)
    // s1 may lease nothing more while it holds 64 (8 in flight); s2 has room for 5 more (8 - 3).
    const { sourceRoom } = queues.room(() => 4, 8)
    expect(sourceRoom).toEqual(
      new Map([
        ['s1', 8 - 64],
        ['s2', 5],
      ]),
    )
  })

  it('lets a source of fast endpoints hold as many rounds as its fastest endpoint', () => {
    const queues = new EndpointQueues()
    queues.add([job('a', 'fast', 0, 's1')], new Map())
    const capacity = (endpointId?: string) => (endpointId === 'fast' ? 4 * 10 : 4)
    expect(queues.room(capacity, 8).sourceRoom).toEqual(new Map([['s1', 8 * 10 - 1]]))
  })

  it('ends an attempt once, however often it is told', () => {
    const queues = new EndpointQueues()
    queues.add([job('a', 'e1')], new Map())
    const [started] = [...queues.startable(1, 8, () => true)]
    const end = queues.begin(started!)
    end()
    end()
    expect(queues.sending).toBe(0)
  })

  it('forgets an idle queue only once a lease found it dry, and drains every waiting job', () => {
    const queues = new EndpointQueues()
    queues.add([job('a', 'e1')], new Map())
    for (const j of queues.startable(1, 8, () => true)) queues.begin(j)()
    expect(queues.room(() => 4, 8).room.has('e1')).toBe(true)
    queues.add([], new Map([['e1', 4]]))
    expect([...queues.startable(1, 8, () => true)]).toEqual([])
    expect(queues.room(() => 4, 8).room.has('e1')).toBe(false)

    queues.add([job('b', 'e2'), job('c', 'e3')], new Map())
    expect(queues.drain().map((j) => j.id)).toEqual(['b', 'c'])
    expect(queues.waiting).toBe(0)
  })
})

describe('groupCommit', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('writes the items of one window together, each caller getting its own result', async () => {
    const writes: number[][] = []
    const commit = groupCommit(
      async (items: number[]) => {
        writes.push(items)
        return items.map((n) => n * 10)
      },
      { windowMs: 25, maxBatch: 100 },
    )
    const results = Promise.all([commit.add(1), commit.add(2), commit.add(3)])
    expect(writes).toEqual([])
    await vi.advanceTimersByTimeAsync(25)
    expect(await results).toEqual([10, 20, 30])
    expect(writes).toEqual([[1, 2, 3]])
  })

  it('writes at once when a batch fills, and never two writes at a time', async () => {
    const writes: number[][] = []
    let release: () => void = () => {}
    const commit = groupCommit(
      async (items: number[]) => {
        writes.push(items)
        await new Promise<void>((r) => (release = r))
        return items.map(() => true)
      },
      { windowMs: 1_000, maxBatch: 2 },
    )
    const first = [commit.add(1), commit.add(2)]
    await vi.advanceTimersByTimeAsync(0)
    expect(writes).toEqual([[1, 2]])
    const second = [commit.add(3), commit.add(4), commit.add(5)]
    await vi.advanceTimersByTimeAsync(0)
    expect(writes).toHaveLength(1)
    release()
    await Promise.all(first)
    await vi.advanceTimersByTimeAsync(0)
    expect(writes).toEqual([
      [1, 2],
      [3, 4, 5],
    ])
    release()
    expect(await Promise.all(second)).toEqual([true, true, true])
  })

  it('fails every item of a failed write, and goes on with the next', async () => {
    let fail = true
    const commit = groupCommit(
      async (items: number[]) => {
        if (fail) throw new Error('disk full')
        return items
      },
      { windowMs: 5, maxBatch: 10 },
    )
    const lost = [commit.add(1), commit.add(2)].map((p) => p.catch((e: Error) => e.message))
    await vi.advanceTimersByTimeAsync(5)
    expect(await Promise.all(lost)).toEqual(['disk full', 'disk full'])
    fail = false
    const kept = commit.add(3)
    await vi.advanceTimersByTimeAsync(5)
    expect(await kept).toBe(3)
  })
})

describe('outcomeOf', () => {
  const lease = { owner: 'me', until: '2030-01-01T00:00:30.000Z' }
  const timing = { started: Date.UTC(2030, 0, 1), finished: Date.UTC(2030, 0, 1) + 120 }
  const schedule = [0, 5_000, 300_000]

  it('a 2xx: succeeded, delivered when it finished, no next attempt', () => {
    const { outcome, delay } = outcomeOf(
      job('d1', 'e1'),
      lease,
      { ok: true, statusCode: 204, error: null },
      schedule,
      timing,
    )
    expect(delay).toBeNull()
    expect(outcome).toEqual({
      lease,
      attempt: {
        delivery_id: 'd1',
        attempted_at: '2030-01-01T00:00:00.000Z',
        status_code: 204,
        error: null,
        duration_ms: 120,
      },
      status: 'succeeded',
      attempts: 1,
      nextAttemptAt: null,
      deliveredAt: '2030-01-01T00:00:00.120Z',
    })
  })

  it('a failure with attempts left: pending, due after the schedule’s next delay', () => {
    const { outcome, delay } = outcomeOf(
      job('d1', 'e1', 1),
      lease,
      { ok: false, statusCode: 500, error: 'http_status' },
      schedule,
      timing,
    )
    expect(delay).toBe(300_000)
    expect(outcome).toMatchObject({
      status: 'pending',
      attempts: 2,
      nextAttemptAt: '2030-01-01T00:05:00.120Z',
    })
  })

  it('the last attempt failing: failed for good', () => {
    const { outcome, delay } = outcomeOf(
      job('d1', 'e1', 2),
      lease,
      { ok: false, statusCode: null, error: 'timeout' },
      schedule,
      timing,
    )
    expect(delay).toBeNull()
    expect(outcome).toMatchObject({ status: 'failed', attempts: 3, nextAttemptAt: null, deliveredAt: null })
  })
})
