// A plain in-memory implementation of the partner spec's state rules (partner-api-v1.md "States and
// transitions", DESIGN.md's in-app actions, docs/decisions.md and docs/payments.md for the gaps). It shares
// no code with src/: the state-machine test runs it beside the service and demands that both agree on
// every answer, every state and every event. Everything is keyed by symbolic names (league `L0`, game
// `G1`, position `G1#0`, user `O2`); the harness maps them to the service's ids.

export type GameStatus = 'open' | 'claimed' | 'completed' | 'cancelled'
export type MembershipStatus = 'pending' | 'approved' | 'denied'
export type PaymentStatus = 'pending' | 'processing' | 'paid' | 'requires_card' | 'failed'
export type PaymentMode = 'offline' | 'platform'
export type ChargeOutcome = 'paid' | 'failed' | 'requires_card'

/** The user the partner key was issued for: the organizer of every league the key creates. */
export const ORGANIZER = 'ORG'
const PLACEHOLDER = Symbol('placeholder email')

export interface ModelUser {
  key: string
  name: string
  /** `PLACEHOLDER` until an address is given: the service synthesizes one from the user id. */
  email: string | typeof PLACEHOLDER
}

export interface ModelMembership {
  status: MembershipStatus
  seq: number
}

export interface ModelLeague {
  key: string
  seq: number
  name: string
  paymentMode: PaymentMode
  currency: string
  officials: Map<string, ModelMembership>
}

export interface ModelPosition {
  key: string
  seq: number
  label: string
  payCents: number
  status: GameStatus
  /** The user holding the claim; kept on worked and no-show positions. */
  claim: string | null
}

export interface ModelGame {
  key: string
  seq: number
  league: string
  externalId: string | null
  sport: string
  startsAt: string
  location: string
  status: GameStatus
  positions: ModelPosition[]
}

export interface ModelPayment {
  /** The position's key: one payment per position, ever (a game completes at most once). */
  key: string
  seq: number
  league: string
  official: string
  amountCents: number
  currency: string
  mode: PaymentMode
  status: PaymentStatus
  failureCode: string | null
}

/** An event as the test compares it: the event name and the ids and statuses its payload names. */
export interface ExpectedEvent {
  event: string
  league: string
  game?: string
  gameStatus?: GameStatus
  /** The game in the payload: fields and positions (with official and payment status in a GameDetail). */
  snapshot?: string
  position?: string
  official?: string
  officialStatus?: MembershipStatus
  payment?: string
  paymentStatus?: PaymentStatus
  /** The payment in the payload: amount, currency, mode, official, paidAt set, failure code. */
  paymentSnapshot?: string
  reopened?: string[]
}

export interface Outcome {
  status: number
  error?: string
  events: ExpectedEvent[]
  /** Games a batch persisted, in item order (what `created` lists). */
  persisted?: string[]
}

export interface GameItem {
  externalId: string
  startsAt: string
  sport?: string
  location?: string
  label?: string
  payCents?: number
  /** An unparseable startsAt: the batch stops at this item with `invalid_startsAt:<value>`. */
  invalid?: boolean
}

export const INVALID_STARTS_AT = 'not a date'

const ok = (status: number, events: ExpectedEvent[] = []): Outcome => ({ status, events })
const GAME_LENGTH_MS = 90 * 60_000
const GAME_BUFFER_MS = 30 * 60_000
const refuse = (status: number, error: string): Outcome => ({ status, error, events: [] })

export class SpecModel {
  readonly leagues = new Map<string, ModelLeague>()
  readonly games = new Map<string, ModelGame>()
  readonly users = new Map<string, ModelUser>([[ORGANIZER, { key: ORGANIZER, name: '', email: '' }]])
  readonly payments = new Map<string, ModelPayment>()
  /** Payment keys ever created, deleted ones included: their ids still answer payment_not_found. */
  readonly paymentKeys: string[] = []
  /**
   * Memberships their person joined (DESIGN "Consent"), as `user|league`: by the official's own claim there.
   * A hold in another league counts towards a claim only when the person joined both leagues.
   */
  private readonly joined = new Set<string>()
  private seq = 0

