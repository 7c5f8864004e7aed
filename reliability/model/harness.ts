// The service side of the state-machine test: runs each command against the real service (REST through
// app.inject for partner operations, the domain services `refdesk app` calls for in-app ones), reads the
// whole state back through REST GETs, reads the outbox events each command appended, and checks the
// storage invariants with direct queries. Everything is translated to the model's symbolic keys so a
// mismatch reads as a diff of two small structures.
import { sql } from 'kysely'
import { assignPosition, withdrawClaim } from '../../src/domain/assignments/assignments.js'
import { CONSOLE_CALLER } from '../../src/domain/core/caller.js'
import type { Deps } from '../../src/domain/core/deps.js'
import { ApiError } from '../../src/domain/core/errors.js'
import { denyOfficial } from '../../src/domain/leagues/officials.js'
import { simulatedProcessor } from '../../src/domain/core/payment-processor.js'
import { played } from '../../test/helpers/clock.js'
import { chargePayment, completeGame, markNoShow, markPaid } from '../../src/domain/payments/payments.js'
import type { Partner, TestApp } from '../../test/helpers/app.js'
import { seedGame } from '../../test/helpers/fixtures.js'
import {
  paymentSnapshot,
  SpecModel,
  type ChargeOutcome,
  type ExpectedEvent,
  type GameStatus,
  type ModelGame,
  type ModelPayment,
} from './spec-model.js'

/** An id no row has: path and body ids that must answer not found. */
export const MISSING_ID = 'zz000000000000000000000000'

export interface Answer {
  status: number
  error?: string
  data?: any
}

type Kind = 'league' | 'game' | 'position' | 'user' | 'payment'

/** Symbolic key ↔ service id, per kind. */
export class Ids {
  private readonly byKey = new Map<string, string>()
  private readonly byId = new Map<string, string>()

  set(kind: Kind, key: string, id: string): void {
    this.byKey.set(`${kind}:${key}`, id)
    this.byId.set(`${kind}:${id}`, key)
  }

  has(kind: Kind, key: string): boolean {
    return this.byKey.has(`${kind}:${key}`)
  }

  /** The service id, or an id that does not exist when the key was never created. */
  id(kind: Kind, key: string | undefined): string {
    return (key !== undefined && this.byKey.get(`${kind}:${key}`)) || MISSING_ID
  }

  /** The key of a service id; an id the model never heard of shows as `?<id>` in the diff. */
  key(kind: Kind, id: string | null | undefined): string | null {
    if (id === null || id === undefined) return null
    return this.byId.get(`${kind}:${id}`) ?? `?${id}`
  }
}

// ---- the comparable view of the whole state ----

export interface PaymentView {
  key: string | null
  official: string | null
  amountCents: number
  amountDollars: number
  currency: string
  mode: string
  status: string
  paid: boolean
  failureCode: string | null
}

export interface GameView {
  key: string | null
  league: string | null
  externalId: string | null
  sport: string
  startsAt: string
  location: string
  status: string
  positions: {
    key: string | null
    label: string
    payCents: number
    payDollars: number
    status: string
    official: string | null
    /** The embedded claim view's name and email: the user as they are now. */
    contact: string | null
    payment: PaymentView | null
  }[]
}

export interface LeagueView {
  key: string | null
  externalId: string | null
  name: string
  paymentMode: string
  currency: string
  officials: { user: string | null; status: string; name: string; email: string }[]
  games: { key: string | null; status: string }[]
  payments: PaymentView[]
  assignments: { position: string | null; status: string; official: string | null; payment: string | null }[]
}

export interface View {
  /** GET /leagues: newest first, with counts (memberCount includes the organizer). */
  list: { key: string | null; gameCount: number; memberCount: number }[]
  leagues: LeagueView[]
  games: GameView[]
}

const placeholderEmail = (userId: string) => `official-${userId}@placeholder.refdesk.invalid`

