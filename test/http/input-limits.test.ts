// Every string input has a maximum and must be well-formed Unicode: a longer value, or one carrying a lone
// UTF-16 surrogate, answers the field's own code and writes nothing, on SQLite and PostgreSQL alike.
import { describe, expect, it } from 'vitest'
import { MAX_LENGTH, MAX_SOURCE_LENGTH } from '../../src/schemas/common.js'
import { useTestApp, type Partner, type Reply } from '../helpers/app.js'

interface World {
  leagueId: string
  gameId: string
  positionId: string
}

interface Field {
  /** Which operation and field, for the test's name. */
  name: string
  max: number
  code: string
  /** A valid value of exactly `length` characters. */
  value(length: number): string
  send(p: Partner, w: World, value: string): Promise<Reply>
}

const filler = (prefix: string) => (length: number) => prefix + 'x'.repeat(length - prefix.length)
const plain = filler('')
const url = filler('https://hooks.example.com/')

const league = (p: Partner, body: object) => p.post('/leagues', { name: 'League', ...body })
const patchLeague = (p: Partner, w: World, body: object) => p.patch(`/leagues/${w.leagueId}`, body)
const game = (p: Partner, w: World, item: object) =>
  p.post(`/leagues/${w.leagueId}/games`, { games: [{ startsAt: '2026-05-01T18:00:00Z', ...item }] })
const patchGame = (p: Partner, w: World, body: object) => p.patch(`/games/${w.gameId}`, body)
const official = (p: Partner, w: World, body: object) =>
  p.post(`/leagues/${w.leagueId}/officials`, { externalId: 'ref-2', ...body })
const assign = (p: Partner, w: World, body: object) => p.post(`/games/${w.gameId}/assign`, body)

const FIELDS: Field[] = [
  {
    name: 'POST /leagues name',
    max: MAX_LENGTH.name,
    code: 'invalid_name',
    value: plain,
    send: (p, _w, v) => league(p, { name: v }),
  },
  {
    name: 'POST /leagues externalId',
    max: MAX_LENGTH.externalId,
    code: 'invalid_externalId',
    value: plain,
    send: (p, _w, v) => league(p, { externalId: v }),
  },
  {
    name: 'POST /leagues source',
    max: MAX_SOURCE_LENGTH,
    code: 'invalid_source',
    value: plain,
    send: (p, _w, v) => league(p, { source: v }),
  },
  {
    name: 'POST /leagues currency',
    max: 3,
    code: 'invalid_currency',
    value: plain,
    send: (p, _w, v) => league(p, { currency: v }),
  },
  {
    name: 'PATCH /leagues name',
    max: MAX_LENGTH.name,
    code: 'invalid_name',
    value: plain,
    send: (p, w, v) => patchLeague(p, w, { name: v }),
  },
  {
    name: 'PATCH /leagues currency',
    max: 3,
    code: 'invalid_currency',
    value: plain,
    send: (p, w, v) => patchLeague(p, w, { currency: v }),
  },
  {
    name: 'POST games sport',
    max: MAX_LENGTH.sport,
    code: 'invalid_sport',
    value: plain,
    send: (p, w, v) => game(p, w, { sport: v }),
  },
  {
    name: 'POST games location',
    max: MAX_LENGTH.location,
    code: 'invalid_location',
    value: plain,
    send: (p, w, v) => game(p, w, { location: v }),
  },
  {
    name: 'POST games venue',
    max: MAX_LENGTH.venue,
    code: 'invalid_venue',
    value: plain,
    send: (p, w, v) => game(p, w, { venue: v }),
  },
  {
    name: 'POST games label',
    max: MAX_LENGTH.label,
    code: 'invalid_label',
    value: plain,
    send: (p, w, v) => game(p, w, { label: v }),
  },
  {
    name: 'POST games externalId',
    max: MAX_LENGTH.externalId,
    code: 'invalid_externalId',
    value: plain,
    send: (p, w, v) => game(p, w, { externalId: v }),
  },
  {
    name: 'POST games source',
    max: MAX_SOURCE_LENGTH,
    code: 'invalid_source',
    value: plain,
    send: (p, w, v) =>
      p.post(`/leagues/${w.leagueId}/games`, { source: v, games: [{ startsAt: '2026-05-01T18:00:00Z' }] }),
  },
  {
    name: 'PATCH /games sport',
    max: MAX_LENGTH.sport,
    code: 'invalid_sport',
    value: plain,
    send: (p, w, v) => patchGame(p, w, { sport: v }),
  },
  {
    name: 'PATCH /games location',
    max: MAX_LENGTH.location,
    code: 'invalid_location',
    value: plain,
    send: (p, w, v) => patchGame(p, w, { location: v }),
  },
  {
    name: 'POST officials externalId',
    max: MAX_LENGTH.externalId,
    code: 'invalid_externalId',
    value: plain,
    send: (p, w, v) => official(p, w, { externalId: v }),
  },
  {
    name: 'POST officials name',
    max: MAX_LENGTH.name,
    code: 'invalid_name',
    value: plain,
    send: (p, w, v) => official(p, w, { name: v }),
  },
  {
    name: 'POST officials email',
    max: MAX_LENGTH.email,
    code: 'invalid_email',
    value: filler('ref@'),
    send: (p, w, v) => official(p, w, { email: v }),
  },
  {
    name: 'POST assign userId',
    max: MAX_LENGTH.id,
    code: 'invalid_userId',
    value: plain,
    send: (p, w, v) => assign(p, w, { userId: v }),
  },
  {
    name: 'POST assign positionId',
    max: MAX_LENGTH.id,
    code: 'invalid_positionId',
    value: plain,
    send: (p, w, v) => assign(p, w, { externalId: 'ref-1', positionId: v }),
  },
  {
    name: 'POST assign externalId',
    max: MAX_LENGTH.externalId,
    code: 'invalid_externalId',
    value: plain,
    send: (p, w, v) => assign(p, w, { externalId: v }),
  },
  {
    name: 'POST /webhooks url',
    max: MAX_LENGTH.url,
    code: 'invalid_url',
    value: url,
    send: (p, _w, v) => p.post('/webhooks', { url: v }),
  },
  {
    name: 'POST /webhooks source',
    max: MAX_SOURCE_LENGTH,
    code: 'invalid_source',
    value: plain,
    send: (p, _w, v) => p.post('/webhooks', { url: 'https://hooks.example.com/x', source: v }),
  },
]