  private next(): number {
    return ++this.seq
  }

  /** Every position, in creation order. */
  positions(): { game: ModelGame; position: ModelPosition }[] {
    return [...this.games.values()]
      .flatMap((game) => game.positions.map((position) => ({ game, position })))
      .sort((a, b) => a.position.seq - b.position.seq)
  }

  findPosition(key: string): { game: ModelGame; position: ModelPosition } | undefined {
    return this.positions().find((p) => p.position.key === key)
  }

  /** The spec's rollup (decisions.md): any open → open; else any claimed → claimed; else completed. */
  static rollup(current: GameStatus, positions: readonly ModelPosition[]): GameStatus {
    if (current === 'cancelled') return 'cancelled'
    const statuses = positions.map((p) => p.status)
    if (statuses.includes('open')) return 'open'
    if (statuses.includes('claimed')) return 'claimed'
    if (statuses.includes('completed')) return 'completed'
    // Only no-show positions left: the game stays what it was (completed).
    return current
  }

  private refresh(game: ModelGame): void {
    game.status = SpecModel.rollup(game.status, game.positions)
  }

  private positionEvent(
    event: string,
    game: ModelGame,
    position: ModelPosition,
    official: string,
  ): ExpectedEvent {
    return {
      event,
      league: game.league,
      game: game.key,
      ...this.gameState(game, true),
      position: position.key,
      official,
    }
  }

  /** The game as an event payload shows it right after the change (`detail`: a GameDetail). */
  gameState(game: ModelGame, detail: boolean): { gameStatus: GameStatus; snapshot: string } {
    const positions = game.positions.map((p) =>
      detail
        ? `${p.key}:${p.status}:${p.claim ?? '-'}:${this.payments.get(p.key)?.status ?? '-'}`
        : `${p.key}:${p.status}`,
    )
    return {
      gameStatus: game.status,
      snapshot: `${game.sport}|${game.startsAt}|${game.location}|${positions.join(',')}`,
    }
  }

  // ---- REST ----

  upsertLeague(
    key: string,
    input: { name: string; paymentMode?: string; currency?: string; source?: 'own' | 'reserved' | 'foreign' },
  ): Outcome {
    const name = input.name.trim()
    if (name === '') return refuse(400, 'name_required')
    if (input.source === 'reserved') return refuse(400, 'source_reserved')
    if (input.source === 'foreign') return refuse(400, 'source_mismatch')
    const league = this.leagues.get(key)
    // A re-post keeps what it omits (docs/decisions.md); a new league defaults to offline, usd.
    const paymentMode: PaymentMode =
      input.paymentMode === undefined
        ? (league?.paymentMode ?? 'offline')
        : input.paymentMode === 'platform'
          ? 'platform'
          : 'offline'
    const fields = {
      name,
      paymentMode,
      currency: input.currency?.toLowerCase() ?? league?.currency ?? 'usd',
    }
    if (league) Object.assign(league, fields)
    else this.leagues.set(key, { key, seq: this.next(), ...fields, officials: new Map() })
    // League create and update emit no webhook.
    return ok(201)
  }