/** The view the spec predicts from the model's state. */
export function modelView(model: SpecModel, ids: Ids): View {
  const emailOf = (userKey: string): string => {
    const email = model.users.get(userKey)?.email ?? ''
    return SpecModel.isPlaceholder(email) ? placeholderEmail(ids.id('user', userKey)) : email
  }
  const contactOf = (userKey: string) => `${model.users.get(userKey)?.name ?? ''} <${emailOf(userKey)}>`
  const paymentView = (p: ModelPayment): PaymentView => ({
    key: p.key,
    official: p.official,
    amountCents: p.amountCents,
    amountDollars: p.amountCents / 100,
    currency: p.currency,
    mode: p.mode,
    status: p.status,
    paid: p.status === 'paid',
    failureCode: p.failureCode,
  })
  const gameView = (g: ModelGame): GameView => ({
    key: g.key,
    league: g.league,
    externalId: g.externalId,
    sport: g.sport,
    startsAt: g.startsAt,
    location: g.location,
    status: g.status,
    positions: g.positions.map((p) => {
      const payment = model.payments.get(p.key)
      return {
        key: p.key,
        label: p.label,
        payCents: p.payCents,
        payDollars: p.payCents / 100,
        status: p.status,
        official: p.claim,
        contact: p.claim === null ? null : contactOf(p.claim),
        payment: payment ? paymentView(payment) : null,
      }
    }),
  })
  // Games by startsAt, then creation; positions by creation.
  const byStart = (a: ModelGame, b: ModelGame) =>
    a.startsAt < b.startsAt ? -1 : a.startsAt > b.startsAt ? 1 : a.seq - b.seq
  const games = [...model.games.values()].sort(byStart)
  const leagues = [...model.leagues.values()]
    .sort((a, b) => a.seq - b.seq)
    .map((league): LeagueView => {
      const mine = games.filter((g) => g.league === league.key)
      return {
        key: league.key,
        name: league.name,
        externalId: league.key,
        paymentMode: league.paymentMode,
        currency: league.currency,
        officials: [...league.officials.entries()]
          .sort((a, b) => a[1].seq - b[1].seq)
          .map(([userKey, m]) => ({
            user: userKey,
            status: m.status,
            name: model.users.get(userKey)?.name ?? '',
            email: emailOf(userKey),
          })),
        games: mine.map((g) => ({ key: g.key, status: g.status })),
        payments: [...model.payments.values()]
          .filter((p) => p.league === league.key)
          .sort((a, b) => b.seq - a.seq)
          .map(paymentView),
        assignments: mine.flatMap((g) =>
          g.positions
            .filter((p) => p.claim !== null)
            .map((p) => ({
              position: p.key,
              status: p.status,
              official: p.claim,
              payment: model.payments.has(p.key) ? p.key : null,
            })),
        ),
      }
    })
  const list = [...model.leagues.values()]
    .sort((a, b) => b.seq - a.seq)
    .map((l) => ({
      key: l.key,
      gameCount: games.filter((g) => g.league === l.key).length,
      memberCount: l.officials.size + 1,
    }))
  return {
    list,
    leagues,
    games: leagues.flatMap((l) => games.filter((g) => g.league === l.key).map(gameView)),
  }
}

function toPaymentView(ids: Ids, p: any): PaymentView {
  return {
    key: ids.key('payment', p.id),
    official: ids.key('user', p.officialId),
    amountCents: p.amountCents,
    amountDollars: p.amountDollars,
    currency: p.currency,
    mode: p.mode,
    status: p.status,
    paid: p.paidAt !== null && p.paidAt !== undefined,
    failureCode: p.failureCode ?? null,
  }
}

/** A GameDetail as the service rendered it, in the model's terms. */
export function detailView(ids: Ids, g: any): GameView {
  return {
    key: ids.key('game', g.id),
    league: ids.key('league', g.leagueId),
    externalId: g.externalId,
    sport: g.sport,
    startsAt: g.startsAt,
    location: g.location,
    status: g.status,
    positions: g.positions.map((p: any) => ({
      key: ids.key('position', p.id),
      label: p.label,
      payCents: p.payCents,
      payDollars: p.payDollars,
      status: p.status,
      official: p.official ? ids.key('user', p.official.id) : null,
      contact: p.official ? `${p.official.name} <${p.official.email}>` : null,
      payment: p.payment ? toPaymentView(ids, p.payment) : null,
    })),
  }
}

