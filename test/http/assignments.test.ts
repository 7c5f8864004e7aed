import { describe, expect, it } from 'vitest'
import { grantLeague } from '../../src/domain/partners/api-keys.js'
import { denyOfficial } from '../../src/domain/leagues/officials.js'
import { useTestApp, type Partner } from '../helpers/app.js'
import { eventsOf, seedGame, seedPayment } from '../helpers/fixtures.js'
import { CONSOLE_CALLER } from '../../src/domain/core/caller.js'

describe('assignments', () => {
  const t = useTestApp()

  async function league(p: Partner, name = 'L'): Promise<string> {
    return (await p.post('/leagues', { name })).body.data.id
  }

  async function official(p: Partner, leagueId: string, externalId: string, extra: object = {}) {
    const res = await p.post(`/leagues/${leagueId}/officials`, { externalId, ...extra })
    expect(res.status).toBe(201)
    return res.body.data as { userId: string; name: string; email: string }
  }

  async function events(leagueId: string, prefix = 'position.') {
    return (await eventsOf(t.deps.db, leagueId)).filter((e) => e.event.startsWith(prefix))
  }

  const claimView = (o: { userId: string; name: string; email: string }) => ({
    id: o.userId,
    name: o.name,
    email: o.email,
    claimStatus: 'confirmed',
  })

  async function claimCount(positionId: string): Promise<number> {
    const rows = await t.deps.db
      .selectFrom('claims')
      .select('id')
      .where('position_id', '=', positionId)
      .execute()
    return rows.length
  }

  describe('POST /games/{gameId}/assign', () => {
    it('assigns by userId and answers 200 with the GameDetail; emits position.claimed', async () => {
      const p = await t.partner()
      const leagueId = await league(p)
      const ann = await official(p, leagueId, 'ann', { name: 'Ann', email: 'ann@example.com' })
      const game = await seedGame(t.deps.db, leagueId)
      const res = await p.post(`/games/${game.id}/assign`, { userId: ann.userId })
      expect(res.status).toBe(200)
      expect(res.body).toEqual({
        data: {
          id: game.id,
          leagueId,
          sport: 'soccer',
          startsAt: '2030-05-01T18:00:00.000Z',
          durationMinutes: 90,
          endsAt: '2030-05-01T19:30:00.000Z',
          location: 'Field 1',
          venue: null,
          status: 'claimed',
          latitude: null,
          longitude: null,
          source: p.source,
          externalId: null,
          positions: [
            {
              id: game.positionIds[0],
              label: 'Official',
              payCents: 2500,
              payDollars: 25,
              status: 'claimed',
              minLevel: null,
              official: claimView(ann),
              payment: null,
            },
          ],
        },
      })
      expect(await events(leagueId)).toEqual([
        {
          event: 'position.claimed',
          data: { leagueId, game: res.body.data, positionId: game.positionIds[0], official: claimView(ann) },
        },
      ])
    })

    it('assigns by externalId with an omitted or echoed source; userId takes precedence', async () => {
      const p = await t.partner()
      const leagueId = await league(p)
      const ann = await official(p, leagueId, 'ann')
      const bob = await official(p, leagueId, 'bob')
      const g1 = await seedGame(t.deps.db, leagueId)
      const g2 = await seedGame(t.deps.db, leagueId)
      const g3 = await seedGame(t.deps.db, leagueId)
      const byExternal = await p.post(`/games/${g1.id}/assign`, { externalId: 'ann' })
      expect(byExternal.body.data.positions[0].official.id).toBe(ann.userId)
      const echoed = await p.post(`/games/${g2.id}/assign`, { externalId: 'bob', source: p.source })
      expect(echoed.body.data.positions[0].official.id).toBe(bob.userId)
      const both = await p.post(`/games/${g3.id}/assign`, { userId: bob.userId, externalId: 'ann' })
      expect(both.body.data.positions[0].official.id).toBe(bob.userId)
    })

    it('defaults to the first open position in position order', async () => {
      const p = await t.partner()
      const leagueId = await league(p)
      const [ann, bob, cy] = [
        await official(p, leagueId, 'ann'),
        await official(p, leagueId, 'bob'),
        await official(p, leagueId, 'cy'),
      ]
      const game = await seedGame(t.deps.db, leagueId, {
        positions: [{ label: 'Referee', status: 'cancelled' }, { label: 'AR1' }, { label: 'AR2' }],
      })
      const first = await p.post(`/games/${game.id}/assign`, { userId: ann.userId })
      expect(first.body.data.status).toBe('open')
      expect(first.body.data.positions.map((x: any) => [x.label, x.status, x.official?.id ?? null])).toEqual([
        ['Referee', 'cancelled', null],
        ['AR1', 'claimed', ann.userId],
        ['AR2', 'open', null],
      ])
      const second = await p.post(`/games/${game.id}/assign`, { userId: bob.userId })
      expect(second.body.data.status).toBe('claimed')
      expect(second.body.data.positions[2]).toMatchObject({ status: 'claimed', official: { id: bob.userId } })
      expect(await p.post(`/games/${game.id}/assign`, { userId: cy.userId })).toMatchObject({
        status: 409,
        body: { error: 'position_taken' },
      })
    })

    it('assigns a given positionId', async () => {
      const p = await t.partner()
      const leagueId = await league(p)
      const ann = await official(p, leagueId, 'ann')
      const game = await seedGame(t.deps.db, leagueId, { positions: [{}, {}] })
      const res = await p.post(`/games/${game.id}/assign`, {
        userId: ann.userId,
        positionId: game.positionIds[1],
      })
      expect(res.status).toBe(200)
      expect(res.body.data.positions.map((x: any) => x.status)).toEqual(['open', 'claimed'])
      expect(res.body.data.status).toBe('open')
    })

    it.each([
      [{}, 'externalId_required'],
      [{ positionId: 'x' }, 'externalId_required'],
      [{ externalId: '' }, 'invalid_externalId'],
      [{ userId: 5 }, 'invalid_userId'],
      [{ externalId: 'ann', positionId: 5 }, 'invalid_positionId'],
      [{ externalId: 'ann', source: 'app' }, 'source_reserved'],
      [{ externalId: 'ann', source: 'someone-else' }, 'source_mismatch'],
      [{ userId: 'u', source: 'someone-else' }, 'source_mismatch'],
      [[], 'invalid_json'],
    ])('%j → 400 %s', async (body, code) => {
      const p = await t.partner()
      const leagueId = await league(p)
      await official(p, leagueId, 'ann')
      const game = await seedGame(t.deps.db, leagueId)
      expect(await p.post(`/games/${game.id}/assign`, body)).toMatchObject({
        status: 400,
        body: { error: code },
      })
      expect(await events(leagueId)).toEqual([])
      expect(await claimCount(game.positionIds[0]!)).toBe(0)
    })

    it('404 official_not_found for unknown users and for other sources’ users who are not members', async () => {
      const p = await t.partner()
      const other = await t.partner()
      const leagueId = await league(p)
      const foreign = await official(other, await league(other), 'ann')
      const game = await seedGame(t.deps.db, leagueId)
      for (const body of [
        { userId: 'no-such-user' },
        { externalId: 'nobody' },
        { userId: foreign.userId },
        { externalId: 'ann' },
      ]) {
        expect(await p.post(`/games/${game.id}/assign`, body)).toMatchObject({
          status: 404,
          body: { error: 'official_not_found' },
        })
      }
      expect(await events(leagueId)).toEqual([])
    })

    it('finds another source’s user who is a member of this league (granted league)', async () => {
      const owner = await t.partner()
      const guest = await t.partner()
      const leagueId = await league(owner)
      await grantLeague(t.deps, guest.id, leagueId)
      const guestOfficial = await official(guest, leagueId, 'g1')
      const game = await seedGame(t.deps.db, leagueId)
      const res = await owner.post(`/games/${game.id}/assign`, { userId: guestOfficial.userId })
      expect(res.status).toBe(200)
      expect(res.body.data.positions[0].official.id).toBe(guestOfficial.userId)
      // By externalId the owner's own source is searched, where g1 does not exist.
      const again = await seedGame(t.deps.db, leagueId)
      expect((await owner.post(`/games/${again.id}/assign`, { externalId: 'g1' })).body).toEqual({
        error: 'official_not_found',
      })
    })

    it('409 not_a_league_official for pending, denied, organizer and non-member users', async () => {
      const p = await t.partner({ organizerExternalId: 'boss' })
      const leagueId = await league(p)
      const pending = await official(p, leagueId, 'pending', { status: 'pending' })
      const denied = await official(p, leagueId, 'denied')
      await denyOfficial(t.deps, CONSOLE_CALLER, leagueId, denied.userId)
      const elsewhere = await official(p, await league(p, 'Other'), 'elsewhere')
      const game = await seedGame(t.deps.db, leagueId)
      for (const body of [
        { userId: pending.userId },
        { externalId: 'denied' },
        { userId: p.organizerId },
        { externalId: 'boss' },
        { userId: elsewhere.userId },
      ]) {
        expect(await p.post(`/games/${game.id}/assign`, body)).toMatchObject({
          status: 409,
          body: { error: 'not_a_league_official' },
        })
      }
      expect(await events(leagueId)).toEqual([])
      expect(await claimCount(game.positionIds[0]!)).toBe(0)
    })

    it('position errors: not found, taken, not open, no open position (a cancelled game’s kept claim included)', async () => {
      const p = await t.partner()
      const leagueId = await league(p)
      const ann = await official(p, leagueId, 'ann')
      const bob = await official(p, leagueId, 'bob')
      const game = await seedGame(t.deps.db, leagueId, {
        positions: [{ officialId: bob.userId }, { status: 'completed' }, { status: 'cancelled' }],
      })
      const elsewhere = await seedGame(t.deps.db, leagueId)
      const cancelledGame = await seedGame(t.deps.db, leagueId, {
        status: 'cancelled',
        positions: [{ status: 'cancelled' }],
      })
      // Cancelled through the API with a claim: the claimed slot is kept, the open one cancelled.
      const cancelledCrew = await seedGame(t.deps.db, leagueId, {
        positions: [{ officialId: bob.userId }, {}],
      })
      expect((await p.delete(`/games/${cancelledCrew.id}`)).status).toBe(200)
      const emptyGame = await seedGame(t.deps.db, leagueId, {
        status: 'completed',
        positions: [{ status: 'completed' }, { status: 'cancelled' }],
      })
      const cases: [string, string | undefined, number, string][] = [
        [game.id, 'no-such-position', 404, 'position_not_found'],
        [game.id, elsewhere.positionIds[0], 404, 'position_not_found'],
        [game.id, game.positionIds[0], 409, 'position_taken'],
        [game.id, game.positionIds[1], 409, 'position_not_open'],
        [game.id, game.positionIds[2], 409, 'position_not_open'],
        [game.id, undefined, 409, 'position_taken'],
        [cancelledGame.id, cancelledGame.positionIds[0], 409, 'position_not_open'],
        [cancelledGame.id, undefined, 409, 'no_open_position'],
        [cancelledCrew.id, undefined, 409, 'no_open_position'],
        [cancelledCrew.id, cancelledCrew.positionIds[0], 409, 'position_not_open'],
        [cancelledCrew.id, cancelledCrew.positionIds[1], 409, 'position_not_open'],
        [emptyGame.id, undefined, 409, 'no_open_position'],
      ]
      for (const [gameId, positionId, status, error] of cases) {
        const res = await p.post(`/games/${gameId}/assign`, { userId: ann.userId, positionId })
        expect({ gameId, positionId, status: res.status, body: res.body }).toEqual({
          gameId,
          positionId,
          status,
          body: { error },
        })
      }
      expect(await events(leagueId)).toEqual([])
      expect(await claimCount(elsewhere.positionIds[0]!)).toBe(0)
    })

    it('on a game with nothing left to take, answers who is asking first: game, then official, then position', async () => {
      const p = await t.partner()
      const other = await t.partner()
      const leagueId = await league(p)
      const ann = await official(p, leagueId, 'ann')
      const bob = await official(p, leagueId, 'bob')
      const pending = await official(p, leagueId, 'pending', { status: 'pending' })
      const game = await seedGame(t.deps.db, leagueId, { positions: [{ officialId: bob.userId }] })
      const ask = (who: Partner, body: object) => who.post(`/games/${game.id}/assign`, body)
      expect((await ask(other, { userId: ann.userId })).body).toEqual({ error: 'game_not_found' })
      expect((await ask(p, { userId: 'no-such-user' })).body).toEqual({ error: 'official_not_found' })
      expect((await ask(p, { userId: pending.userId })).body).toEqual({ error: 'not_a_league_official' })
      expect((await ask(p, { userId: ann.userId })).body).toEqual({ error: 'position_taken' })
      expect((await ask(p, { userId: ann.userId, positionId: 'nope' })).body).toEqual({
        error: 'position_not_found',
      })
      expect(await events(leagueId)).toEqual([])
    })

    it('hides other sources’ games exactly like nonexistent ones', async () => {
      const owner = await t.partner()
      const other = await t.partner()
      const leagueId = await league(owner)
      const ann = await official(owner, leagueId, 'ann')
      await official(other, await league(other), 'ann')
      const game = await seedGame(t.deps.db, leagueId)
      for (const gameId of [game.id, 'no-such-game']) {
        for (const body of [{ userId: ann.userId }, { externalId: 'ann' }]) {
          expect(await other.post(`/games/${gameId}/assign`, body)).toMatchObject({
            status: 404,
            body: { error: 'game_not_found' },
          })
        }
      }
      expect(await events(leagueId)).toEqual([])
    })

    for (const withPositionId of [true, false]) {
      it(`50 parallel assigns on one open position: exactly one wins (positionId ${withPositionId ? 'given' : 'omitted'})`, async () => {
        const p = await t.partner()
        const leagueId = await league(p)
        const officials = []
        for (let i = 0; i < 50; i++) officials.push(await official(p, leagueId, `ref-${i}`))
        const game = await seedGame(t.deps.db, leagueId)
        const positionId = game.positionIds[0]!
        const replies = await Promise.all(
          officials.map((o) =>
            p.post(`/games/${game.id}/assign`, { userId: o.userId, ...(withPositionId && { positionId }) }),
          ),
        )
        const winners = replies.filter((r) => r.status === 200)
        expect(winners).toHaveLength(1)
        expect(replies.filter((r) => r.status === 409 && r.body.error === 'position_taken')).toHaveLength(49)
        expect(await claimCount(positionId)).toBe(1)
        const claimed = await events(leagueId)
        expect(claimed).toHaveLength(1)
        expect(claimed[0]!.data.official).toEqual(winners[0]!.body.data.positions[0].official)
      })
    }
  })

  describe('DELETE /games/{gameId}/assign', () => {
    it('deletes the claim, reopens the position and emits position.released', async () => {
      const p = await t.partner()
      const leagueId = await league(p)
      const ann = await official(p, leagueId, 'ann', { name: 'Ann' })
      const game = await seedGame(t.deps.db, leagueId)
      const positionId = game.positionIds[0]!
      const assigned = (await p.post(`/games/${game.id}/assign`, { userId: ann.userId })).body.data
      const res = await p.delete(`/games/${game.id}/assign?positionId=${positionId}`)
      expect(res.status).toBe(200)
      expect(res.body).toEqual({
        data: {
          ...assigned,
          status: 'open',
          positions: [{ ...assigned.positions[0], status: 'open', official: null }],
        },
      })
      expect(await claimCount(positionId)).toBe(0)
      expect((await events(leagueId)).at(-1)).toEqual({
        event: 'position.released',
        data: { leagueId, game: res.body.data, positionId, official: claimView(ann) },
      })
      // The slot can be claimed again.
      expect((await p.post(`/games/${game.id}/assign`, { userId: ann.userId })).status).toBe(200)
    })

    it('cancels instead of reopening in a cancelled game', async () => {
      const p = await t.partner()
      const leagueId = await league(p)
      const ann = await official(p, leagueId, 'ann')
      const game = await seedGame(t.deps.db, leagueId, {
        status: 'cancelled',
        positions: [{ officialId: ann.userId }],
      })
      const positionId = game.positionIds[0]!
      const res = await p.delete(`/games/${game.id}/assign?positionId=${positionId}`)
      expect(res.status).toBe(200)
      expect(res.body.data).toMatchObject({
        status: 'cancelled',
        positions: [{ status: 'cancelled', official: null }],
      })
      expect(await p.post(`/games/${game.id}/assign`, { userId: ann.userId })).toMatchObject({
        status: 409,
        body: { error: 'no_open_position' },
      })
    })

    it('errors: positionId_required, game_not_found, position_not_found, position_not_claimed', async () => {
      const owner = await t.partner()
      const other = await t.partner()
      const leagueId = await league(owner)
      const ann = await official(owner, leagueId, 'ann')
      const game = await seedGame(t.deps.db, leagueId, {
        positions: [{}, { status: 'completed', officialId: ann.userId }],
      })
      const elsewhere = await seedGame(t.deps.db, leagueId)
      await owner.post(`/games/${elsewhere.id}/assign`, { userId: ann.userId })
      const before = await events(leagueId)
      const cases: [Partner, string, number, string][] = [
        [owner, `/games/${game.id}/assign`, 400, 'positionId_required'],
        [owner, `/games/${game.id}/assign?positionId=`, 400, 'positionId_required'],
        [owner, `/games/no-such-game/assign?positionId=${game.positionIds[0]}`, 404, 'game_not_found'],
        [other, `/games/${game.id}/assign?positionId=${game.positionIds[0]}`, 404, 'game_not_found'],
        [
          other,
          `/games/${elsewhere.id}/assign?positionId=${elsewhere.positionIds[0]}`,
          404,
          'game_not_found',
        ],
        [owner, `/games/${game.id}/assign?positionId=no-such-position`, 404, 'position_not_found'],
        [owner, `/games/${game.id}/assign?positionId=${elsewhere.positionIds[0]}`, 404, 'position_not_found'],
        [owner, `/games/${game.id}/assign?positionId=${game.positionIds[0]}`, 409, 'position_not_claimed'],
        [owner, `/games/${game.id}/assign?positionId=${game.positionIds[1]}`, 409, 'position_not_claimed'],
      ]
      for (const [client, path, status, error] of cases) {
        const res = await client.delete(path)
        expect({ path, status: res.status, body: res.body }).toEqual({ path, status, body: { error } })
      }
      expect(await events(leagueId)).toEqual(before)
      expect(await claimCount(elsewhere.positionIds[0]!)).toBe(1)
      expect(await claimCount(game.positionIds[1]!)).toBe(1)
    })
  })

  describe('GET /leagues/{leagueId}/assignments', () => {
    it('lists every position holding a claim by game start, with game, official and payment', async () => {
      const p = await t.partner()
      const leagueId = await league(p)
      const ann = await official(p, leagueId, 'ann', { name: 'Ann', email: 'ann@example.com' })
      const bob = await official(p, leagueId, 'bob', { name: 'Bob' })
      const late = await seedGame(t.deps.db, leagueId, {
        startsAt: '2030-03-01T10:00:00.000Z',
        positions: [{}, {}],
      })
      const early = await seedGame(t.deps.db, leagueId, {
        startsAt: '2030-01-01T10:00:00.000Z',
        status: 'completed',
        positions: [{ status: 'completed', payCents: 4550, officialId: ann.userId }],
      })
      const noShow = await seedGame(t.deps.db, leagueId, {
        startsAt: '2030-02-01T10:00:00.000Z',
        status: 'completed',
        positions: [{ status: 'cancelled', officialId: bob.userId }],
      })
      await seedGame(t.deps.db, leagueId, { startsAt: '2029-01-01T10:00:00.000Z' })
      const paymentId = await seedPayment(t.deps.db, {
        positionId: early.positionIds[0]!,
        officialId: ann.userId,
        leagueId,
        amountCents: 4550,
      })
      await p.post(`/games/${late.id}/assign`, { userId: bob.userId, positionId: late.positionIds[1] })
      await p.post(`/games/${late.id}/assign`, { userId: ann.userId })

      const res = await p.get(`/leagues/${leagueId}/assignments`)
      expect(res.status).toBe(200)
      expect(res.body.data.map((a: any) => [a.positionId, a.status, a.official.id])).toEqual([
        [early.positionIds[0], 'completed', ann.userId],
        [noShow.positionIds[0], 'cancelled', bob.userId],
        [late.positionIds[0], 'claimed', ann.userId],
        [late.positionIds[1], 'claimed', bob.userId],
      ])
      expect(res.body.data[0]).toEqual({
        positionId: early.positionIds[0],
        gameId: early.id,
        label: 'Official',
        payCents: 4550,
        payDollars: 45.5,
        status: 'completed',
        game: {
          id: early.id,
          leagueId,
          sport: 'soccer',
          startsAt: '2030-01-01T10:00:00.000Z',
          durationMinutes: 90,
          endsAt: '2030-01-01T11:30:00.000Z',
          location: 'Field 1',
          venue: null,
          status: 'completed',
          latitude: null,
          longitude: null,
          source: p.source,
          externalId: null,
        },
        official: claimView(ann),
        payment: {
          id: paymentId,
          positionId: early.positionIds[0],
          officialId: ann.userId,
          amountCents: 4550,
          amountDollars: 45.5,
          currency: 'usd',
          mode: 'offline',
          status: 'pending',
          paidAt: null,
          failureCode: null,
          failureMessage: null,
          createdAt: expect.any(String),
        },
      })
      expect(res.body.data[2].payment).toBeNull()
      expect(res.body.data[2].game.status).toBe('claimed')
    })

    it('is empty for a league without claims, and hides other sources’ leagues like nonexistent ones', async () => {
      const owner = await t.partner()
      const other = await t.partner()
      const leagueId = await league(owner)
      expect(await owner.get(`/leagues/${leagueId}/assignments`)).toMatchObject({
        status: 200,
        body: { data: [] },
      })
      for (const id of [leagueId, 'no-such-league']) {
        expect(await other.get(`/leagues/${id}/assignments`)).toMatchObject({
          status: 404,
          body: { error: 'league_not_found' },
        })
      }
    })
  })
})