  upsertGames(leagueKey: string, items: readonly GameItem[]): Outcome {
    if (!this.leagues.has(leagueKey)) return refuse(404, 'league_not_found')
    const events: ExpectedEvent[] = []
    const persisted: string[] = []
    // Not transactional: games before the failing item stay persisted with their events.
    const stop = (status: number, error: string): Outcome => ({ status, error, events, persisted })
    for (const item of items) {
      if (item.invalid) return stop(400, `invalid_startsAt:${INVALID_STARTS_AT}`)
      // Lenient input, one output form: YYYY-MM-DDTHH:MM:SS.sssZ.
      const startsAt = new Date(item.startsAt).toISOString()
      let game = this.games.get(item.externalId)
      if (game && game.league !== leagueKey) return stop(409, 'external_id_conflict')
      if (game) {
        game.startsAt = startsAt
        if (item.sport !== undefined) game.sport = item.sport
        if (item.location !== undefined) game.location = item.location
      } else {
        game = {
          key: item.externalId,
          seq: this.next(),
          league: leagueKey,
          externalId: item.externalId,
          sport: item.sport ?? '',
          startsAt,
          location: item.location ?? '',
          status: 'open',
          positions: [],
        }
        game.positions.push({
          key: `${game.key}#0`,
          seq: this.next(),
          label: item.label ?? 'Official',
          payCents: item.payCents ?? 0,
          status: 'open',
          claim: null,
        })
        this.games.set(game.key, game)
      }
      persisted.push(game.key)
      events.push({
        event: 'game.created',
        league: leagueKey,
        game: game.key,
        ...this.gameState(game, false),
      })
    }
    return { status: 201, events, persisted }
  }

  /** A game with several positions, written by fixture (no endpoint creates one): no events. */
  seedGame(key: string, leagueKey: string, payCents: readonly number[], startsAt: string): void {
    const game: ModelGame = {
      key,
      seq: this.next(),
      league: leagueKey,
      externalId: null,
      sport: 'soccer',
      startsAt,
      location: 'Field 1',
      status: 'open',
      positions: [],
    }
    payCents.forEach((pay, i) =>
      game.positions.push({
        key: `${key}#${i}`,
        seq: this.next(),
        label: 'Official',
        payCents: pay,
        status: 'open',
        claim: null,
      }),
    )
    this.games.set(key, game)
  }

  patchGame(gameKey: string, input: { sport?: string; location?: string; status?: string }): Outcome {
    const game = this.games.get(gameKey)
    if (input.status !== undefined) return refuse(400, 'status_not_updatable')
    if (!game) return refuse(404, 'game_not_found')
    const changed =
      (input.sport !== undefined && input.sport !== game.sport) ||
      (input.location !== undefined && input.location !== game.location)
    if (input.sport !== undefined) game.sport = input.sport
    if (input.location !== undefined) game.location = input.location
    if (!changed) return ok(200)
    return ok(200, [
      { event: 'game.updated', league: game.league, game: game.key, ...this.gameState(game, false) },
    ])
  }

  /** `POST /games/{id}/positions` (DESIGN "Crews"): a new open position; a claimed game is open again. */
  addPosition(gameKey: string, payCents: number): Outcome {
    const game = this.games.get(gameKey)
    if (!game) return refuse(404, 'game_not_found')
    if (game.status === 'cancelled' || game.status === 'completed') return refuse(409, 'game_closed')
    game.positions.push({
      key: `${gameKey}#${game.positions.length}`,
      seq: this.next(),
      label: 'Official',
      payCents,
      status: 'open',
      claim: null,
    })
    this.refresh(game)
    return ok(201, [
      { event: 'game.updated', league: game.league, game: game.key, ...this.gameState(game, false) },
    ])
  }

  /** `DELETE /games/{id}/positions/{positionId}`: an open position is cancelled, never the last one standing. */
  removePosition(gameKey: string, positionKey: string): Outcome {
    const game = this.games.get(gameKey)
    if (!game) return refuse(404, 'game_not_found')
    const position = game.positions.find((p) => p.key === positionKey)
    if (!position) return refuse(404, 'position_not_found')
    if (position.status !== 'open' || game.status === 'cancelled') return refuse(409, 'position_not_open')
    if (game.positions.filter((p) => p.status !== 'cancelled').length <= 1)
      return refuse(409, 'last_position')
    position.status = 'cancelled'
    this.refresh(game)
    return ok(200, [
      { event: 'game.updated', league: game.league, game: game.key, ...this.gameState(game, false) },
    ])
  }

