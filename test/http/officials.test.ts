import { describe, expect, it } from 'vitest'
import { denyOfficial } from '../../src/domain/leagues/officials.js'
import { useTestApp, type Partner } from '../helpers/app.js'
import { eventsOf, seedGame } from '../helpers/fixtures.js'
import { CONSOLE_CALLER } from '../../src/domain/core/caller.js'

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

describe('officials', () => {
  const t = useTestApp()

  async function league(p: Partner, name = 'L'): Promise<string> {
    return (await p.post('/leagues', { name })).body.data.id
  }

  const events = (leagueId: string) => eventsOf(t.deps.db, leagueId)

  it('adds an official with a synthesized placeholder email and an empty name', async () => {
    const p = await t.partner()
    const leagueId = await league(p)
    const res = await p.post(`/leagues/${leagueId}/officials`, { externalId: 'ref-1' })
    expect(res.status).toBe(201)
    const official = res.body.data
    expect(official).toEqual({
      userId: expect.any(String),
      leagueId,
      status: 'approved',
      name: '',
      email: `official-${official.userId}@placeholder.refdesk.invalid`,
      externalId: 'ref-1',
      source: p.source,
      createdAt: expect.stringMatching(ISO),
      level: null,
      // Unconfirmed until the person joins the league (DESIGN "Consent").
      confirmed: false,
    })
    expect(await events(leagueId)).toEqual([{ event: 'official.joined', data: { leagueId, official } }])
  })

  it('trims and lowercases email; a re-post updates only the given fields and emits official.approved', async () => {
    const p = await t.partner()
    const leagueId = await league(p)
    const first = await p.post(`/leagues/${leagueId}/officials`, {
      externalId: 'ref-1',
      email: '  Ann.Ref@Example.COM ',
      name: 'Ann',
    })
    expect(first.body.data).toMatchObject({ email: 'ann.ref@example.com', name: 'Ann', status: 'approved' })

    const renamed = await p.post(`/leagues/${leagueId}/officials`, { externalId: 'ref-1', name: 'Ann B' })
    expect(renamed.status).toBe(201)
    expect(renamed.body.data).toEqual({ ...first.body.data, name: 'Ann B' })

    const emailed = await p.post(`/leagues/${leagueId}/officials`, {
      externalId: 'ref-1',
      email: 'ann@example.com',
      source: p.source,
    })
    expect(emailed.body.data).toEqual({ ...first.body.data, name: 'Ann B', email: 'ann@example.com' })

    expect((await events(leagueId)).map((e) => e.event)).toEqual([
      'official.joined',
      'official.approved',
      'official.approved',
    ])
    expect((await events(leagueId))[2]!.data).toEqual({ leagueId, official: emailed.body.data })
    expect((await p.get(`/leagues/${leagueId}/officials`)).body.data).toEqual([emailed.body.data])
  })

  it('the same user joins several leagues of the source as one user', async () => {
    const p = await t.partner()
    const [a, b] = [await league(p, 'A'), await league(p, 'B')]
    const inA = (await p.post(`/leagues/${a}/officials`, { externalId: 'ref-1', name: 'Ann' })).body.data
    const inB = (await p.post(`/leagues/${b}/officials`, { externalId: 'ref-1' })).body.data
    expect(inB).toMatchObject({ userId: inA.userId, leagueId: b, name: 'Ann', email: inA.email })
    expect((await events(b)).map((e) => e.event)).toEqual(['official.joined'])
  })

  it('honours only `pending`; a later call re-approves pending and denied memberships', async () => {
    const p = await t.partner()
    const leagueId = await league(p)
    const path = `/leagues/${leagueId}/officials`
    const pending = await p.post(path, { externalId: 'ref-1', status: 'pending' })
    expect(pending.body.data.status).toBe('pending')
    expect((await p.post(path, { externalId: 'ref-1' })).body.data.status).toBe('approved')
    expect((await p.post(path, { externalId: 'ref-1', status: 'pending' })).body.data.status).toBe('pending')
    expect((await p.post(path, { externalId: 'ref-1', status: 'denied' })).body.data.status).toBe('approved')
    expect((await p.post(path, { externalId: 'ref-2', status: 42 })).body.data.status).toBe('approved')

    await denyOfficial(t.deps, CONSOLE_CALLER, leagueId, pending.body.data.userId)
    expect((await p.get(path)).body.data[0].status).toBe('denied')
    const reapproved = await p.post(path, { externalId: 'ref-1' })
    expect(reapproved.body.data).toEqual({ ...pending.body.data, status: 'approved' })
    expect((await events(leagueId)).map((e) => e.event)).toEqual([
      'official.joined',
      'official.approved',
      'official.approved',
      'official.approved',
      'official.joined',
      'official.approved',
    ])
  })

  it('lists officials in every status, oldest first, without the organizer', async () => {
    const p = await t.partner()
    const leagueId = await league(p)
    const path = `/leagues/${leagueId}/officials`
    expect(await p.get(path)).toMatchObject({ status: 200, body: { data: [] } })
    const added = []
    for (const [externalId, status] of [
      ['c', 'approved'],
      ['a', 'pending'],
      ['b', 'approved'],
    ]) {
      added.push((await p.post(path, { externalId, status })).body.data)
    }
    await denyOfficial(t.deps, CONSOLE_CALLER, leagueId, added[2].userId)
    const list = await p.get(path)
    expect(list.status).toBe(200)
    expect(list.body.data).toEqual([added[0], added[1], { ...added[2], status: 'denied' }])
  })

  it('is race-safe under concurrent identical calls: one user, one membership, never a 5xx', async () => {
    const p = await t.partner()
    const leagueId = await league(p)
    const replies = await Promise.all(
      Array.from({ length: 12 }, () =>
        p.post(`/leagues/${leagueId}/officials`, { externalId: 'ref-1', name: 'Ann' }),
      ),
    )
    expect(replies.map((r) => r.status)).toEqual(Array(12).fill(201))
    expect(new Set(replies.map((r) => r.body.data.userId)).size).toBe(1)
    expect((await p.get(`/leagues/${leagueId}/officials`)).body.data).toHaveLength(1)
    const names = (await events(leagueId)).map((e) => e.event)
    expect(names.filter((n) => n === 'official.joined')).toHaveLength(1)
    expect(names.filter((n) => n === 'official.approved')).toHaveLength(11)
  })

  it.each([
    [{}, 'externalId_required'],
    [{ externalId: '' }, 'externalId_required'],
    [{ externalId: 5 }, 'invalid_externalId'],
    [{ externalId: 'x', source: 'app' }, 'source_reserved'],
    [{ externalId: 'x', source: 'someone-else' }, 'source_mismatch'],
    [{ externalId: 'x', source: 'x'.repeat(41) }, 'invalid_source'],
    [{ externalId: 'x', email: 5 }, 'invalid_email'],
    // An address list would mail everyone on it.
    [{ externalId: 'x', email: 'a@x.com, b@y.com' }, 'invalid_email'],
    [{ externalId: 'x', email: 'a@x.com;b@y.com' }, 'invalid_email'],
    [{ externalId: 'x', name: ['Ann'] }, 'invalid_name'],
    [[], 'invalid_json'],
  ])('POST officials %j → 400 %s, nothing written', async (body, code) => {
    const p = await t.partner()
    const leagueId = await league(p)
    expect(await p.post(`/leagues/${leagueId}/officials`, body)).toMatchObject({
      status: 400,
      body: { error: code },
    })
    expect((await p.get(`/leagues/${leagueId}/officials`)).body.data).toEqual([])
    expect(await events(leagueId)).toEqual([])
  })

  it('refuses the league’s organizer with 409 user_is_organizer and changes nothing', async () => {
    const p = await t.partner({ organizerExternalId: 'boss' })
    const leagueId = await league(p)
    const res = await p.post(`/leagues/${leagueId}/officials`, { externalId: 'boss', name: 'Renamed' })
    expect(res).toMatchObject({ status: 409, body: { error: 'user_is_organizer' } })
    expect((await p.get(`/leagues/${leagueId}/officials`)).body.data).toEqual([])
    expect(await events(leagueId)).toEqual([])
    const organizer = await t.deps.db
      .selectFrom('users')
      .select('name')
      .where('id', '=', p.organizerId)
      .executeTakeFirstOrThrow()
    expect(organizer.name).not.toBe('Renamed')
  })

  it('removes an official: claimed positions reopen (cancelled in a cancelled game), worked ones keep their claim', async () => {
    const p = await t.partner()
    const leagueId = await league(p)
    const official = (await p.post(`/leagues/${leagueId}/officials`, { externalId: 'ref-1', name: 'Ann' }))
      .body.data
    const other = (await p.post(`/leagues/${leagueId}/officials`, { externalId: 'ref-2' })).body.data
    const open = await seedGame(t.deps.db, leagueId, { startsAt: '2030-01-01T10:00:00.000Z' })
    const othersGame = await seedGame(t.deps.db, leagueId, { startsAt: '2030-01-02T10:00:00.000Z' })
    const cancelled = await seedGame(t.deps.db, leagueId, {
      status: 'cancelled',
      positions: [{ officialId: official.userId }],
    })
    const worked = await seedGame(t.deps.db, leagueId, {
      status: 'completed',
      positions: [{ status: 'completed', officialId: official.userId }],
    })
    expect((await p.post(`/games/${open.id}/assign`, { userId: official.userId })).status).toBe(200)
    expect((await p.post(`/games/${othersGame.id}/assign`, { userId: other.userId })).status).toBe(200)

    const res = await p.delete(`/leagues/${leagueId}/officials/${official.userId}`)
    expect(res).toMatchObject({ status: 200, body: { data: { removed: true } } })

    const statusOf = async (gameId: string) =>
      (
        await t.deps.db
          .selectFrom('games')
          .select('status')
          .where('id', '=', gameId)
          .executeTakeFirstOrThrow()
      ).status
    const positions = await t.deps.db
      .selectFrom('positions')
      .select(['id', 'status'])
      .where('id', 'in', [open.positionIds[0]!, cancelled.positionIds[0]!, worked.positionIds[0]!])
      .orderBy('seq')
      .execute()
    expect(positions).toEqual([
      { id: open.positionIds[0], status: 'open' },
      { id: cancelled.positionIds[0], status: 'cancelled' },
      { id: worked.positionIds[0], status: 'completed' },
    ])
    expect(await statusOf(open.id)).toBe('open')
    expect(await statusOf(cancelled.id)).toBe('cancelled')
    expect(await statusOf(worked.id)).toBe('completed')

    const assignments = (await p.get(`/leagues/${leagueId}/assignments`)).body.data
    expect(assignments.map((a: any) => [a.positionId, a.official.id])).toEqual([
      [othersGame.positionIds[0], other.userId],
      [worked.positionIds[0], official.userId],
    ])
    expect((await p.get(`/leagues/${leagueId}/officials`)).body.data).toEqual([other])
    const removed = (await events(leagueId)).at(-1)
    expect(removed).toEqual({
      event: 'official.removed',
      data: { leagueId, official, reopenedPositionIds: [open.positionIds[0], cancelled.positionIds[0]] },
    })
    expect(await p.delete(`/leagues/${leagueId}/officials/${official.userId}`)).toMatchObject({
      status: 404,
      body: { error: 'not_a_member' },
    })
  })

  it('removes a pending official without claims', async () => {
    const p = await t.partner()
    const leagueId = await league(p)
    const official = (await p.post(`/leagues/${leagueId}/officials`, { externalId: 'r', status: 'pending' }))
      .body.data
    expect((await p.delete(`/leagues/${leagueId}/officials/${official.userId}`)).status).toBe(200)
    expect((await events(leagueId)).at(-1)).toEqual({
      event: 'official.removed',
      data: { leagueId, official, reopenedPositionIds: [] },
    })
  })

  it('answers 404 not_a_member for non-members and 409 not_an_official for the organizer, emitting nothing', async () => {
    const p = await t.partner()
    const [leagueId, otherLeague] = [await league(p, 'A'), await league(p, 'B')]
    const elsewhere = (await p.post(`/leagues/${otherLeague}/officials`, { externalId: 'x' })).body.data
    for (const userId of ['no-such-user', elsewhere.userId]) {
      expect(await p.delete(`/leagues/${leagueId}/officials/${userId}`)).toMatchObject({
        status: 404,
        body: { error: 'not_a_member' },
      })
    }
    expect(await p.delete(`/leagues/${leagueId}/officials/${p.organizerId}`)).toMatchObject({
      status: 409,
      body: { error: 'not_an_official' },
    })
    expect(await events(leagueId)).toEqual([])
    expect((await p.get('/leagues')).body.data.find((l: any) => l.id === leagueId).memberCount).toBe(1)
  })

  it('hides other sources’ leagues on every officials endpoint exactly like nonexistent ones', async () => {
    const owner = await t.partner()
    const other = await t.partner()
    const leagueId = await league(owner)
    const official = (await owner.post(`/leagues/${leagueId}/officials`, { externalId: 'r' })).body.data
    for (const id of [leagueId, 'no-such-league']) {
      for (const res of [
        await other.get(`/leagues/${id}/officials`),
        await other.post(`/leagues/${id}/officials`, { externalId: 'r' }),
        await other.delete(`/leagues/${id}/officials/${official.userId}`),
      ]) {
        expect(res).toMatchObject({ status: 404, body: { error: 'league_not_found' } })
        expect(res.body).toEqual({ error: 'league_not_found' })
      }
    }
    expect((await owner.get(`/leagues/${leagueId}/officials`)).body.data).toEqual([official])
    expect((await events(leagueId)).map((e) => e.event)).toEqual(['official.joined'])
  })
})
