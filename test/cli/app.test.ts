import { describe, expect, it } from 'vitest'
import { useCliDatabase } from '../helpers/cli.js'
import {
  eventsOf,
  seedClaimedGame,
  seedGame,
  seedLeague,
  seedMembership,
  seedUser,
} from '../helpers/fixtures.js'

describe('refdesk app', () => {
  const t = useCliDatabase()

  async function json(...args: string[]) {
    const res = await t.run('app', ...args)
    expect(res.stderr).toBe('')
    expect(res.code).toBe(0)
    return JSON.parse(res.stdout)
  }

  async function claimedGame(paymentMode: 'offline' | 'platform') {
    const db = (await t.runtime()).deps.db
    const leagueId = await seedLeague(db, { paymentMode })
    // Played already: the bin reads the real clock, and a game is completed once it has started.
    return { db, leagueId, ...(await seedClaimedGame(db, leagueId, 4500, '2020-05-01T18:00:00.000Z')) }
  }

  it('complete then pay: an offline payment is created pending and marked paid', async () => {
    const { db, leagueId, gameId, positionIds, officialId } = await claimedGame('offline')
    const game = await json('complete', gameId)
    expect(game).toMatchObject({
      id: gameId,
      status: 'completed',
      positions: [
        {
          id: positionIds[0],
          status: 'completed',
          official: { id: officialId },
          payment: { amountCents: 4500, mode: 'offline', status: 'pending' },
        },
      ],
    })
    const payment = await json('pay', game.positions[0].payment.id)
    expect(payment).toEqual({
      ...game.positions[0].payment,
      status: 'paid',
      paidAt: expect.stringMatching(/Z$/),
    })
    expect((await eventsOf(db, leagueId)).map((e) => e.event)).toEqual(['game.completed', 'payment.paid'])
  })

  it('charge walks a platform payment through requires_card, failed and paid', async () => {
    const { db, leagueId, gameId } = await claimedGame('platform')
    const { id } = (await json('complete', gameId)).positions[0].payment
    expect(await json('charge', id, '--outcome', 'requires_card')).toMatchObject({
      id,
      status: 'requires_card',
    })
    expect(await json('charge', id, '--outcome', 'failed')).toMatchObject({
      id,
      status: 'failed',
      failureCode: 'card_declined',
      failureMessage: 'The card was declined (simulated).',
    })
    expect(await json('charge', id)).toMatchObject({
      id,
      status: 'paid',
      paidAt: expect.stringMatching(/Z$/),
      failureCode: null,
    })
    expect((await eventsOf(db, leagueId)).map((e) => e.event)).toEqual([
      'game.completed',
      'payment.failed',
      'payment.paid',
    ])
  })

  it('no-show cancels the worked position unpaid and keeps the official', async () => {
    const { db, leagueId, gameId, positionIds, officialId } = await claimedGame('offline')
    await json('complete', gameId)
    const game = await json('no-show', positionIds[0]!)
    expect(game.positions[0]).toMatchObject({
      status: 'cancelled',
      official: { id: officialId },
      payment: null,
    })
    expect((await eventsOf(db, leagueId)).map((e) => e.event)).toEqual(['game.completed', 'official.no_show'])
  })

  it('claim, withdraw, deny and approve go through the same services', async () => {
    const db = (await t.runtime()).deps.db
    const leagueId = await seedLeague(db)
    const userId = await seedUser(db, { name: 'Ref' })
    await seedMembership(db, leagueId, userId)
    const { id: gameId, positionIds } = await seedGame(db, leagueId, { positions: [{ payCents: 1000 }] })
    const claimed = await json('claim', gameId, userId, '--position', positionIds[0]!)
    expect(claimed).toMatchObject({
      status: 'claimed',
      positions: [{ status: 'claimed', official: { id: userId, name: 'Ref' } }],
    })
    const withdrawn = await json('withdraw', positionIds[0]!)
    expect(withdrawn).toMatchObject({ status: 'open', positions: [{ status: 'open', official: null }] })
    expect(await json('deny', leagueId, userId)).toMatchObject({ userId, leagueId, status: 'denied' })
    const refused = await t.run('app', 'claim', gameId, userId)
    expect(refused).toEqual({ code: 1, stdout: '', stderr: '{"error":"not_a_league_official"}\n' })
    expect(await json('approve', leagueId, userId)).toMatchObject({ userId, leagueId, status: 'approved' })
    expect(await json('approve', leagueId, userId)).toMatchObject({ status: 'approved' })
    expect((await eventsOf(db, leagueId)).map((e) => e.event)).toEqual([
      'position.claimed',
      'position.withdrawn',
      'official.approved',
    ])
  })

  it('join: each --email joins the league, printed as Officials confirmed, status unchanged', async () => {
    const db = (await t.runtime()).deps.db
    const leagueId = await seedLeague(db)
    const ann = await seedUser(db, { email: 'ann-join@example.test' })
    const bo = await seedUser(db, { email: 'bo-join@example.test' })
    await seedMembership(db, leagueId, ann, { status: 'pending' })
    await seedMembership(db, leagueId, bo)
    const joined = await json(
      'join',
      leagueId,
      '--email',
      'ann-join@example.test',
      '--email',
      'bo-join@example.test',
    )
    expect(joined).toMatchObject([
      { userId: ann, leagueId, status: 'pending', confirmed: true },
      { userId: bo, leagueId, status: 'approved', confirmed: true },
    ])
  })

  it('a forbidden action prints {"error":"<code>"} on stderr and exits 1', async () => {
    const { gameId, positionIds } = await claimedGame('offline')
    const refuses = async (args: string[], code: string) =>
      expect({ args, ...(await t.run('app', ...args)) }).toEqual({
        args,
        code: 1,
        stdout: '',
        stderr: `{"error":"${code}"}\n`,
      })
    await refuses(['no-show', positionIds[0]!], 'game_not_completed')
    const db = (await t.runtime()).deps.db
    const future = await seedClaimedGame(db, await seedLeague(db), 4500, '2099-05-01T18:00:00.000Z')
    await refuses(['complete', future.gameId], 'game_not_started')
    await refuses(['complete', 'nope'], 'game_not_found')
    await refuses(['pay', 'nope'], 'payment_not_found')
    await refuses(['charge', 'nope'], 'payment_not_found')
    await refuses(['withdraw', 'nope'], 'position_not_found')
    const { id } = (await json('complete', gameId)).positions[0].payment
    await refuses(['complete', gameId], 'game_not_claimed')
    await refuses(['charge', id], 'payment_not_platform')
    await json('pay', id)
    await refuses(['pay', id], 'payment_not_pending')
  })

  it('rejects an unknown --outcome before touching anything', async () => {
    const res = await t.run('app', 'charge', 'x', '--outcome', 'maybe')
    expect(res.code).toBe(1)
    expect(res.stderr).toContain("argument 'maybe' is invalid")
  })
})