  cancelGame(gameKey: string): Outcome {
    const game = this.games.get(gameKey)
    if (!game) return refuse(404, 'game_not_found')
    if (game.status === 'cancelled') return ok(200)
    for (const p of game.positions) if (p.status === 'open') p.status = 'cancelled'
    game.status = 'cancelled'
    return ok(200, [
      { event: 'game.cancelled', league: game.league, game: game.key, ...this.gameState(game, true) },
    ])
  }

  upsertOfficial(
    leagueKey: string,
    userKey: string,
    input: { status?: string; name?: string; email?: string },
  ): Outcome {
    const league = this.leagues.get(leagueKey)
    if (!league) return refuse(404, 'league_not_found')
    if (userKey === ORGANIZER) return refuse(409, 'user_is_organizer')
    const email = input.email?.trim().toLowerCase()
    const user = this.users.get(userKey)
    if (user) {
      if (input.name !== undefined) user.name = input.name
      if (email) user.email = email
    } else {
      this.users.set(userKey, { key: userKey, name: input.name ?? '', email: email || PLACEHOLDER })
    }
    const status: MembershipStatus = input.status === 'pending' ? 'pending' : 'approved'
    const membership = league.officials.get(userKey)
    if (membership) membership.status = status
    else league.officials.set(userKey, { status, seq: this.next() })
    const event = membership ? 'official.approved' : 'official.joined'
    return ok(201, [{ event, league: leagueKey, official: userKey, officialStatus: status }])
  }

  removeOfficial(leagueKey: string, userKey: string): Outcome {
    const league = this.leagues.get(leagueKey)
    if (!league) return refuse(404, 'league_not_found')
    if (userKey === ORGANIZER) return refuse(409, 'not_an_official')
    const membership = league.officials.get(userKey)
    if (!membership) return refuse(404, 'not_a_member')
    // Only slots the official holds in status `claimed` reopen; worked and no-show slots keep the claim.
    const held = this.positions().filter(
      ({ game, position }) =>
        game.league === leagueKey && position.claim === userKey && position.status === 'claimed',
    )
    for (const { game, position } of held) this.release(game, position)
    for (const game of new Set(held.map((h) => h.game))) this.refresh(game)
    league.officials.delete(userKey)
    this.joined.delete(`${userKey}|${leagueKey}`)
    return ok(200, [
      {
        event: 'official.removed',
        league: leagueKey,
        official: userKey,
        officialStatus: membership.status,
        reopened: held.map((h) => h.position.key),
      },
    ])
  }

  /**
   * Partner assign (`via` userId or externalId) and in-app claim (always by user id, `byOfficial`). The
   * official's own claim obeys the conflict rules (DESIGN "Availability and conflicts"); a partner's assign
   * does not while the league's conflictPolicy is `allow`, the only policy these runs use, except that no
   * one holds two positions of one game.
   */
  assign(
    gameKey: string,
    ref: { userKey: string; via: 'userId' | 'externalId' } | null,
    positionKey: string | undefined,
    byOfficial = false,
  ): Outcome {
    if (!ref) return refuse(400, 'externalId_required')
    const game = this.games.get(gameKey)
    if (!game) return refuse(404, 'game_not_found')
    if (!this.users.has(ref.userKey)) return refuse(404, 'official_not_found')
    const league = this.leagues.get(game.league)
    if (league?.officials.get(ref.userKey)?.status !== 'approved') return refuse(409, 'not_a_league_official')
    // A cancelled game never has an open position.
    const isOpen = (p: ModelPosition) => p.status === 'open' && game.status !== 'cancelled'
    let position: ModelPosition | undefined
    if (positionKey !== undefined) {
      position = game.positions.find((p) => p.key === positionKey)
      if (!position) return refuse(404, 'position_not_found')
      // A cancelled game's kept claim is no race lost: the position is simply not open.
      if (!isOpen(position))
        return refuse(
          409,
          position.status === 'claimed' && game.status !== 'cancelled'
            ? 'position_taken'
            : 'position_not_open',
        )
    } else {
      position = game.positions.find(isOpen)
      if (!position)
        return game.status !== 'cancelled' && game.positions.some((p) => p.status === 'claimed')
          ? refuse(409, 'position_taken')
          : refuse(409, 'no_open_position')
    }
    // One official, one position a game, on every path (DESIGN "Plans an assignor publishes").
    const chosen = position
    if (game.positions.some((p) => p !== chosen && p.claim === ref.userKey))
      return refuse(409, 'schedule_conflict')
    if (byOfficial && this.holdsNear(ref.userKey, game)) return refuse(409, 'schedule_conflict')
    // The official's own claim is their consent to the league; a refused one joins nothing.
    if (byOfficial) this.joined.add(`${ref.userKey}|${game.league}`)
    position.status = 'claimed'
    position.claim = ref.userKey
    this.refresh(game)
    return ok(200, [this.positionEvent('position.claimed', game, position, ref.userKey)])
  }