describe('input limits', () => {
  const t = useTestApp()

  async function world(p: Partner): Promise<World> {
    const leagueId = (await p.post('/leagues', { name: 'L', externalId: 'L1' })).body.data.id
    const created = (
      await p.post(`/leagues/${leagueId}/games`, {
        games: [{ startsAt: '2026-05-01T18:00:00Z', sport: 'soccer', externalId: 'G1' }],
      })
    ).body.data.created[0]
    await p.post(`/leagues/${leagueId}/officials`, { externalId: 'ref-1', email: 'ref@example.com' })
    return { leagueId, gameId: created.id, positionId: created.positions[0].id }
  }

  /** Everything a refused request could have written: rows as the partner sees them, and the events. */
  async function snapshot(p: Partner, w: World) {
    const events = await t.deps.db
      .selectFrom('outbox_events')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow()
    const users = await t.deps.db
      .selectFrom('users')
      .selectAll()
      .where('source', '=', p.source)
      .orderBy('seq')
      .execute()
    return {
      leagues: (await p.get('/leagues')).body,
      league: (await p.get(`/leagues/${w.leagueId}`)).body,
      game: (await p.get(`/games/${w.gameId}`)).body,
      webhooks: (await p.get('/webhooks')).body,
      users,
      events: Number(events.n),
    }
  }

  async function expectRefused(field: Field, value: string, code: string) {
    const p = await t.partner()
    const w = await world(p)
    const before = await snapshot(p, w)
    expect(await field.send(p, w, value)).toMatchObject({ status: 400, body: { error: code } })
    expect(await snapshot(p, w)).toEqual(before)
  }

  it.each(FIELDS.map((f) => [f.name, f] as const))(
    '%s: one character over the maximum is refused',
    async (_n, field) => expectRefused(field, field.value(field.max + 1), field.code),
  )

  it.each(FIELDS.map((f) => [f.name, f] as const))('%s: a lone surrogate is refused', async (_n, field) => {
    for (const surrogate of ['\ud800', '\udfff']) {
      const value = field.value(Math.min(field.max, 40)).slice(0, -2) + surrogate + 'x'
      await expectRefused(field, value, field.code)
    }
  })

  it('accepts each text field at its maximum, and stores it intact', async () => {
    const p = await t.partner()
    const name = 'é'.repeat(MAX_LENGTH.name)
    const created = await p.post('/leagues', { name, externalId: 'x'.repeat(MAX_LENGTH.externalId) })
    expect(created).toMatchObject({ status: 201, body: { data: { name } } })
    const item = {
      startsAt: '2026-05-01T18:00:00Z',
      sport: 's'.repeat(MAX_LENGTH.sport),
      location: 'l'.repeat(MAX_LENGTH.location),
      label: 'b'.repeat(MAX_LENGTH.label),
    }
    const games = await p.post(`/leagues/${created.body.data.id}/games`, { games: [item] })
    expect(games.status).toBe(201)
    expect(games.body.data.created[0]).toMatchObject({ sport: item.sport, location: item.location })
    const hook = await p.post('/webhooks', { url: url(MAX_LENGTH.url) })
    expect(hook).toMatchObject({ status: 201, body: { data: { url: url(MAX_LENGTH.url) } } })
  })

  // docs/decisions.md: a limit counts code points (as zod's max and JSON Schema's maxLength do), so an
  // astral character (4 bytes in UTF-8, a surrogate pair in UTF-16) counts once.
  it('counts lengths in code points: a 4-byte character at the limit is accepted, one more refused', async () => {
    const p = await t.partner()
    const astral = (n: number) => '\u{1F3DF}'.repeat(n)
    expect(astral(1)).toHaveLength(2)
    const name = astral(MAX_LENGTH.name)
    const created = await league(p, { name, externalId: astral(MAX_LENGTH.externalId) })
    expect(created).toMatchObject({ status: 201, body: { data: { name } } })
    const leagueId = created.body.data.id as string
    expect((await p.get(`/leagues/${leagueId}`)).body.data.name).toBe(name)
    expect(await league(p, { name: astral(MAX_LENGTH.name + 1) })).toMatchObject({
      status: 400,
      body: { error: 'invalid_name' },
    })
    const item = {
      startsAt: '2026-05-01T18:00:00Z',
      sport: astral(MAX_LENGTH.sport),
      location: astral(MAX_LENGTH.location),
      label: astral(MAX_LENGTH.label),
    }
    const games = await p.post(`/leagues/${leagueId}/games`, { games: [item] })
    expect(games.status).toBe(201)
    expect(games.body.data.created[0]).toMatchObject({ sport: item.sport, location: item.location })
    expect(games.body.data.created[0].positions[0].label).toBe(item.label)
    const over = await p.post(`/leagues/${leagueId}/games`, {
      games: [{ ...item, sport: astral(MAX_LENGTH.sport + 1) }],
    })
    expect(over).toMatchObject({ status: 400, body: { error: 'invalid_sport' } })
  })

  it('surrogate pairs (astral characters) are ordinary text, and two of them never collide', async () => {
    const p = await t.partner()
    const w = await world(p)
    const first = await official(p, w, { externalId: 'ref-🏟️', name: '𝒜nn' })
    const second = await official(p, w, { externalId: 'ref-🥅', name: 'Bea' })
    expect(first).toMatchObject({ status: 201, body: { data: { externalId: 'ref-🏟️', name: '𝒜nn' } } })
    expect(second.body.data.userId).not.toBe(first.body.data.userId)
    const again = await official(p, w, { externalId: 'ref-🏟️' })
    expect(again.body.data.userId).toBe(first.body.data.userId)
  })

  it('a lone surrogate never reaches the upsert keys: \\ud800 and \\udfff create nothing to collide', async () => {
    const p = await t.partner()
    const w = await world(p)
    for (const externalId of ['x\ud800', 'x\udfff']) {
      expect(await official(p, w, { externalId })).toMatchObject({ body: { error: 'invalid_externalId' } })
      expect(await league(p, { externalId })).toMatchObject({ body: { error: 'invalid_externalId' } })
      expect(await game(p, w, { externalId })).toMatchObject({ body: { error: 'invalid_externalId' } })
    }
    expect((await p.get('/leagues')).body.data).toHaveLength(1)
    expect((await p.get(`/leagues/${w.leagueId}/officials`)).body.data).toHaveLength(1)
    expect((await p.get(`/leagues/${w.leagueId}/games`)).body.data).toHaveLength(1)
  })

  it('an over-long startsAt is not parsed, though the lenient parser would take it', async () => {
    const p = await t.partner()
    const w = await world(p)
    // V8 reads a parenthesised comment after a date; this one stretches a valid time past the maximum.
    const startsAt = `May 1 2026 18:00 UTC (${'x'.repeat(MAX_LENGTH.startsAt)})`
    expect(Number.isNaN(new Date(startsAt).getTime())).toBe(false)
    const res = await game(p, w, { startsAt })
    expect(res).toMatchObject({ status: 400, body: { error: `invalid_startsAt:${startsAt}` } })
    expect((await patchGame(p, w, { startsAt })).body).toEqual({ error: `invalid_startsAt:${startsAt}` })
  })

  it('a startsAt with a lone surrogate or a NUL is refused, though the lenient parser would take it', async () => {
    const p = await t.partner()
    const w = await world(p)
    // The fuzzer's case: V8 reads this as 2001-01-01, and the surrogate would be stored as U+FFFD.
    for (const startsAt of ['f^>ok\ud83c$dZq.?1', 'May 1 2026 18:00 UTC \u0000']) {
      expect(Number.isNaN(new Date(startsAt).getTime())).toBe(false)
      const res = await game(p, w, { startsAt, externalId: 'surrogate' })
      expect(res).toMatchObject({ status: 400, body: { error: `invalid_startsAt:${startsAt}` } })
      expect((await patchGame(p, w, { startsAt })).body).toEqual({ error: `invalid_startsAt:${startsAt}` })
    }
    const games = (await p.get(`/leagues/${w.leagueId}/games`)).body.data
    expect(games.map((g: { startsAt: string }) => g.startsAt)).toEqual(['2026-05-01T18:00:00.000Z'])
  })

  it('an over-long or ill-formed positionId on unassign names no position', async () => {
    const p = await t.partner()
    const w = await world(p)
    const res = await p.delete(`/games/${w.gameId}/assign?positionId=${'x'.repeat(MAX_LENGTH.id + 1)}`)
    expect(res).toMatchObject({ status: 404, body: { error: 'position_not_found' } })
  })
})
