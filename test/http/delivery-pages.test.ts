// GET /webhooks/{webhookId}/deliveries page by page: `{data}` alone, the next page in a `Link` header (the
// MCP tool's result keeps `nextCursor`), newest first, and every
// delivery that existed when paging began read exactly once while new deliveries keep arriving (older,
// newer and at the very time of the cursor), on SQLite and PostgreSQL alike.
import { describe, expect, it } from 'vitest'
import { newId } from '../../src/clock.js'
import { authenticate } from '../../src/domain/partners/api-keys.js'
import { httpForward, inProcessForward } from '../../src/mcp/forward.js'
import { listWebhookDeliveriesOperation } from '../../src/operations/webhooks.js'
import { insertDeliveries } from '../../src/store/deliveries.js'
import type { DeliveryStatus } from '../../src/store/tables.js'
import { fanOut } from '../../src/webhooks/fan-out.js'
import { useTestApp, type Partner } from '../helpers/app.js'
import { listen } from '../mcp/clients.js'

const STATUSES: DeliveryStatus[] = ['pending', 'succeeded', 'failed']
const at = (minute: number) => new Date(Date.UTC(2026, 3, 1) + minute * 60_000).toISOString()

describe('paging an endpoint’s deliveries', () => {
  const t = useTestApp()

  async function endpoint(p: Partner) {
    return (await p.post('/webhooks', { url: 'https://hooks.example.com/h' })).body.data.id as string
  }

  /**
   * Inserts deliveries straight into the store, each with its event (an example, as the toolkit's test
   * sends, so it is the endpoint's whatever its leagues): `minute(i)` gives each one's creation time.
   */
  async function seed(endpointId: string, n: number, minute: (i: number) => number): Promise<string[]> {
    const events = Array.from({ length: n }, (_, i) => ({
      id: `evt_${newId()}`,
      event: 'game.created',
      league_id: newId(),
      data: '{}',
      created_at: at(minute(i)),
      fanned_out_at: at(minute(i)),
      test: 1,
    }))
    await t.deps.db.insertInto('outbox_events').values(events).execute()
    const rows = Array.from({ length: n }, (_, i) => ({
      id: newId(),
      endpoint_id: endpointId,
      event_id: events[i]!.id,
      event: 'game.created',
      status: STATUSES[i % 3]!,
      attempts: 0,
      created_at: at(minute(i)),
      next_attempt_at: null,
      source: 'delivery-pages',
    }))
    await t.deps.db.transaction().execute((trx) => insertDeliveries(trx, rows))
    return rows.map((r) => r.id)
  }

  type Page = { data: { id: string; createdAt: string; status: string }[]; nextCursor: string | null }

  /** Reads every page; `between` runs after each page, before the next is asked for. */
  async function readAll(p: Partner, id: string, query: string, between?: (page: Page) => Promise<void>) {
    const seen: Page['data'] = []
    let cursor: string | null = null
    let pages = 0
    do {
      const res = await p.get(
        `/webhooks/${id}/deliveries?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      )
      expect(res.status).toBe(200)
      expect(Object.keys(res.body)).toEqual(['data'])
      const page: Page = { data: res.body.data, nextCursor: cursorOf(res.headers) }
      expect(Array.isArray(page.data)).toBe(true)
      seen.push(...page.data)
      cursor = page.nextCursor
      pages++
      if (between) await between(page)
    } while (cursor !== null)
    return { seen, pages }
  }

  /** The `cursor` of the `Link: <…>; rel="next"` header, which keeps the request's other query values. */
  function cursorOf(headers: Record<string, unknown>): string | null {
    const link = headers.link
    if (link === undefined) return null
    const match = /^<(\/api\/v1\/webhooks\/[^>?]+\/deliveries\?[^>]*)>; rel="next"$/.exec(String(link))
    expect(match).not.toBeNull()
    return new URL(match![1]!, 'http://x').searchParams.get('cursor')
  }

  const isNewestFirst = (rows: { createdAt: string }[]) =>
    rows.every((row, i) => i === 0 || rows[i - 1]!.createdAt >= row.createdAt)

  it('reads every delivery once, newest first, while deliveries arrive older, newer and at the cursor', async () => {
    const p = await t.partner()
    const id = await endpoint(p)
    // Five deliveries per minute, so pages split runs of equal times.
    const initial = await seed(id, 250, (i) => 1000 + Math.floor(i / 5))
    let arrived = 0
    const { seen, pages } = await readAll(p, id, 'limit=7', async (page) => {
      const last = page.data.at(-1)
      if (!last) return
      const cursorMinute = (Date.parse(last.createdAt) - Date.parse(at(0))) / 60_000
      await seed(id, 3, (i) => [5000, cursorMinute, -1 - arrived][i]!)
      arrived++
    })
    const ids = seen.map((d) => d.id)
    expect(new Set(ids).size).toBe(ids.length)
    expect(ids.filter((x) => initial.includes(x)).sort()).toEqual([...initial].sort())
    expect(isNewestFirst(seen)).toBe(true)
    expect(pages).toBeGreaterThanOrEqual(Math.ceil(250 / 7))
    // Each arrival older than everything is read (but the one after the last page); those newer than the
    // cursor, or at its very time, wait for the next reading.
    expect(seen.filter((d) => d.createdAt < at(0))).toHaveLength(arrived - 1)
    expect(seen).toHaveLength(250 + arrived - 1)
  })

  it('pages while imports and fan-out insert deliveries concurrently', async () => {
    const p = await t.partner()
    const id = await endpoint(p)
    const league = (await p.post('/leagues', { name: 'Busy' })).body.data
    const importGames = async (round: number) => {
      const games = Array.from({ length: 20 }, (_, i) => ({
        startsAt: '2026-07-01T10:00:00Z',
        externalId: `g-${round}-${i}`,
      }))
      expect((await p.post(`/leagues/${league.id}/games`, { games })).status).toBe(201)
      await fanOut(t.deps.db, t.deps.clock)
    }
    for (let round = 0; round < 5; round++) await importGames(round)
    const before = ((await readAll(p, id, 'limit=200')).seen as { id: string }[]).map((d) => d.id)
    expect(before).toHaveLength(100)

    const writer = (async () => {
      for (let round = 5; round < 15; round++) await importGames(round)
    })()
    const [{ seen }] = await Promise.all([readAll(p, id, 'limit=9'), writer])
    const ids = seen.map((d) => d.id)
    expect(new Set(ids).size).toBe(ids.length)
    expect(before.every((x) => ids.includes(x))).toBe(true)
    expect(isNewestFirst(seen)).toBe(true)
    const after = (await readAll(p, id, 'limit=200')).seen
    expect(after).toHaveLength(300)
    expect(isNewestFirst(after)).toBe(true)
  })

  it('filters by status across pages, and says null after the last page', async () => {
    const p = await t.partner()
    const id = await endpoint(p)
    await seed(id, 60, (i) => i)
    const all = (await readAll(p, id, 'limit=200')).seen
    const failed = (await readAll(p, id, 'status=failed&limit=4')).seen
    expect(failed.map((d) => d.id)).toEqual(all.filter((d) => d.status === 'failed').map((d) => d.id))
    expect(failed).toHaveLength(20)

    const first = await p.get(`/webhooks/${id}/deliveries`)
    expect(first.body).toEqual({ data: expect.any(Array) })
    expect(first.body.data).toHaveLength(50)
    const next = cursorOf(first.headers)
    expect(next).toEqual(expect.any(String))
    const byStatus = await p.get(`/webhooks/${id}/deliveries?status=failed&limit=4`)
    const link = new URL(/<([^>]+)>/.exec(String(byStatus.headers.link))![1]!, 'http://x')
    expect([link.searchParams.get('status'), link.searchParams.get('limit')]).toEqual(['failed', '4'])
    const rest = await p.get(`/webhooks/${id}/deliveries?cursor=${next}`)
    expect(rest.body).toEqual({ data: all.slice(50) })
    expect(rest.headers.link).toBeUndefined()
    expect((await p.get(`/webhooks/${id}/deliveries?limit=60`)).headers.link).toBeUndefined()
  })

  it('the MCP tool’s result keeps nextCursor, in process and through the stdio bridge’s HTTP forward', async () => {
    const p = await t.partner()
    const id = await endpoint(p)
    await seed(id, 5, (i) => i)
    const rest = await p.get(`/webhooks/${id}/deliveries?limit=2`)
    const expected = { data: rest.body.data, nextCursor: cursorOf(rest.headers) }
    const call = {
      operation: listWebhookDeliveriesOperation,
      params: { webhookId: id },
      query: { limit: '2' },
    }
    const caller = await authenticate(t.deps, `Bearer ${p.key}`)
    const log = { error: () => undefined }
    expect((await inProcessForward(t.deps, caller!, log)(call)).body).toEqual(expected)
    const base = (await listen(t.app)).replace(/\/mcp$/, '')
    expect((await httpForward(base, p.key)(call)).body).toEqual(expected)
    const last = { ...call, query: { limit: '5' } }
    expect((await httpForward(base, p.key)(last)).body).toMatchObject({ nextCursor: null })
  })

  it.each([
    ['cursor=nonsense', 'invalid_cursor'],
    [`cursor=${Buffer.from('["yesterday",1]').toString('base64url')}`, 'invalid_cursor'],
    [`cursor=${Buffer.from('["2026-04-01T00:00:00.000Z",-1]').toString('base64url')}`, 'invalid_cursor'],
    [`cursor=${'A'.repeat(300)}`, 'invalid_cursor'],
    ['status=lost', 'invalid_status_filter'],
  ])('refuses %s with %s', async (query, code) => {
    const p = await t.partner()
    const id = await endpoint(p)
    expect(await p.get(`/webhooks/${id}/deliveries?${query}`)).toMatchObject({
      status: 400,
      body: { error: code },
    })
  })

  it('answers another source’s endpoint like a missing one, cursor or not', async () => {
    const p = await t.partner()
    const other = await t.partner()
    const theirs = await endpoint(other)
    await seed(theirs, 3, (i) => i)
    const cursor = cursorOf((await other.get(`/webhooks/${theirs}/deliveries?limit=1`)).headers)
    for (const path of [`/webhooks/${theirs}/deliveries`, `/webhooks/${theirs}/deliveries?cursor=${cursor}`])
      expect(await p.get(path)).toMatchObject({ status: 404, body: { error: 'endpoint_not_found' } })
  })
})