// ---- the service ----

export class Service {
  readonly ids = new Ids()
  /** The steps this run took, resolved to keys: the readable form of a counterexample. */
  readonly trace: string[] = []
  private lastSeq = 0

  constructor(
    readonly t: TestApp,
    readonly partner: Partner,
  ) {
    this.ids.set('user', 'ORG', partner.organizerId)
  }

  get deps(): Deps {
    return this.t.deps
  }

  async init(): Promise<void> {
    this.lastSeq = await this.maxSeq()
  }

  private async maxSeq(): Promise<number> {
    const row = await this.deps.db
      .selectFrom('outbox_events')
      .select((eb) => eb.fn.max('seq').as('seq'))
      .executeTakeFirst()
    return Number(row?.seq ?? 0)
  }

  private static rest(reply: { status: number; body: any }): Answer {
    return reply.status < 300
      ? { status: reply.status, data: reply.body?.data }
      : { status: reply.status, error: reply.body?.error }
  }

  /** An in-app action: the domain service, with its refusal as the status and code its catalog gives. */
  private static async inApp(action: () => Promise<unknown>): Promise<Answer> {
    try {
      return { status: 200, data: await action() }
    } catch (error) {
      if (error instanceof ApiError) return { status: error.status, error: error.message }
      throw error
    }
  }

  async upsertLeague(key: string, body: Record<string, unknown>): Promise<Answer> {
    const answer = Service.rest(await this.partner.post('/leagues', { ...body, externalId: key }))
    if (answer.data?.id && !this.ids.has('league', key)) this.ids.set('league', key, answer.data.id)
    return answer
  }

  async upsertGames(leagueKey: string, games: Record<string, unknown>[]): Promise<Answer> {
    const leagueId = this.ids.id('league', leagueKey)
    const answer = Service.rest(await this.partner.post(`/leagues/${leagueId}/games`, { games }))
    // A failed batch keeps its earlier games but names none of them: find them by externalId.
    if (this.ids.has('league', leagueKey)) {
      const listed = await this.partner.get(`/leagues/${leagueId}/games`)
      for (const game of listed.body?.data ?? []) if (game.externalId) this.learnGame(game.externalId, game)
    }
    return answer
  }

  private learnGame(key: string, game: any): void {
    if (this.ids.has('game', key)) return
    this.ids.set('game', key, game.id)
    game.positions.forEach((p: any, i: number) => this.ids.set('position', `${key}#${i}`, p.id))
  }

  async seedGame(
    key: string,
    leagueKey: string,
    payCents: readonly number[],
    startsAt: string,
  ): Promise<void> {
    const game = await seedGame(this.deps.db, this.ids.id('league', leagueKey), {
      startsAt,
      positions: payCents.map((pay) => ({ payCents: pay })),
    })
    this.ids.set('game', key, game.id)
    game.positionIds.forEach((id, i) => this.ids.set('position', `${key}#${i}`, id))
  }

  async patchGame(gameKey: string, body: Record<string, unknown>): Promise<Answer> {
    return Service.rest(await this.partner.patch(`/games/${this.ids.id('game', gameKey)}`, body))
  }

  async addPosition(gameKey: string, payCents: number): Promise<Answer> {
    const answer = Service.rest(
      await this.partner.post(`/games/${this.ids.id('game', gameKey)}/positions`, {
        payDollars: payCents / 100,
      }),
    )
    // Positions answer in creation order: the new one is last, with the key the model gave it.
    const crew = answer.data?.positions
    if (answer.status === 201 && crew)
      this.ids.set('position', `${gameKey}#${crew.length - 1}`, crew.at(-1).id)
    return answer
  }

  async removePosition(gameKey: string, positionKey: string): Promise<Answer> {
    const path = `/games/${this.ids.id('game', gameKey)}/positions/${this.ids.id('position', positionKey)}`
    return Service.rest(await this.partner.delete(path))
  }

  async cancelGame(gameKey: string): Promise<Answer> {
    return Service.rest(await this.partner.delete(`/games/${this.ids.id('game', gameKey)}`))
  }

