// Source isolation (issue 6, item 3). Two partners, A and B, each with a populated source (leagues, games,
// positions, claims, officials, payments settled in-app, a webhook endpoint on its own HTTPS receiver).
// For every REST operation of the OpenAPI document and every MCP tool the server lists, B naming A's ids
// gets exactly the answer B gets for never-existing ids of the same shape; no answer B ever receives
// carries an A id; A's data is unchanged afterwards; B's receiver gets none of A's events while A's gets them.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { newId } from '../../src/clock.js'
import { startDispatcher, type Dispatcher } from '../../src/webhooks/dispatcher.js'
import { type Partner, type TestApp } from '../../test/helpers/app.js'
import { testSettings } from '../../test/webhooks/dispatch.js'
import { CA, startReceiver, type Receiver } from '../../test/webhooks/receiver.js'
import { buildWorld, type World } from '../fuzz/world.js'
import { buildReliabilityApp } from '../lib/app.js'
import { recordFigure } from '../lib/figures.js'

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE'

/** The ids a probe names: A's real ones, or never-existing ones of the same shape. */
interface Ids {
  leagueId: string
  gameId: string
  userId: string
  positionId: string
  webhookId: string
  deliveryId: string
  source: string
  leagueExternalId: string
  gameExternalId: string
  /** Names an official to look up (assign). */
  officialExternalId: string
  /** Names an official to upsert: B creating its own official under it must not disturb the lookups. */
  upsertOfficialExternalId: string
  /** An assignor's plan (draft). */
  planId: string
}

interface RestProbe {
  name: string
  request(ids: Ids): { method: Method; url: string; body?: unknown }
}

interface ToolProbe {
  name: string
  args(ids: Ids): Record<string, unknown>
}

const CUID = /\b[a-z][a-z0-9]{23}\b/g
const TIME = /\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\b/g

/**
 * The answer with the probe's own ids, fresh ids and timestamps masked: upserts that create a row answer
 * with that row, which is new in both cases. Error answers carry no ids and compare byte for byte.
 */
function normalize(value: unknown, ids: Ids): unknown {
  const own = new Set(Object.values(ids))
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') {
      if (own.has(v)) return '<probe>'
      try {
        // MCP wraps the REST body as JSON text.
        const parsed = JSON.parse(v)
        if (typeof parsed === 'object' && parsed !== null) return { json: walk(parsed) }
      } catch {
        // plain text
      }
      return v.replace(CUID, '<id>').replace(TIME, '<time>')
    }
    if (Array.isArray(v)) return v.map(walk)
    if (typeof v === 'object' && v !== null) {
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]))
    }
    return v
  }
  return walk(value)
}

