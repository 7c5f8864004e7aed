import { describe, expect, it } from 'vitest'
import { grantLeague } from '../../src/domain/partners/api-keys.js'
import { completeGame, markPaid } from '../../src/domain/payments/payments.js'
import { useTestApp } from '../helpers/app.js'
import { played } from '../helpers/clock.js'
import { seedClaimedGame } from '../helpers/fixtures.js'
import { CONSOLE_CALLER } from '../../src/domain/core/caller.js'

describe('GET /leagues/{leagueId}/payments', () => {
  const t = useTestApp()

  async function leagueWithPayments() {
    const owner = await t.partner()
    const league = (await owner.post('/leagues', { name: 'Ledger', currency: 'CAD' })).body.data
    const details = []
    for (const payCents of [2500, 4000]) {
      const { gameId } = await seedClaimedGame(t.deps.db, league.id, payCents)
      details.push(await completeGame(played(t.deps), CONSOLE_CALLER, gameId))
    }
    const [older, newer] = details.map((d) => d.positions[0]!.payment!)
    return { owner, leagueId: league.id as string, older: older!, newer: newer! }
  }

  it('lists the ledger newest first, with settlement state', async () => {
    const { owner, leagueId, older, newer } = await leagueWithPayments()
    const paid = await markPaid(t.deps, CONSOLE_CALLER, older.id)
    const res = await owner.get(`/leagues/${leagueId}/payments`)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ data: [newer, paid] })
    expect(newer).toMatchObject({ amountCents: 4000, amountDollars: 40, currency: 'cad', mode: 'offline' })
  })

  it('answers an empty array for a league without payments', async () => {
    const p = await t.partner()
    const { id } = (await p.post('/leagues', { name: 'Quiet' })).body.data
    expect(await p.get(`/leagues/${id}/payments`)).toMatchObject({ status: 200, body: { data: [] } })
  })

  it('hides another source’s ledger exactly like a nonexistent league, until granted', async () => {
    const { leagueId, newer, older } = await leagueWithPayments()
    const other = await t.partner()
    for (const id of [leagueId, 'does-not-exist']) {
      expect(await other.get(`/leagues/${id}/payments`)).toMatchObject({
        status: 404,
        body: { error: 'league_not_found' },
      })
    }
    await grantLeague(t.deps, other.id, leagueId)
    expect(await other.get(`/leagues/${leagueId}/payments`)).toMatchObject({
      status: 200,
      body: { data: [newer, older] },
    })
  })

  it('requires a key', async () => {
    const { leagueId } = await leagueWithPayments()
    expect(await t.client().get(`/leagues/${leagueId}/payments`)).toMatchObject({
      status: 401,
      body: { error: 'unauthorized' },
    })
  })
})