  async upsertOfficial(leagueKey: string, userKey: string, body: Record<string, unknown>): Promise<Answer> {
    const answer = Service.rest(
      await this.partner.post(`/leagues/${this.ids.id('league', leagueKey)}/officials`, {
        ...body,
        externalId: userKey,
      }),
    )
    if (answer.data?.userId && !this.ids.has('user', userKey))
      this.ids.set('user', userKey, answer.data.userId)
    return answer
  }

  async removeOfficial(leagueKey: string, userKey: string): Promise<Answer> {
    const path = `/leagues/${this.ids.id('league', leagueKey)}/officials/${this.ids.id('user', userKey)}`
    return Service.rest(await this.partner.delete(path))
  }

  async assign(
    gameKey: string,
    ref: { userKey: string; via: 'userId' | 'externalId' } | null,
    positionKey: string | undefined,
  ): Promise<Answer> {
    const body = {
      ...(ref?.via === 'userId' && { userId: this.ids.id('user', ref.userKey) }),
      ...(ref?.via === 'externalId' && { externalId: ref.userKey }),
      ...(positionKey !== undefined && { positionId: this.ids.id('position', positionKey) }),
    }
    return Service.rest(await this.partner.post(`/games/${this.ids.id('game', gameKey)}/assign`, body))
  }

  async unassign(gameKey: string, positionKey: string | undefined): Promise<Answer> {
    const query = positionKey === undefined ? '' : `?positionId=${this.ids.id('position', positionKey)}`
    return Service.rest(await this.partner.delete(`/games/${this.ids.id('game', gameKey)}/assign${query}`))
  }

  claim(gameKey: string, userKey: string, positionKey: string | undefined): Promise<Answer> {
    return Service.inApp(() =>
      assignPosition(this.deps, CONSOLE_CALLER, this.ids.id('game', gameKey), {
        userId: this.ids.id('user', userKey),
        ...(positionKey !== undefined && { positionId: this.ids.id('position', positionKey) }),
      }),
    )
  }

  withdraw(positionKey: string): Promise<Answer> {
    return Service.inApp(() => withdrawClaim(this.deps, CONSOLE_CALLER, this.ids.id('position', positionKey)))
  }

  async complete(gameKey: string): Promise<Answer> {
    const answer = await Service.inApp(() =>
      // The model has no time: every game it completes has been played (a game not started yet is refused).
      completeGame(played(this.deps), CONSOLE_CALLER, this.ids.id('game', gameKey)),
    )
    for (const p of answer.data?.positions ?? []) {
      const key = this.ids.key('position', p.id)
      if (p.payment && key) this.ids.set('payment', key, p.payment.id)
    }
    return answer
  }

  noShow(positionKey: string): Promise<Answer> {
    return Service.inApp(() => markNoShow(this.deps, CONSOLE_CALLER, this.ids.id('position', positionKey)))
  }

  pay(paymentKey: string | undefined): Promise<Answer> {
    return Service.inApp(() => markPaid(this.deps, CONSOLE_CALLER, this.ids.id('payment', paymentKey)))
  }

  /** `refdesk app charge --outcome`: the simulated processor answering the given outcome. */
  charge(paymentKey: string | undefined, outcome: ChargeOutcome): Promise<Answer> {
    const deps = { ...this.deps, paymentProcessor: simulatedProcessor(outcome) }
    return Service.inApp(() => chargePayment(deps, CONSOLE_CALLER, this.ids.id('payment', paymentKey)))
  }

  deny(leagueKey: string, userKey: string): Promise<Answer> {
    return Service.inApp(() =>
      denyOfficial(this.deps, CONSOLE_CALLER, this.ids.id('league', leagueKey), this.ids.id('user', userKey)),
    )
  }

  // ---- reading back ----

  /** The whole state of the run's leagues, through the partner's REST reads. */
  async view(leagueKeys: readonly string[]): Promise<View> {
    // Reads only, so they may run side by side: a PostgreSQL step costs one round of them, not a queue.
    const [listed, ...perLeague] = await Promise.all([
      this.partner.get('/leagues'),
      ...leagueKeys.map((key) => this.leagueView(key)),
    ])
    const list = listed.body.data.map((l: any) => ({
      key: this.ids.key('league', l.id),
      gameCount: l.gameCount,
      memberCount: l.memberCount,
    }))
    return { list, leagues: perLeague.map((l) => l.league), games: perLeague.flatMap((l) => l.games) }
  }