  /**
   * Rule 1, `schedule_conflict`: the person (an email address; a placeholder address is one user's alone)
   * already holds a position of this game, of a game at the same place that overlaps it, or of a game
   * elsewhere within the travel buffer of it. The place is the location (the runs send no venue; an
   * empty location is no place). The runs keep the defaults: every game lasts 90 minutes, the buffer is
   * 30; no blackouts, no daily limit, no levels.
   */
  private holdsNear(userKey: string, target: ModelGame): boolean {
    const person = (key: string) => {
      const email = this.users.get(key)?.email
      return email === undefined || SpecModel.isPlaceholder(email) ? `user:${key}` : email
    }
    const who = person(userKey)
    // The claim being judged joins its league, so the person's holds in the leagues they joined count too.
    const counts = (g: ModelGame, holder: string) =>
      g.league === target.league || this.joined.has(`${holder}|${g.league}`)
    // The target's time with the buffer that applies between it and the held game `g`.
    const near = (g: ModelGame) => {
      const start = Date.parse(target.startsAt)
      const buffer = g.location !== '' && g.location === target.location ? 0 : GAME_BUFFER_MS
      return { start: start - buffer, end: start + GAME_LENGTH_MS + buffer }
    }
    return this.positions().some(
      ({ game, position }) =>
        (position.status === 'claimed' || position.status === 'completed') &&
        game.status !== 'cancelled' &&
        position.claim !== null &&
        person(position.claim) === who &&
        counts(game, position.claim) &&
        (game === target ||
          (Date.parse(game.startsAt) < near(game).end &&
            near(game).start < Date.parse(game.startsAt) + GAME_LENGTH_MS)),
    )
  }

  /** claimed → open (cancelled in a cancelled game), claim deleted. */
  private release(game: ModelGame, position: ModelPosition): string {
    const official = position.claim as string
    position.status = game.status === 'cancelled' ? 'cancelled' : 'open'
    position.claim = null
    return official
  }

  unassign(gameKey: string, positionKey: string | undefined): Outcome {
    if (positionKey === undefined) return refuse(400, 'positionId_required')
    const game = this.games.get(gameKey)
    if (!game) return refuse(404, 'game_not_found')
    const position = game.positions.find((p) => p.key === positionKey)
    if (!position) return refuse(404, 'position_not_found')
    if (position.status !== 'claimed' || !position.claim) return refuse(409, 'position_not_claimed')
    const official = this.release(game, position)
    this.refresh(game)
    return ok(200, [this.positionEvent('position.released', game, position, official)])
  }

  // ---- in-app ----

  withdraw(positionKey: string): Outcome {
    const found = this.findPosition(positionKey)
    if (!found) return refuse(404, 'position_not_found')
    const { game, position } = found
    if (position.status !== 'claimed' || !position.claim) return refuse(409, 'position_not_claimed')
    const official = this.release(game, position)
    this.refresh(game)
    // The spec names no event for a withdrawal; RefDesk adds one (DESIGN.md, "Notifications").
    return ok(200, [this.positionEvent('position.withdrawn', game, position, official)])
  }

