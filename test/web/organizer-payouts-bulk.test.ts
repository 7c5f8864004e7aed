// Payouts for closing the season over HTTP: totals per official, Select all (a link, no script), and Charge
// selected (each platform payment charged as Charge charges it, its event written, a foreign payment in the
// selection charging none), with the CSRF token.
import { describe, expect, it } from 'vitest'
import {
  eventsOf,
  seedGame,
  seedLeague,
  seedMembership,
  seedPayment,
  seedUser,
  uniqueEmail,
} from '../helpers/fixtures.js'
import { useWebApp } from './browser-like.js'

describe('payouts at the close of the season', () => {
  const t = useWebApp()

  async function world() {
    const db = t.runtime.deps.db
    const olgaEmail = uniqueEmail('olga')
    const cloud = await seedLeague(db, {
      organizerId: await seedUser(db, { email: olgaEmail }),
      paymentMode: 'platform',
    })
    const other = await seedLeague(db, { paymentMode: 'platform' })
    const sam = await seedUser(db, { email: uniqueEmail('sam'), name: 'Sam Reed' })
    const ann = await seedUser(db, { email: uniqueEmail('ann'), name: 'Ann Lee' })
    const pay = async (
      leagueId: string,
      officialId: string,
      amountCents: number,
      status: 'pending' | 'paid' = 'pending',
    ) => {
      await seedMembership(db, leagueId, officialId).catch(() => undefined)
      const game = await seedGame(db, leagueId, {
        startsAt: '2029-12-01T18:00:00.000Z',
        status: 'completed',
        positions: [{ officialId, status: 'completed' }],
      })
      return seedPayment(db, {
        positionId: game.positionIds[0]!,
        officialId,
        leagueId,
        amountCents,
        mode: 'platform',
        status,
      })
    }
    return { db, olgaEmail, cloud, other, sam, ann, pay }
  }

  it('totals per official, selects all by link, and charges the selection', async () => {
    const { db, olgaEmail, cloud, sam, ann, pay } = await world()
    const s1 = await pay(cloud, sam, 4000)
    const s2 = await pay(cloud, sam, 2500)
    await pay(cloud, sam, 1000, 'paid')
    const a1 = await pay(cloud, ann, 3000)
    const olga = await t.signIn(olgaEmail)
    const ledger = await olga.get(`/app/organize/leagues/${cloud}/payouts`)
    expect(ledger.body).toMatch(
      /<caption[^>]*>Per official<\/caption>.*Ann Lee<\/th><td>1<\/td><td>\$30\.00<\/td><td>\$0\.00<\/td>/s,
    )
    expect(ledger.body).toMatch(/Sam Reed<\/th><td>3<\/td><td>\$65\.00<\/td><td>\$10\.00<\/td>/)
    expect(ledger.body).toContain(
      `<a href="/app/organize/leagues/${cloud}/payouts?page=1&amp;select=all">Select all</a>`,
    )
    expect(ledger.body).toContain('>Charge selected</button>')
    expect(ledger.body).not.toContain('>Mark selected paid</button>')

    const all = await olga.get(`/app/organize/leagues/${cloud}/payouts?page=1&select=all`)
    for (const id of [s1, s2, a1]) expect(all.body).toContain(`value="${id}" id="pick-${id}" checked>`)

    const body = new URLSearchParams({ _csrf: olga.csrf })
    for (const id of [s1, s2, a1]) body.append('paymentId', id)
    const post = () =>
      t.app.inject({
        method: 'POST',
        url: `/app/organize/leagues/${cloud}/payouts/charge`,
        headers: {
          cookie: [...olga.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
          'content-type': 'application/x-www-form-urlencoded',
        },
        payload: body.toString(),
      })
    // One press charged $642 once: now it says how many and how much first, and charges at the second.
    const asked = await post()
    expect(asked.statusCode).toBe(200)
    expect(asked.body).toMatch(
      /<h1>Charge 3 payments\?<\/h1>.*<strong>3 payments<\/strong>, <strong>\$[\d.]+<\/strong> in all\./s,
    )
    expect(await eventsOf(db, cloud)).toEqual([])
    body.append('confirm', 'yes')
    const charged = await post()
    expect([charged.statusCode, charged.headers.location]).toEqual([
      303,
      `/app/organize/leagues/${cloud}/payouts?done=paid.3%2Cfailed.0%2Crequires_card.0`,
    ])
    expect((await olga.get(charged.headers.location as string)).body).toContain('Charged: 3 paid.')
    const events = await eventsOf(db, cloud)
    expect(events.map((e) => [e.event, e.data.payment.id]).sort()).toEqual(
      [s1, s2, a1].map((id) => ['payment.paid', id]).sort(),
    )
    const again = await olga.post(`/app/organize/leagues/${cloud}/payouts/charge`, {
      paymentId: s1,
      confirm: 'yes',
    })
    expect(again.location).toBe(
      `/app/organize/leagues/${cloud}/payouts?done=paid.0%2Cfailed.0%2Crequires_card.0&refused=${s1}.payment_not_chargeable`,
    )
    expect((await olga.get(again.location!)).body).toContain(
      'Charged: 0 paid; 1 could not be charged (paid or being charged already).',
    )
    const none = await olga.post(`/app/organize/leagues/${cloud}/payouts/charge`)
    expect(none.location).toBe(`/app/organize/leagues/${cloud}/payouts?notice=none_charged`)
  })

  it("charges none when the selection holds another league's payment, and needs the form's token", async () => {
    const { db, olgaEmail, cloud, other, sam, pay } = await world()
    const mine = await pay(cloud, sam, 4000)
    const theirs = await pay(other, sam, 4000)
    const olga = await t.signIn(olgaEmail)
    await olga.get(`/app/organize/leagues/${cloud}/payouts`)
    expect(
      (await olga.post(`/app/organize/leagues/${cloud}/payouts/charge`, { paymentId: theirs })).status,
    ).toBe(404)
    expect(
      (await olga.post(`/app/organize/leagues/${other}/payouts/charge`, { paymentId: mine })).status,
    ).toBe(404)
    const forged = await olga.post(`/app/organize/leagues/${cloud}/payouts/charge`, {
      _csrf: 'forged',
      paymentId: mine,
    })
    expect(forged.status).toBe(403)
    expect(await eventsOf(db, cloud)).toEqual([])
    expect(await eventsOf(db, other)).toEqual([])
  })
})