  private async leagueView(key: string): Promise<{ league: LeagueView; games: GameView[] }> {
    const id = this.ids.id('league', key)
    const [detail, payments, assignments] = await Promise.all([
      this.partner.get(`/leagues/${id}`),
      this.partner.get(`/leagues/${id}/payments`),
      this.partner.get(`/leagues/${id}/assignments`),
    ])
    const d = detail.body.data
    if (!d) throw new Error(`GET /leagues/${key} answered ${detail.status} ${JSON.stringify(detail.body)}`)
    const details = await Promise.all(d.games.map((g: any) => this.partner.get(`/games/${g.id}`)))
    return {
      league: {
        key: this.ids.key('league', d.id),
        name: d.name,
        externalId: d.externalId,
        paymentMode: d.paymentMode,
        currency: d.currency,
        officials: d.officials.map((o: any) => ({
          user: this.ids.key('user', o.userId),
          status: o.status,
          name: o.name,
          email: o.email,
        })),
        games: d.games.map((g: any) => ({ key: this.ids.key('game', g.id), status: g.status })),
        payments: payments.body.data.map((p: any) => toPaymentView(this.ids, p)),
        assignments: assignments.body.data.map((a: any) => ({
          position: this.ids.key('position', a.positionId),
          status: a.status,
          official: this.ids.key('user', a.official.id),
          payment: a.payment ? this.ids.key('payment', a.payment.id) : null,
        })),
      },
      games: details.map((reply) => detailView(this.ids, reply.body.data)),
    }
  }

  /** The outbox events appended since the previous call, in the model's terms. */
  async newEvents(): Promise<ExpectedEvent[]> {
    const rows = await this.deps.db
      .selectFrom('outbox_events')
      .select(['seq', 'event', 'league_id', 'data'])
      .where('seq', '>', this.lastSeq)
      .orderBy('seq')
      .execute()
    if (rows.length > 0) this.lastSeq = Number(rows[rows.length - 1]?.seq)
    return rows.map((row) => this.normalizeEvent(row.event, row.league_id, JSON.parse(row.data)))
  }

  /** A Game (game.created, game.updated) or GameDetail payload, as the model's `gameState` renders it. */
  private gameState(game: any, event: string): { gameStatus: GameStatus; snapshot: string } {
    const detail = event !== 'game.created' && event !== 'game.updated'
    const positions = game.positions.map((p: any) => {
      const key = this.ids.key('position', p.id)
      return detail
        ? `${key}:${p.status}:${p.official ? this.ids.key('user', p.official.id) : '-'}:${p.payment?.status ?? '-'}`
        : `${key}:${p.status}`
    })
    return {
      gameStatus: game.status,
      snapshot: `${game.sport}|${game.startsAt}|${game.location}|${positions.join(',')}`,
    }
  }

  private normalizeEvent(event: string, leagueId: string, data: any): ExpectedEvent {
    const ids = this.ids
    const base = { event, league: ids.key('league', leagueId) as string }
    if (data.leagueId !== leagueId) return { ...base, league: `data.leagueId=${data.leagueId}` }
    switch (event) {
      case 'game.created':
      case 'game.updated':
      case 'game.cancelled':
      case 'game.completed':
        return { ...base, game: ids.key('game', data.id) as string, ...this.gameState(data, event) }
      case 'position.claimed':
      case 'position.released':
      case 'position.withdrawn':
      case 'official.no_show':
        return {
          ...base,
          game: ids.key('game', data.game.id) as string,
          ...this.gameState(data.game, event),
          position: ids.key('position', data.positionId) as string,
          official: ids.key('user', data.official.id) as string,
        }
      case 'official.joined':
      case 'official.approved':
        return {
          ...base,
          official: ids.key('user', data.official.userId) as string,
          officialStatus: data.official.status,
        }
      case 'official.removed':
        return {
          ...base,
          official: ids.key('user', data.official.userId) as string,
          officialStatus: data.official.status,
          reopened: data.reopenedPositionIds.map((id: string) => ids.key('position', id)),
        }
      default:
        return {
          ...base,
          payment: ids.key('payment', data.payment.id) as string,
          paymentStatus: data.payment.status,
          paymentSnapshot: paymentSnapshot(toPaymentView(ids, data.payment)),
        }
    }
  }

