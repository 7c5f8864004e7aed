// The conflict rules (DESIGN "Availability and conflicts"): one person (an email address) across two
// partners' leagues, the travel buffer, blackouts and the daily limit, and where each path enforces them.
import { describe, expect, it } from 'vitest'
import { assignPosition, claimFor } from '../../src/domain/assignments/assignments.js'
import { addBlackout } from '../../src/domain/availability/availability.js'
import { CONSOLE_CALLER } from '../../src/domain/core/caller.js'
import { ApiError } from '../../src/domain/core/errors.js'
import * as users from '../../src/store/users.js'
import { useTestApp, type Partner } from '../helpers/app.js'
import { eventsOf, joinLeagueAs, uniqueEmail } from '../helpers/fixtures.js'

const SIX = '2030-05-01T18:00:00.000Z'

describe('conflict rules', () => {
  const t = useTestApp()

  async function league(p: Partner, settings: object = {}) {
    const res = await p.post('/leagues', { name: 'L', ...settings })
    expect(res.status).toBe(201)
    return res.body.data.id as string
  }

  async function game(p: Partner, leagueId: string, startsAt: string, item: object = {}) {
    const res = await p.post(`/leagues/${leagueId}/games`, { games: [{ startsAt, ...item }] })
    expect(res.status).toBe(201)
    return res.body.data.created[0] as { id: string; positions: { id: string }[] }
  }

  async function official(p: Partner, leagueId: string, email: string) {
    const res = await p.post(`/leagues/${leagueId}/officials`, { externalId: email, email })
    expect(res.status).toBe(201)
    return res.body.data.userId as string
  }

  const assign = (p: Partner, gameId: string, userId: string) => p.post(`/games/${gameId}/assign`, { userId })

  it('refuses a partner’s assign under refuse with the code alone, whatever partner holds the other game', async () => {
    const email = uniqueEmail('ann')
    const a = await t.partner()
    const b = await t.partner()
    const elsewhere = await league(a)
    const strict = await league(b, { conflictPolicy: 'refuse' })
    const lenient = await league(b)
    const held = await game(a, elsewhere, SIX, { location: 'Secret Park' })
    expect((await assign(a, held.id, await official(a, elsewhere, email))).status).toBe(200)

    const inStrict = await official(b, strict, email)
    // The person joined both leagues: only then does one league's game count in the other (DESIGN "Consent").
    await joinLeagueAs(t.deps, elsewhere, email)
    await joinLeagueAs(t.deps, strict, email)
    const clash = await game(b, strict, '2030-05-01T19:00:00.000Z')
    const refused = await assign(b, clash.id, inStrict)
    expect(refused).toMatchObject({ status: 409, body: { error: 'schedule_conflict' } })
    expect(JSON.stringify(refused.body)).not.toContain(held.id)
    expect((await eventsOf(t.deps.db, strict)).map((e) => e.event)).not.toContain('position.claimed')
    // `allow` (the default): the partner's assign succeeds as the spec says.
    const inLenient = await official(b, lenient, email)
    expect((await assign(b, (await game(b, lenient, SIX)).id, inLenient)).status).toBe(200)
  })

  it('keeps the travel buffer: a game starting within it after the other ends conflicts, one after it does not', async () => {
    const email = uniqueEmail('bo')
    const p = await t.partner()
    const leagueId = await league(p, { conflictPolicy: 'refuse', travelBufferMinutes: 30, gameMinutes: 60 })
    const userId = await official(p, leagueId, email)
    expect((await assign(p, (await game(p, leagueId, SIX)).id, userId)).status).toBe(200)
    // The first game ends at 19:00; 30 minutes of travel: 19:29 is too close, 19:30 is free.
    const close = await game(p, leagueId, '2030-05-01T19:29:00.000Z')
    expect((await assign(p, close.id, userId)).body).toEqual({ error: 'schedule_conflict' })
    const before = await game(p, leagueId, '2030-05-01T16:31:00.000Z')
    expect((await assign(p, before.id, userId)).body).toEqual({ error: 'schedule_conflict' })
    expect((await assign(p, (await game(p, leagueId, '2030-05-01T19:30:00.000Z')).id, userId)).status).toBe(
      200,
    )
  })

  it('refuses a second position of the same game', async () => {
    const p = await t.partner()
    const leagueId = await league(p, { conflictPolicy: 'refuse' })
    const userId = await official(p, leagueId, uniqueEmail('cy'))
    const g = await game(p, leagueId, SIX, { positions: [{}, {}] })
    expect((await assign(p, g.id, userId)).status).toBe(200)
    expect((await assign(p, g.id, userId)).body).toEqual({ error: 'schedule_conflict' })
  })

  it('holds one official to one position a game on every path: a partner’s allow and Assign anyway too', async () => {
    const p = await t.partner()
    const leagueId = await league(p)
    const userId = await official(p, leagueId, uniqueEmail('cyd'))
    const g = await game(p, leagueId, SIX, { positions: [{}, {}, {}] })
    const [first, second, third] = g.positions.map((x) => x.id) as [string, string, string]
    expect((await p.post(`/games/${g.id}/assign`, { userId, positionId: first })).status).toBe(200)
    // conflictPolicy `allow`: the partner's assign skips the person's time, never this rule.
    const refused = await p.post(`/games/${g.id}/assign`, { userId, positionId: second })
    expect(refused).toMatchObject({ status: 409, body: { error: 'schedule_conflict' } })
    const user = (await users.findUser(t.deps.db, userId))!
    const anyway = t.deps.db
      .transaction()
      .execute((trx) =>
        claimFor(
          trx,
          t.deps,
          { leagueId, gameId: g.id, positionId: third, user, by: 'organizer', inApp: false, force: true },
          '2030-04-01T00:00:00.000Z',
        ),
      )
    await expect(anyway).rejects.toMatchObject({ code: 'schedule_conflict' })
    const detail = (await p.get(`/games/${g.id}`)).body.data
    expect(detail.positions.map((x: { status: string }) => x.status)).toEqual(['claimed', 'open', 'open'])
  })

  it('refuses a blackout (official_unavailable) and a day over maxGamesPerDay in the league’s time zone', async () => {
    const email = uniqueEmail('di')
    const p = await t.partner()
    const leagueId = await league(p, {
      conflictPolicy: 'refuse',
      maxGamesPerDay: 1,
      timeZone: 'America/New_York',
    })
    const userId = await official(p, leagueId, email)
    await joinLeagueAs(t.deps, leagueId, email)
    await addBlackout(t.deps, { email }, { from: '2030-05-03T00:00:00.000Z', to: '2030-05-04T00:00:00.000Z' })
    const blocked = await game(p, leagueId, '2030-05-03T12:00:00.000Z')
    expect((await assign(p, blocked.id, userId)).body).toEqual({ error: 'official_unavailable' })
    // 10:00 and 23:30 New York on 1 May are one local day (the second is 2 May in UTC).
    expect((await assign(p, (await game(p, leagueId, '2030-05-01T14:00:00.000Z')).id, userId)).status).toBe(
      200,
    )
    const late = await game(p, leagueId, '2030-05-02T03:30:00.000Z')
    expect((await assign(p, late.id, userId)).body).toEqual({ error: 'daily_limit_reached' })
    const nextDay = await game(p, leagueId, '2030-05-02T14:00:00.000Z')
    expect((await assign(p, nextDay.id, userId)).status).toBe(200)
  })

  it('refuses an official’s own claim whatever the policy, and lets an organizer assign anyway', async () => {
    const email = uniqueEmail('ed')
    const p = await t.partner()
    const leagueId = await league(p)
    const userId = await official(p, leagueId, email)
    const first = await game(p, leagueId, SIX)
    expect((await assign(p, first.id, userId)).status).toBe(200)
    const clash = await game(p, leagueId, SIX, { positions: [{ minLevel: null }, { minLevel: 3 }] })
    const code = (promise: Promise<unknown>) =>
      promise.then(
        () => 'ok',
        (e: unknown) => (e instanceof ApiError ? e.code : String(e)),
      )
    // `refdesk app claim` is the official's own claim.
    expect(await code(assignPosition(t.deps, CONSOLE_CALLER, clash.id, { userId }))).toBe('schedule_conflict')
    const user = (await users.findUser(t.deps.db, userId))!
    const organizer = (positionId: string, force: boolean) =>
      t.deps.db
        .transaction()
        .execute((trx) =>
          claimFor(
            trx,
            t.deps,
            { leagueId, gameId: clash.id, positionId, user, by: 'organizer', inApp: true, force },
            '2030-04-01T00:00:00.000Z',
          ),
        )
    const [open, senior] = clash.positions.map((x) => x.id) as [string, string]
    expect(await code(organizer(open, false))).toBe('schedule_conflict')
    // Assign anyway overrides the person's time, never the level.
    expect(await code(organizer(senior, true))).toBe('level_too_low')
    expect(await code(organizer(open, true))).toBe('ok')
  })
})

