// Issue 21 item 3: the spec's unpaged lists are written in slices that yield to the event loop, and the
// answer is byte for byte what the serializer wrote before (the response schema's parse, then
// JSON.stringify), headers included.
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { authenticate } from '../../src/domain/partners/api-keys.js'
import { slicedJson } from '../../src/http/sliced-json.js'
import { REST_OPERATIONS } from '../../src/operations/index.js'
import { envelopeOf, splitResult, type ParsedInput } from '../../src/operations/operation.js'
import { useTestApp } from '../helpers/app.js'

const GAMES = 300

describe('big lists in slices', () => {
  const t = useTestApp()

  it('answers every unbounded list byte for byte as the serializer did, with the same headers', async () => {
    const p = await t.partner()
    const leagueId = (await p.post('/leagues', { name: 'Big', externalId: 'big' })).body.data.id as string
    const games = Array.from({ length: GAMES }, (_, i) => ({
      externalId: `g-${i}`,
      startsAt: new Date(Date.UTC(2026, 4, 1) + i * 3_600_000).toISOString(),
      sport: 'soccer',
      location: `Field ${i % 7} – “north” \u{1F3DF}`,
      payDollars: 45.5,
      ...(i % 3 === 0 && { latitude: 40.7, longitude: -74 }),
    }))
    expect((await p.post(`/leagues/${leagueId}/games`, { games })).status).toBe(201)
    const official = await p.post(`/leagues/${leagueId}/officials`, { externalId: 'ref', name: 'Ré' })
    const userId = official.body.data.userId as string
    // Every position claimed, so the assignments list is long too.
    await sql`insert into claims (id, position_id, user_id, status, created_at)
              select 'clm_' || p.id, p.id, ${userId}, 'confirmed', '2026-04-01T00:00:00.000Z'
              from positions p join games g on g.id = p.game_id where g.league_id = ${leagueId}`.execute(
      t.deps.db,
    )
    await sql`update positions set status = 'claimed'
              where game_id in (select id from games where league_id = ${leagueId})`.execute(t.deps.db)
    await sql`update games set status = 'claimed' where league_id = ${leagueId}`.execute(t.deps.db)

    const caller = (await authenticate(t.deps, `Bearer ${p.key}`))!
    const urls: Record<string, string> = {
      listLeagues: '/leagues',
      getLeague: `/leagues/${leagueId}`,
      listGames: `/leagues/${leagueId}/games`,
      listAssignments: `/leagues/${leagueId}/assignments`,
      listOfficials: `/leagues/${leagueId}/officials`,
      listPayments: `/leagues/${leagueId}/payments`,
    }
    const unbounded = REST_OPERATIONS.filter((o) => o.unbounded).map((o) => o.operationId)
    expect(unbounded.sort()).toEqual(Object.keys(urls).sort())
    for (const operation of REST_OPERATIONS.filter((o) => o.unbounded)) {
      const input = { caller, params: { leagueId }, query: {}, body: undefined } as unknown as ParsedInput
      const before = JSON.stringify(
        envelopeOf(operation).parse(splitResult(operation, await operation.handle(t.deps, input)).body),
      )
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/v1${urls[operation.operationId]}`,
        headers: { authorization: `Bearer ${p.key}` },
      })
      expect(res.statusCode).toBe(200)
      expect(res.body).toBe(before)
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
      expect(res.headers['content-length']).toBe(String(Buffer.byteLength(before)))
      expect(res.headers['cache-control']).toBe('no-store')
    }
    const detail = JSON.parse(
      (await t.app.inject({ url: `/api/v1${urls.getLeague}`, headers: { authorization: `Bearer ${p.key}` } }))
        .body,
    )
    expect(detail.data.games).toHaveLength(GAMES)
  })

  it('yields to the event loop while it writes a long list, and writes what JSON.stringify(parse) would', async () => {
    const Item = z.object({
      id: z.string(),
      n: z.number().transform((n) => n * 2),
      tags: z.array(z.string()),
    })
    const Schema = z.object({
      data: z.object({ name: z.string(), items: z.array(Item), extra: z.string().optional() }),
      nextCursor: z.string().nullable(),
    })
    const value = {
      nextCursor: null,
      data: {
        stripped: 'unknown keys are dropped',
        items: Array.from({ length: 20_000 }, (_, i) => ({ tags: ['a', `"${i}"`], n: i, id: `i${i}`, x: 1 })),
        name: 'n',
      },
    }
    let turns = 0
    const ticker = setInterval(() => turns++, 0)
    try {
      const text = await slicedJson(Schema, value)
      expect(turns).toBeGreaterThan(0)
      expect(text).toBe(JSON.stringify(Schema.parse(value)))
    } finally {
      clearInterval(ticker)
    }
  })
})