  /**
   * The storage invariants, straight from the tables of this run's source: at most one claim and one
   * payment per position, a claim exactly where the position's status needs one, a payment only on a
   * worked (or no-show) slot, and every game's status the spec's rollup of its positions.
   */
  async invariantViolations(): Promise<string[]> {
    const db = this.deps.db
    const source = this.partner.source
    const positions = await db
      .selectFrom('positions')
      .innerJoin('games', 'games.id', 'positions.game_id')
      .select([
        'positions.id as id',
        'positions.status as status',
        'games.id as gameId',
        'games.status as gameStatus',
        (eb) =>
          eb
            .selectFrom('claims')
            .select(sql<number>`count(*)`.as('n'))
            .whereRef('claims.position_id', '=', 'positions.id')
            .as('claims'),
        (eb) =>
          eb
            .selectFrom('payments')
            .select(sql<number>`count(*)`.as('n'))
            .whereRef('payments.position_id', '=', 'positions.id')
            .as('payments'),
      ])
      .where('games.source', '=', source)
      .orderBy('positions.seq')
      .execute()
    const violations: string[] = []
    const games = new Map<string, { status: GameStatus; positions: { status: GameStatus }[] }>()
    for (const p of positions) {
      const claims = Number(p.claims)
      const payments = Number(p.payments)
      const where = `position ${this.ids.key('position', p.id)} (${p.status})`
      if (claims > 1) violations.push(`${where}: ${claims} claims`)
      if (payments > 1) violations.push(`${where}: ${payments} payments`)
      if ((p.status === 'claimed' || p.status === 'completed') && claims !== 1)
        violations.push(`${where}: held without a claim`)
      if (p.status === 'open' && claims !== 0) violations.push(`${where}: open with a claim`)
      if (payments > 0 && p.status !== 'completed' && !(p.status === 'cancelled' && claims === 1))
        violations.push(`${where}: a payment on a slot nobody worked`)
      const game = games.get(p.gameId) ?? { status: p.gameStatus, positions: [] }
      game.positions.push({ status: p.status })
      games.set(p.gameId, game)
    }
    for (const [id, game] of games) {
      if (game.status === 'cancelled') continue
      const statuses = game.positions.map((p) => p.status)
      // Neither open nor claimed slots left: worked ones, or no-shows of a completed game.
      const expected: GameStatus = statuses.includes('open')
        ? 'open'
        : statuses.includes('claimed')
          ? 'claimed'
          : 'completed'
      if (game.status !== expected)
        violations.push(`game ${this.ids.key('game', id)}: status ${game.status}, rollup ${expected}`)
    }
    return violations
  }
}

/** Where two JSON-like values differ, one line per differing path (at most `limit`). */
export function differences(expected: unknown, actual: unknown, path = '', limit = 20): string[] {
  const out: string[] = []
  const walk = (e: any, a: any, at: string) => {
    if (out.length >= limit) return
    if (e === a) return
    const bothObjects = e !== null && a !== null && typeof e === 'object' && typeof a === 'object'
    if (!bothObjects || Array.isArray(e) !== Array.isArray(a)) {
      out.push(`${at || '.'}: expected ${JSON.stringify(e)}, got ${JSON.stringify(a)}`)
      return
    }
    if (Array.isArray(e) && e.length !== a.length) {
      out.push(`${at}: expected ${e.length} items ${JSON.stringify(e)}, got ${a.length} ${JSON.stringify(a)}`)
      return
    }
    const keys = new Set([...Object.keys(e), ...Object.keys(a)])
    for (const key of keys) {
      // An absent field and an undefined one are the same to the model.
      if (e[key] === undefined && a[key] === undefined) continue
      walk(e[key], a[key], `${at}.${key}`)
    }
  }
  walk(expected, actual, path)
  return out
}