describe('GET /leagues/{leagueId}/officials/{userId}/availability', () => {
  const t = useTestApp()

  it('answers merged busy intervals from every source, another partner’s game included, with no detail', async () => {
    const email = uniqueEmail('fay')
    const a = await t.partner()
    const b = await t.partner()
    const theirs = (await a.post('/leagues', { name: 'A', gameMinutes: 60 })).body.data.id
    const mine = (await b.post('/leagues', { name: 'B' })).body.data.id
    const inA = (await a.post(`/leagues/${theirs}/officials`, { externalId: 'f', email })).body.data.userId
    const inB = (await b.post(`/leagues/${mine}/officials`, { externalId: 'f', email })).body.data.userId
    await joinLeagueAs(t.deps, theirs, email)
    await joinLeagueAs(t.deps, mine, email)
    const held = (
      await a.post(`/leagues/${theirs}/games`, {
        games: [{ startsAt: '2030-05-01T18:00:00.000Z', location: 'Hidden Field' }],
      })
    ).body.data.created[0]
    expect((await a.post(`/games/${held.id}/assign`, { userId: inA })).status).toBe(200)
    // A blackout touching the game's end merges with it; another on a later day stays apart.
    await addBlackout(t.deps, { email }, { from: '2030-05-01T19:00:00.000Z', to: '2030-05-01T20:00:00.000Z' })
    await addBlackout(t.deps, { email }, { from: '2030-05-03T09:00:00.000Z', to: '2030-05-03T10:00:00.000Z' })
    const url = (q: string) => `/leagues/${mine}/officials/${inB}/availability${q}`
    const res = await b.get(url('?from=2030-05-01T00:00:00Z&to=2030-05-05T00:00:00Z'))
    expect(res).toMatchObject({ status: 200 })
    expect(res.body).toEqual({
      data: [
        { startsAt: '2030-05-01T18:00:00.000Z', endsAt: '2030-05-01T20:00:00.000Z' },
        { startsAt: '2030-05-03T09:00:00.000Z', endsAt: '2030-05-03T10:00:00.000Z' },
      ],
    })
    expect((await b.get(url('?from=2030-05-02T00:00:00Z&to=2030-05-03T00:00:00Z'))).body).toEqual({
      data: [],
    })
    for (const [q, code] of [
      ['?to=2030-05-05T00:00:00Z', 'invalid_from'],
      ['?from=soon&to=2030-05-05T00:00:00Z', 'invalid_from'],
      ['?from=2030-05-01T00:00:00Z', 'invalid_to'],
      ['?from=2030-05-01T00:00:00Z&to=2030-05-01T00:00:00Z', 'invalid_to'],
      ['?from=2030-05-01T00:00:00Z&to=2030-08-01T00:00:00Z', 'invalid_to'],
    ])
      expect(await b.get(url(q!)), q).toMatchObject({ status: 400, body: { error: code } })
    const q = '?from=2030-05-01T00:00:00Z&to=2030-05-05T00:00:00Z'
    // Another partner's league, and an official who is not in this league, read as ones that do not exist.
    expect(await b.get(`/leagues/${theirs}/officials/${inA}/availability${q}`)).toMatchObject({
      status: 404,
      body: { error: 'league_not_found' },
    })
    expect(await b.get(`/leagues/${mine}/officials/${inA}/availability${q}`)).toMatchObject({
      status: 404,
      body: { error: 'not_a_member' },
    })
  })
})
