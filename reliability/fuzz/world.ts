// A populated corner of one partner's source, built through the REST API and the in-app services, so that
// requests naming its ids reach deep code paths: claimed, completed, no-show and cancelled positions,
// approved, pending and denied officials, offline and platform payments in several states, and a webhook
// endpoint with deliveries.
import { expect } from 'vitest'
import { simulatedProcessor } from '../../src/domain/core/payment-processor.js'
import { completeGame, chargePayment, markNoShow, markPaid } from '../../src/domain/payments/payments.js'
import { denyOfficial } from '../../src/domain/leagues/officials.js'
import { fanOut } from '../../src/webhooks/fan-out.js'
import type { Partner, TestApp } from '../../test/helpers/app.js'
import { rememberSecrets } from '../lib/logs.js'
import { CONSOLE_CALLER } from '../../src/domain/core/caller.js'

export interface World {
  source: string
  leagueIds: string[]
  gameIds: string[]
  /** Games left open, so that assigns can succeed. */
  openGameIds: string[]
  /** Each game with its league and its position, for requests whose ids must belong together. */
  games: { leagueId: string; gameId: string; positionId: string }[]
  positionIds: string[]
  /** Officials' user ids: approved, approved, pending, denied. */
  userIds: string[]
  /** The key's organizer: a league member who is not an official. */
  organizerId: string
  officialExternalIds: string[]
  gameExternalIds: string[]
  leagueExternalIds: string[]
  webhookIds: string[]
  paymentIds: string[]
  deliveryIds: string[]
  /** Draft assignment plans of the offline league. */
  planIds: string[]
}

let counter = 0

async function ok(reply: Promise<{ status: number; body: any }>, status = [200, 201]): Promise<any> {
  const res = await reply
  expect(status, JSON.stringify(res.body)).toContain(res.status)
  return res.body.data
}

/** Builds the world; `webhookUrl` is where its endpoint points (any HTTPS URL when nothing listens). */
export async function buildWorld(
  t: TestApp,
  p: Partner,
  webhookUrl = 'https://hooks.example.com/refdesk',
): Promise<World> {
  const n = ++counter
  const hook = await ok(p.post('/webhooks', { url: webhookUrl }))
  rememberSecrets(hook.secret)
  const leagueExt = [`league-${n}-a`, `league-${n}-b`]
  const offline = await ok(p.post('/leagues', { name: `Offline ${n}`, externalId: leagueExt[0] }))
  const platform = await ok(
    p.post('/leagues', {
      name: `Platform ${n}`,
      externalId: leagueExt[1],
      paymentMode: 'platform',
      currency: 'EUR',
    }),
  )
  const gameExt = Array.from({ length: 9 }, (_, i) => `game-${n}-${i}`)
  const created = await ok(
    p.post(`/leagues/${offline.id}/games`, {
      games: gameExt.map((externalId, i) => ({
        externalId,
        startsAt: `2026-0${(i % 9) + 1}-1${i}T18:00:00Z`,
        sport: 'soccer',
        location: `Field ${i}`,
        payDollars: 20 + i + 0.25,
        latitude: 40 + i / 10,
        longitude: -70 - i / 10,
      })),
    }),
  )
  const games: any[] = created.created
  const platformGames: any[] = (
    await ok(
      p.post(`/leagues/${platform.id}/games`, {
        games: [
          { startsAt: '2026-07-01T10:00:00Z', payDollars: 55, externalId: `game-${n}-p0` },
          { startsAt: '2026-07-02T10:00:00Z', payDollars: 65, externalId: `game-${n}-p1` },
        ],
      }),
    )
  ).created
  const officialExt = [`ref-${n}-0`, `ref-${n}-1`, `ref-${n}-2`, `ref-${n}-3`]
  const officials: any[] = []
  for (const [i, externalId] of officialExt.entries()) {
    officials.push(
      await ok(
        p.post(`/leagues/${offline.id}/officials`, {
          externalId,
          name: `Ref ${i}`,
          email: `ref${n}x${i}@example.com`,
          ...(i === 2 && { status: 'pending' }),
        }),
      ),
    )
  }
  await denyOfficial(t.deps, CONSOLE_CALLER, offline.id, officials[3].userId)
  const platformRef = await ok(p.post(`/leagues/${platform.id}/officials`, { externalId: officialExt[0] }))
  // games[0]: claimed; [1]: claimed then cancelled (a kept claim); [2]: completed and paid;
  // [3]: completed, then a no-show; [4]: cancelled while open; [5] to [8]: open.
  for (const i of [0, 1, 2, 3]) {
    await ok(p.post(`/games/${games[i].id}/assign`, { userId: officials[i % 2].userId }))
  }
  await ok(p.delete(`/games/${games[1].id}`))
  const paid = await completeGame(t.deps, CONSOLE_CALLER, games[2].id)
  await markPaid(t.deps, CONSOLE_CALLER, paid.positions[0]!.payment!.id)
  await completeGame(t.deps, CONSOLE_CALLER, games[3].id)
  await markNoShow(t.deps, CONSOLE_CALLER, games[3].positions[0].id)
  await ok(p.delete(`/games/${games[4].id}`))
  const charges: string[] = []
  for (const [i, outcome] of (['failed', 'requires_card'] as const).entries()) {
    await ok(p.post(`/games/${platformGames[i].id}/assign`, { userId: platformRef.userId }))
    const done = await completeGame(t.deps, CONSOLE_CALLER, platformGames[i].id)
    const payment = await chargePayment(
      { ...t.deps, paymentProcessor: simulatedProcessor(outcome) },
      CONSOLE_CALLER,
      done.positions[0]!.payment!.id,
    )
    charges.push(payment.id)
  }
  // Events become deliveries in the dispatcher's fan-out; no dispatcher runs here, so expand them now.
  while ((await fanOut(t.deps.db, t.deps.clock)) > 0);
  const deliveries: any[] = await ok(p.get(`/webhooks/${hook.id}/deliveries?limit=200`))
  expect(deliveries.length).toBeGreaterThan(0)
  const allGames = [...games, ...platformGames]
  const plans = [
    await ok(p.post(`/leagues/${offline.id}/assignment-plans`, {})),
    await ok(p.post(`/leagues/${offline.id}/assignment-plans`, {})),
  ]
  return {
    source: p.source,
    leagueIds: [offline.id, platform.id],
    gameIds: allGames.map((g) => g.id),
    openGameIds: games.slice(5).map((g) => g.id),
    games: allGames.map((g) => ({ leagueId: g.leagueId, gameId: g.id, positionId: g.positions[0].id })),
    positionIds: allGames.map((g) => g.positions[0].id),
    userIds: officials.map((o) => o.userId),
    organizerId: p.organizerId,
    officialExternalIds: officialExt,
    gameExternalIds: [...gameExt, `game-${n}-p0`, `game-${n}-p1`],
    leagueExternalIds: leagueExt,
    webhookIds: [hook.id],
    paymentIds: [paid.positions[0]!.payment!.id, ...charges],
    deliveryIds: deliveries.map((d) => d.id),
    planIds: plans.map((plan) => plan.id),
  }
}