  complete(gameKey: string): Outcome {
    const game = this.games.get(gameKey)
    if (!game) return refuse(404, 'game_not_found')
    if (game.status !== 'claimed') return refuse(409, 'game_not_claimed')
    const league = this.leagues.get(game.league) as ModelLeague
    for (const position of game.positions) {
      if (position.status !== 'claimed') continue
      position.status = 'completed'
      this.payments.set(position.key, {
        key: position.key,
        seq: this.next(),
        league: league.key,
        official: position.claim as string,
        amountCents: position.payCents,
        currency: league.currency,
        mode: league.paymentMode,
        status: 'pending',
        failureCode: null,
      })
      this.paymentKeys.push(position.key)
    }
    game.status = 'completed'
    return ok(200, [
      { event: 'game.completed', league: game.league, game: game.key, ...this.gameState(game, true) },
    ])
  }

  noShow(positionKey: string): Outcome {
    const found = this.findPosition(positionKey)
    if (!found) return refuse(404, 'position_not_found')
    const { game, position } = found
    if (game.status !== 'completed') return refuse(409, 'game_not_completed')
    if (position.status !== 'completed' || !position.claim) return refuse(409, 'position_not_claimed')
    position.status = 'cancelled'
    const payment = this.payments.get(position.key)
    // Money already moving or moved stays; anything unsettled is withdrawn.
    if (payment && payment.status !== 'processing' && payment.status !== 'paid')
      this.payments.delete(position.key)
    this.refresh(game)
    return ok(200, [this.positionEvent('official.no_show', game, position, position.claim)])
  }

  pay(paymentKey: string | undefined): Outcome {
    const payment = paymentKey === undefined ? undefined : this.payments.get(paymentKey)
    if (!payment) return refuse(404, 'payment_not_found')
    if (payment.mode !== 'offline') return refuse(409, 'payment_not_offline')
    if (payment.status !== 'pending') return refuse(409, 'payment_not_pending')
    payment.status = 'paid'
    return ok(200, [this.paymentEvent('payment.paid', payment)])
  }

  charge(paymentKey: string | undefined, outcome: ChargeOutcome): Outcome {
    const payment = paymentKey === undefined ? undefined : this.payments.get(paymentKey)
    if (!payment) return refuse(404, 'payment_not_found')
    if (payment.mode !== 'platform') return refuse(409, 'payment_not_platform')
    if (!['pending', 'requires_card', 'failed'].includes(payment.status))
      return refuse(409, 'payment_not_chargeable')
    payment.status = outcome
    payment.failureCode = outcome === 'failed' ? 'card_declined' : null
    if (outcome === 'paid') return ok(200, [this.paymentEvent('payment.paid', payment)])
    if (outcome === 'failed') return ok(200, [this.paymentEvent('payment.failed', payment)])
    return ok(200)
  }

  private paymentEvent(event: string, payment: ModelPayment): ExpectedEvent {
    return {
      event,
      league: payment.league,
      payment: payment.key,
      paymentStatus: payment.status,
      paymentSnapshot: paymentSnapshot({ ...payment, paid: payment.status === 'paid' }),
    }
  }

  deny(leagueKey: string, userKey: string): Outcome {
    const league = this.leagues.get(leagueKey)
    if (!league) return refuse(404, 'league_not_found')
    if (userKey === ORGANIZER) return refuse(409, 'not_an_official')
    const membership = league.officials.get(userKey)
    if (!membership) return refuse(404, 'not_a_member')
    // Claims already held are kept; no event.
    membership.status = 'denied'
    return ok(200)
  }

  static isPlaceholder(email: ModelUser['email']): email is typeof PLACEHOLDER {
    return email === PLACEHOLDER
  }
}

export function paymentSnapshot(p: {
  amountCents: number
  currency: string
  mode: string
  official: string | null
  paid: boolean
  failureCode: string | null
}): string {
  return `${p.amountCents} ${p.currency} ${p.mode} to ${p.official} paid=${p.paid} failure=${p.failureCode}`
}