describe('source isolation', () => {
  let t: TestApp
  let A: Partner
  let B: Partner
  let a: World
  let b: World
  let receiverA: Receiver
  let receiverB: Receiver
  let dispatcher: Dispatcher
  const leaks: string[] = []
  let secretIds: string[] = []
  let planOfA: string

  /** B's every answer is scanned for A's ids and source. */
  function scan(where: string, text: string): void {
    const hit = secretIds.find((id) => text.includes(id))
    if (hit) leaks.push(`${where}: answer carries A's ${hit}: ${text.slice(0, 300)}`)
  }

  async function asB(method: Method, url: string, body?: unknown) {
    const res = await t.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: { authorization: `Bearer ${B.key}` },
      ...(body !== undefined && { payload: body as object }),
    })
    scan(`${method} ${url}`, res.body)
    return { status: res.statusCode, body: res.json() }
  }

  let rpcId = 0
  async function mcpAsB(method: string, params: Record<string, unknown>) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/mcp',
      headers: {
        authorization: `Bearer ${B.key}`,
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
        'mcp-protocol-version': '2025-06-18',
      },
      payload: JSON.stringify({ jsonrpc: '2.0', id: ++rpcId, method, params }),
    })
    scan(`mcp ${method} ${JSON.stringify(params)}`, res.body)
    expect(res.statusCode).toBe(200)
    const reply = res.json()
    return reply.result ?? reply.error
  }

  /** A's view of its own source, minus delivery progress (the dispatcher moves that on its own). */
  async function snapshotOfA() {
    const get = async (url: string) => (await A.get(url)).body
    const leagues = await get('/leagues')
    const perLeague = []
    for (const leagueId of a.leagueIds) {
      perLeague.push(
        await get(`/leagues/${leagueId}`),
        await get(`/leagues/${leagueId}/games`),
        await get(`/leagues/${leagueId}/officials`),
        await get(`/leagues/${leagueId}/assignments`),
        await get(`/leagues/${leagueId}/payments`),
      )
    }
    const games = []
    for (const gameId of a.gameIds) games.push(await get(`/games/${gameId}`))
    return { leagues, perLeague, games, webhooks: await get('/webhooks') }
  }

  beforeAll(async () => {
    t = await buildReliabilityApp('isolation')
    receiverA = await startReceiver()
    receiverB = await startReceiver()
    dispatcher = startDispatcher({
      database: t.runtime.database,
      settings: testSettings(),
      ca: CA,
    })
    A = await t.partner()
    B = await t.partner()
    a = await buildWorld(t, A, receiverA.url)
    b = await buildWorld(t, B, receiverB.url)
    const plan = await A.post(`/leagues/${a.leagueIds[0]}/assignment-plans`, {})
    expect(plan.status).toBe(201)
    planOfA = plan.body.data.id
    secretIds = [
      A.source,
      A.organizerId,
      ...a.leagueIds,
      ...a.gameIds,
      ...a.positionIds,
      ...a.userIds,
      ...a.webhookIds,
      ...a.paymentIds,
      ...a.deliveryIds,
      planOfA,
    ]
  })
  afterAll(async () => {
    await dispatcher?.stop(0)
    await receiverA?.close()
    await receiverB?.close()
    await t?.close()
  })

  // A's external ids that B upserts under are spent (B then owns a row with them), so REST and MCP use
  // different ones, and lookups use one no probe ever upserts.
  const foreignIds = (via: 'rest' | 'mcp'): Ids => ({
    leagueId: a.leagueIds[0]!,
    gameId: a.gameIds[5]!,
    userId: a.userIds[0]!,
    positionId: a.positionIds[0]!,
    webhookId: a.webhookIds[0]!,
    deliveryId: a.deliveryIds[0]!,
    source: A.source,
    leagueExternalId: a.leagueExternalIds[via === 'rest' ? 0 : 1]!,
    gameExternalId: a.gameExternalIds[via === 'rest' ? 5 : 6]!,
    officialExternalId: a.officialExternalIds[0]!,
    upsertOfficialExternalId: a.officialExternalIds[via === 'rest' ? 1 : 2]!,
    planId: planOfA,
  })
  const missingIds = (): Ids => ({
    leagueId: newId(),
    gameId: newId(),
    userId: newId(),
    positionId: newId(),
    webhookId: newId(),
    deliveryId: newId(),
    source: `src-${newId().slice(0, 10)}`,
    leagueExternalId: `league-${newId()}`,
    gameExternalId: `game-${newId()}`,
    officialExternalId: `ref-${newId()}`,
    upsertOfficialExternalId: `ref-${newId()}`,
    planId: newId(),
  })

  it('answers every REST operation and MCP tool naming A’s ids exactly like never-existing ids', async () => {
    const snapshotBefore = await snapshotOfA()
    // B's own ids, fixed in every probe where only one id is on trial.
    const own = {
      leagueId: b.leagueIds[0]!,
      gameId: b.gameIds[5]!, // open
      userId: b.userIds[0]!, // approved
      positionId: b.positionIds[0]!, // claimed
      webhookId: b.webhookIds[0]!,
      deliveryId: b.deliveryIds[0]!,
    }
    const game = { startsAt: '2026-09-01T10:00:00Z', sport: 'hockey' }
    const since = new Date(Date.now() - 3_600_000).toISOString()
    const week = 'from=2026-06-01T00:00:00Z&to=2026-06-08T00:00:00Z'
    const rest: Record<string, RestProbe[]> = {
      getIndex: [],
      listLeagues: [],
      listWebhooks: [],
      upsertLeague: [
        {
          name: 'body source',
          request: (i) => ({ method: 'POST', url: '/leagues', body: { name: 'X', source: i.source } }),
        },
        {
          name: 'body externalId',
          request: (i) => ({
            method: 'POST',
            url: '/leagues',
            body: { name: 'X', externalId: i.leagueExternalId },
          }),
        },
      ],
      getLeague: [
        { name: 'path leagueId', request: (i) => ({ method: 'GET', url: `/leagues/${i.leagueId}` }) },
      ],
      updateLeague: [
        {
          name: 'path leagueId',
          request: (i) => ({ method: 'PATCH', url: `/leagues/${i.leagueId}`, body: { name: 'Taken' } }),
        },
      ],
      listGames: [
        { name: 'path leagueId', request: (i) => ({ method: 'GET', url: `/leagues/${i.leagueId}/games` }) },
      ],
      upsertGames: [
        {
          name: 'path leagueId',
          request: (i) => ({ method: 'POST', url: `/leagues/${i.leagueId}/games`, body: { games: [game] } }),
        },
        {
          name: 'body source',
          request: (i) => ({
            method: 'POST',
            url: `/leagues/${own.leagueId}/games`,
            body: { source: i.source, games: [game] },
          }),
        },
        {
          name: 'item externalId',
          request: (i) => ({
            method: 'POST',
            url: `/leagues/${own.leagueId}/games`,
            body: { games: [{ ...game, externalId: i.gameExternalId }] },
          }),
        },
      ],
      getGame: [{ name: 'path gameId', request: (i) => ({ method: 'GET', url: `/games/${i.gameId}` }) }],
      updateGame: [
        {
          name: 'path gameId',
          request: (i) => ({ method: 'PATCH', url: `/games/${i.gameId}`, body: { location: 'Elsewhere' } }),
        },
      ],
      cancelGame: [
        { name: 'path gameId', request: (i) => ({ method: 'DELETE', url: `/games/${i.gameId}` }) },
      ],
      listOfficials: [
        {
          name: 'path leagueId',
          request: (i) => ({ method: 'GET', url: `/leagues/${i.leagueId}/officials` }),
        },
      ],
      upsertOfficial: [
        {
          name: 'path leagueId',
          request: (i) => ({
            method: 'POST',
            url: `/leagues/${i.leagueId}/officials`,
            body: { externalId: 'x' },
          }),
        },
        {
          name: 'body source',
          request: (i) => ({
            method: 'POST',
            url: `/leagues/${own.leagueId}/officials`,
            body: { externalId: 'x', source: i.source },
          }),
        },
        {
          name: 'body externalId',
          request: (i) => ({
            method: 'POST',
            url: `/leagues/${own.leagueId}/officials`,
            body: { externalId: i.upsertOfficialExternalId },
          }),
        },
      ],
      removeOfficial: [
        {
          name: 'path leagueId',
          request: (i) => ({ method: 'DELETE', url: `/leagues/${i.leagueId}/officials/${own.userId}` }),
        },
        {
          name: 'path leagueId and userId',
          request: (i) => ({ method: 'DELETE', url: `/leagues/${i.leagueId}/officials/${i.userId}` }),
        },
        {
          name: 'path userId',
          request: (i) => ({ method: 'DELETE', url: `/leagues/${own.leagueId}/officials/${i.userId}` }),
        },
      ],
      listAssignments: [
        {
          name: 'path leagueId',
          request: (i) => ({ method: 'GET', url: `/leagues/${i.leagueId}/assignments` }),
        },
      ],
      assignPosition: [
        {
          name: 'path gameId',
          request: (i) => ({
            method: 'POST',
            url: `/games/${i.gameId}/assign`,
            body: { userId: own.userId },
          }),
        },
        {
          name: 'body userId',
          request: (i) => ({
            method: 'POST',
            url: `/games/${own.gameId}/assign`,
            body: { userId: i.userId },
          }),
        },
        {
          name: 'body positionId',
          request: (i) => ({
            method: 'POST',
            url: `/games/${own.gameId}/assign`,
            body: { userId: own.userId, positionId: i.positionId },
          }),
        },
        {
          name: 'body externalId',
          request: (i) => ({
            method: 'POST',
            url: `/games/${own.gameId}/assign`,
            body: { externalId: i.officialExternalId },
          }),
        },
        {
          name: 'body externalId and source',
          request: (i) => ({
            method: 'POST',
            url: `/games/${own.gameId}/assign`,
            body: { externalId: i.officialExternalId, source: i.source },
          }),
        },
      ],
      unassignPosition: [
        {
          name: 'path gameId, query positionId',
          request: (i) => ({ method: 'DELETE', url: `/games/${i.gameId}/assign?positionId=${i.positionId}` }),
        },
        {
          name: 'path gameId',
          request: (i) => ({
            method: 'DELETE',
            url: `/games/${i.gameId}/assign?positionId=${own.positionId}`,
          }),
        },
        {
          name: 'query positionId',
          request: (i) => ({
            method: 'DELETE',
            url: `/games/${b.gameIds[0]}/assign?positionId=${i.positionId}`,
          }),
        },
      ],
      listPayments: [
        {
          name: 'path leagueId',
          request: (i) => ({ method: 'GET', url: `/leagues/${i.leagueId}/payments` }),
        },
      ],
      createWebhook: [
        {
          name: 'body source',
          request: (i) => ({
            method: 'POST',
            url: '/webhooks',
            body: { url: 'https://hooks.example.com/b', source: i.source },
          }),
        },
      ],
      deleteWebhook: [
        { name: 'path webhookId', request: (i) => ({ method: 'DELETE', url: `/webhooks/${i.webhookId}` }) },
      ],
      listWebhookDeliveries: [
        {
          name: 'path webhookId',
          request: (i) => ({ method: 'GET', url: `/webhooks/${i.webhookId}/deliveries?limit=200` }),
        },
      ],
      testWebhook: [
        {
          name: 'path webhookId',
          request: (i) => ({
            method: 'POST',
            url: `/webhooks/${i.webhookId}/test`,
            body: { event: 'game.created' },
          }),
        },
      ],
      retryWebhookDelivery: [
        {
          name: 'path webhookId',
          request: (i) => ({
            method: 'POST',
            url: `/webhooks/${i.webhookId}/deliveries/${own.deliveryId}/retry`,
          }),
        },
        {
          name: 'path deliveryId',
          request: (i) => ({
            method: 'POST',
            url: `/webhooks/${own.webhookId}/deliveries/${i.deliveryId}/retry`,
          }),
        },
        {
          name: 'path webhookId and deliveryId',
          request: (i) => ({
            method: 'POST',
            url: `/webhooks/${i.webhookId}/deliveries/${i.deliveryId}/retry`,
          }),
        },
      ],
      recoverWebhook: [
        {
          name: 'path webhookId',
          request: (i) => ({ method: 'POST', url: `/webhooks/${i.webhookId}/recover`, body: { since } }),
        },
      ],
      enableWebhook: [
        {
          name: 'path webhookId',
          request: (i) => ({ method: 'POST', url: `/webhooks/${i.webhookId}/enable` }),
        },
      ],
      addPosition: [
        {
          name: 'path gameId',
          request: (i) => ({ method: 'POST', url: `/games/${i.gameId}/positions`, body: { label: 'Extra' } }),
        },
      ],
      removePosition: [
        {
          name: 'path gameId and positionId',
          request: (i) => ({ method: 'DELETE', url: `/games/${i.gameId}/positions/${i.positionId}` }),
        },
        {
          name: 'path positionId',
          request: (i) => ({ method: 'DELETE', url: `/games/${own.gameId}/positions/${i.positionId}` }),
        },
      ],
      getOfficialAvailability: [
        {
          name: 'path leagueId',
          request: (i) => ({
            method: 'GET',
            url: `/leagues/${i.leagueId}/officials/${own.userId}/availability?${week}`,
          }),
        },
        {
          name: 'path userId',
          request: (i) => ({
            method: 'GET',
            url: `/leagues/${own.leagueId}/officials/${i.userId}/availability?${week}`,
          }),
        },
      ],
      listCandidates: [
        { name: 'path gameId', request: (i) => ({ method: 'GET', url: `/games/${i.gameId}/candidates` }) },
        {
          name: 'query positionId',
          request: (i) => ({
            method: 'GET',
            url: `/games/${own.gameId}/candidates?positionId=${i.positionId}`,
          }),
        },
      ],
      createAssignmentPlan: [
        {
          name: 'path leagueId',
          request: (i) => ({ method: 'POST', url: `/leagues/${i.leagueId}/assignment-plans`, body: {} }),
        },
      ],
      getAssignmentPlan: [
        { name: 'path planId', request: (i) => ({ method: 'GET', url: `/assignment-plans/${i.planId}` }) },
      ],
      publishAssignmentPlan: [
        {
          name: 'path planId',
          request: (i) => ({ method: 'POST', url: `/assignment-plans/${i.planId}/publish` }),
        },
      ],
      editAssignmentPlan: [
        {
          name: 'path planId',
          request: (i) => ({ method: 'PATCH', url: `/assignment-plans/${i.planId}`, body: { remove: [] } }),
        },
      ],
    }

    const doc = (await t.app.inject({ url: '/api/v1/openapi.json' })).json()
    const operations: { operationId: string; method: string; path: string }[] = []
    for (const [path, methods] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(methods))
        operations.push({ operationId: op.operationId, method, path })
    }
    const uncovered = operations.filter((op) => !(op.operationId in rest)).map((op) => op.operationId)
    expect(uncovered, 'operations without an isolation case').toEqual([])
    // An operation with an id in its path, query or body must have a probe that puts A's id there.
    for (const op of operations) {
      if (op.path.includes('{') || op.method !== 'get') {
        if (['getIndex', 'listLeagues', 'listWebhooks'].includes(op.operationId)) continue
        expect(rest[op.operationId]!.length, `${op.operationId} has probes`).toBeGreaterThan(0)
      }
    }

    const differences: string[] = []
    const checkedOperations = new Set<string>()
    for (const op of operations) {
      for (const probe of rest[op.operationId]!) {
        const foreign = foreignIds('rest')
        const missing = missingIds()
        const f = probe.request(foreign)
        const m = probe.request(missing)
        expect(f.method.toLowerCase(), `${op.operationId} probe uses its own method`).toBe(op.method)
        const fr = await asB(f.method, f.url, f.body)
        const mr = await asB(m.method, m.url, m.body)
        const left = { status: fr.status, body: normalize(fr.body, foreign) }
        const right = { status: mr.status, body: normalize(mr.body, missing) }
        if (JSON.stringify(left) !== JSON.stringify(right)) {
          differences.push(
            `${op.operationId} (${probe.name}): A's id → ${JSON.stringify(left).slice(0, 300)}; never-existing → ${JSON.stringify(right).slice(0, 300)}`,
          )
        }
        checkedOperations.add(op.operationId)
      }
    }

    // Listings: every collection B can read, its own leagues' details included, shows no A row (the scan
    // in asB fails on any A id), and B's own rows are there.
    const listings = [
      '/',
      '/leagues',
      '/webhooks',
      `/webhooks/${own.webhookId}/deliveries?limit=200`,
      ...b.leagueIds.flatMap((id) => [
        `/leagues/${id}`,
        `/leagues/${id}/games`,
        `/leagues/${id}/officials`,
        `/leagues/${id}/assignments`,
        `/leagues/${id}/payments`,
      ]),
      ...b.gameIds.map((id) => `/games/${id}`),
    ]
    for (const url of listings) {
      const res = await asB('GET', url)
      expect(res.status, url).toBe(200)
    }
    for (const operationId of ['getIndex', 'listLeagues', 'listWebhooks']) checkedOperations.add(operationId)
    const leaguesOfB = (await asB('GET', '/leagues')).body.data.map((l: any) => l.id)
    expect(leaguesOfB).toEqual(expect.arrayContaining(b.leagueIds))

    // MCP: every tool the server lists has probes; each compares A's ids with never-existing ones.
    const tools: Record<string, ToolProbe[]> = {
      list_leagues: [],
      list_webhooks: [],
      upsert_league: [
        { name: 'source', args: (i) => ({ name: 'X', source: i.source }) },
        { name: 'externalId', args: (i) => ({ name: 'X', externalId: i.leagueExternalId }) },
      ],
      get_league: [{ name: 'leagueId', args: (i) => ({ leagueId: i.leagueId }) }],
      update_league: [{ name: 'leagueId', args: (i) => ({ leagueId: i.leagueId, name: 'Taken' }) }],
      list_games: [{ name: 'leagueId', args: (i) => ({ leagueId: i.leagueId }) }],
      upsert_games: [
        { name: 'leagueId preview', args: (i) => ({ leagueId: i.leagueId, games: [game] }) },
        { name: 'leagueId', args: (i) => ({ leagueId: i.leagueId, games: [game], confirm: true }) },
        {
          name: 'item externalId preview',
          args: (i) => ({ leagueId: own.leagueId, games: [{ ...game, externalId: i.gameExternalId }] }),
        },
        {
          name: 'item externalId',
          args: (i) => ({
            leagueId: own.leagueId,
            games: [{ ...game, externalId: i.gameExternalId }],
            confirm: true,
          }),
        },
        {
          name: 'source',
          args: (i) => ({ leagueId: own.leagueId, source: i.source, games: [game], confirm: true }),
        },
      ],
      get_game: [{ name: 'gameId', args: (i) => ({ gameId: i.gameId }) }],
      update_game: [{ name: 'gameId', args: (i) => ({ gameId: i.gameId, location: 'Elsewhere' }) }],
      cancel_game: [
        { name: 'gameId preview', args: (i) => ({ gameId: i.gameId }) },
        { name: 'gameId', args: (i) => ({ gameId: i.gameId, confirm: true }) },
      ],
      list_officials: [{ name: 'leagueId', args: (i) => ({ leagueId: i.leagueId }) }],
      upsert_official: [
        { name: 'leagueId', args: (i) => ({ leagueId: i.leagueId, externalId: 'x' }) },
        {
          name: 'externalId',
          args: (i) => ({ leagueId: own.leagueId, externalId: i.upsertOfficialExternalId }),
        },
        { name: 'source', args: (i) => ({ leagueId: own.leagueId, externalId: 'x', source: i.source }) },
      ],
      remove_official: [
        { name: 'leagueId preview', args: (i) => ({ leagueId: i.leagueId, userId: own.userId }) },
        { name: 'leagueId', args: (i) => ({ leagueId: i.leagueId, userId: own.userId, confirm: true }) },
        { name: 'both preview', args: (i) => ({ leagueId: i.leagueId, userId: i.userId }) },
        { name: 'both', args: (i) => ({ leagueId: i.leagueId, userId: i.userId, confirm: true }) },
        { name: 'userId preview', args: (i) => ({ leagueId: own.leagueId, userId: i.userId }) },
        { name: 'userId', args: (i) => ({ leagueId: own.leagueId, userId: i.userId, confirm: true }) },
      ],
      list_assignments: [{ name: 'leagueId', args: (i) => ({ leagueId: i.leagueId }) }],
      assign_position: [
        { name: 'gameId', args: (i) => ({ gameId: i.gameId, userId: own.userId }) },
        { name: 'userId', args: (i) => ({ gameId: own.gameId, userId: i.userId }) },
        {
          name: 'positionId',
          args: (i) => ({ gameId: own.gameId, userId: own.userId, positionId: i.positionId }),
        },
        { name: 'externalId', args: (i) => ({ gameId: own.gameId, externalId: i.officialExternalId }) },
      ],
      unassign_position: [
        { name: 'both preview', args: (i) => ({ gameId: i.gameId, positionId: i.positionId }) },
        { name: 'both', args: (i) => ({ gameId: i.gameId, positionId: i.positionId, confirm: true }) },
        { name: 'gameId', args: (i) => ({ gameId: i.gameId, positionId: own.positionId, confirm: true }) },
        { name: 'positionId preview', args: (i) => ({ gameId: b.gameIds[0], positionId: i.positionId }) },
        {
          name: 'positionId',
          args: (i) => ({ gameId: b.gameIds[0], positionId: i.positionId, confirm: true }),
        },
      ],
      list_payments: [{ name: 'leagueId', args: (i) => ({ leagueId: i.leagueId }) }],
      create_webhook: [
        { name: 'source', args: (i) => ({ url: 'https://hooks.example.com/b', source: i.source }) },
      ],
      delete_webhook: [
        { name: 'webhookId preview', args: (i) => ({ webhookId: i.webhookId }) },
        { name: 'webhookId', args: (i) => ({ webhookId: i.webhookId, confirm: true }) },
      ],
      list_webhook_deliveries: [{ name: 'webhookId', args: (i) => ({ webhookId: i.webhookId, limit: 200 }) }],
      suggest_officials: [
        { name: 'gameId', args: (i) => ({ gameId: i.gameId }) },
        { name: 'positionId', args: (i) => ({ gameId: own.gameId, positionId: i.positionId }) },
      ],
      plan_assignments: [{ name: 'leagueId', args: (i) => ({ leagueId: i.leagueId }) }],
      publish_plan: [
        { name: 'planId preview', args: (i) => ({ planId: i.planId }) },
        { name: 'planId', args: (i) => ({ planId: i.planId, confirm: true }) },
      ],
      get_plan: [{ name: 'planId', args: (i) => ({ planId: i.planId }) }],
    }
    const listed: string[] = (await mcpAsB('tools/list', {})).tools.map((tool: any) => tool.name)
    expect(listed.length).toBeGreaterThanOrEqual(20)
    const toolName = (name: string) => name.replace(/^refdesk_/, '')
    expect(
      listed.map(toolName).filter((name) => !(name in tools)),
      'tools without an isolation case',
    ).toEqual([])
    const checkedTools = new Set<string>()
    for (const name of listed.map(toolName)) {
      for (const probe of tools[name]!) {
        const foreign = foreignIds('mcp')
        const missing = missingIds()
        const fr = await mcpAsB('tools/call', { name: `refdesk_${name}`, arguments: probe.args(foreign) })
        const mr = await mcpAsB('tools/call', { name: `refdesk_${name}`, arguments: probe.args(missing) })
        const left = normalize(fr, foreign)
        const right = normalize(mr, missing)
        if (JSON.stringify(left) !== JSON.stringify(right)) {
          differences.push(
            `mcp ${name} (${probe.name}): A's id → ${JSON.stringify(left).slice(0, 300)}; never-existing → ${JSON.stringify(right).slice(0, 300)}`,
          )
        }
      }
      if (tools[name]!.length === 0) {
        // The id-free tools list B's own rows only (scanned by mcpAsB) and at least B's.
        const result = await mcpAsB('tools/call', { name: `refdesk_${name}`, arguments: {} })
        expect(result.isError, name).not.toBe(true)
      }
      checkedTools.add(name)
    }
    const leagueList = await mcpAsB('tools/call', { name: 'refdesk_list_leagues', arguments: {} })
    expect(leagueList.structuredContent.data.map((l: any) => l.id)).toEqual(
      expect.arrayContaining(b.leagueIds),
    )

    // Nothing B did changed A's source.
    const snapshotAfter = await snapshotOfA()
    if (JSON.stringify(snapshotAfter) !== JSON.stringify(snapshotBefore))
      differences.push('A’s source changed')
    expect(snapshotAfter).toEqual(snapshotBefore)

    // Webhooks: every event is delivered, A's to A's receiver only, B's to B's only.
    const deliveriesOf = async (p: Partner, webhookId: string) =>
      (await p.get(`/webhooks/${webhookId}/deliveries?limit=200`)).body.data as any[]
    const settled = await vi.waitFor(
      async () => {
        const ofA = await deliveriesOf(A, a.webhookIds[0]!)
        const ofB = await deliveriesOf(B, b.webhookIds[0]!)
        const pending = [...ofA, ...ofB].filter((d) => d.status !== 'succeeded')
        if (pending.length > 0) throw new Error(`${pending.length} deliveries not yet succeeded`)
        return { ofA, ofB }
      },
      { timeout: 60_000, interval: 100 },
    )
    const leaguesOfA = new Set([...a.leagueIds])
    const leaguesOfBSet = new Set<string>((await B.get('/leagues')).body.data.map((l: any) => l.id))
    const received = (r: Receiver) => r.accepted().map((d) => d.json)
    const eventIdsOfA = new Set(settled.ofA.map((d) => d.eventId))
    const misrouted = [
      ...received(receiverB).filter((e) => !leaguesOfBSet.has(e.data.leagueId) || eventIdsOfA.has(e.id)),
      ...received(receiverA).filter((e) => !leaguesOfA.has(e.data.leagueId)),
    ]
    for (const e of misrouted)
      differences.push(`delivery ${e.event} for league ${e.data.leagueId} reached the wrong receiver`)
    expect(received(receiverA).length).toBeGreaterThanOrEqual(settled.ofA.length)
    expect(new Set(received(receiverA).map((e) => e.id))).toEqual(eventIdsOfA)
    expect(new Set(received(receiverA).map((e) => e.event))).toEqual(
      new Set([
        'game.created',
        'game.cancelled',
        'game.completed',
        'position.claimed',
        'official.joined',
        'official.no_show',
        'payment.paid',
        'payment.failed',
      ]),
    )
    expect(received(receiverB).length).toBeGreaterThan(0)

    const total = operations.length
    const toolCount = listed.length
    const leakCount = differences.length + leaks.length
    recordFigure({
      section: 'isolation',
      metric: 'REST operations checked / total',
      value: `${checkedOperations.size}/${total}`,
      target: 'all',
      met: checkedOperations.size === total,
    })
    recordFigure({
      section: 'isolation',
      metric: 'MCP tools checked / total',
      value: `${checkedTools.size}/${toolCount}`,
      target: 'all',
      met: checkedTools.size === toolCount,
    })
    recordFigure({
      section: 'isolation',
      metric: 'cross-source leaks',
      value: leakCount,
      target: '0',
      met: leakCount === 0,
    })
    expect(checkedOperations.size).toBe(total)
    expect(checkedTools.size).toBe(toolCount)
    expect(differences).toEqual([])
    expect(leaks).toEqual([])
  })
})
