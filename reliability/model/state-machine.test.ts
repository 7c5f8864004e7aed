// Issue 6, item 1: model-based state-machine tests. fast-check draws random sequences of partner REST
// commands (upserts of leagues, games and officials; assign, unassign, remove official, cancel, patch; a
// crew's Add position and Remove position) and
// in-app commands (claim, withdraw, complete, no-show, pay, charge, deny) over a small pool of ids, so they
// collide often and many must be refused. Each command runs against the service and against the
// in-memory spec model (spec-model.ts). After every step: the answer (status and error code) is the one
// the model predicts, the whole state read back through REST equals the model's, the outbox gained
// exactly the events the model expects for that transition, and the storage invariants hold (at most one
// claim and one payment per position, the game status is the rollup of its positions). The seed is
// printed; a failure shrinks to a minimal command sequence, reported with the steps it took resolved to
// keys. Replay it with REFDESK_MODEL_SEED, REFDESK_MODEL_PATH (the `path`) and REFDESK_MODEL_REPLAY (the
// counterexample's `replayPath`); REFDESK_MODEL_RUNS overrides the number of runs.
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestApp } from '../../test/helpers/app.js'
import { buildReliabilityApp } from '../lib/app.js'
import { databaseKind, recordFigure } from '../lib/figures.js'
import { detailView, differences, modelView, Service, type Answer } from './harness.js'
import {
  INVALID_STARTS_AT,
  ORGANIZER,
  SpecModel,
  type GameItem,
  type ModelGame,
  type ModelPayment,
  type ModelPosition,
  type Outcome,
} from './spec-model.js'

const isPg = databaseKind() === 'postgres'
// About a minute per database on two shared cores; PostgreSQL round trips cost more per step.
const NUM_RUNS = Number(process.env.REFDESK_MODEL_RUNS ?? (isPg ? 25 : 125))
const MAX_COMMANDS = 80

const stats = { commands: 0, invariantViolations: 0, mismatches: 0, failed: false, failedAt: 0 }
// Shrinking replays whole runs. Past this budget the remaining candidates pass untried, so shrinking
// ends quickly and reports the smallest failure found so far; the runs before a failure never stop early.
const SHRINK_BUDGET_MS = 120_000
/** How often each command ended how (`assign 200`, `pay payment_not_pending`): shows what the runs reached. */
const outcomes = new Map<string, number>()

// ---- pools: a few of each, so commands collide ----

const LEAGUES = ['L0', 'L1', 'L2'] as const
const REST_GAMES = ['G0', 'G1', 'G2', 'G3'] as const
const SEEDED_GAMES = ['M0', 'M1'] as const
const USERS = ['O0', 'O1', 'O2', 'O3', ORGANIZER] as const
const STARTS = ['2030-05-01T18:00:00.000Z', '2030-05-02T18:00:00.000Z', '2030-05-01T20:00:00+02:00']

/**
 * A reference drawn before the model exists, resolved when the command runs. Tier 0 (most often) picks
 * among the keys the command can succeed on (an approved official, a claimed game, a pending payment),
 * tier 1 among every key the model knows, tier 2 among the whole pool, which holds keys never created.
 * So most commands act on live data, many collide, and some must miss.
 */
interface Ref {
  i: number
  tier: 0 | 1 | 2
}

const ref: fc.Arbitrary<Ref> = fc.record({
  i: fc.nat(23),
  tier: fc.oneof(
    { weight: 5, arbitrary: fc.constant(0 as const) },
    { weight: 2, arbitrary: fc.constant(1 as const) },
    { weight: 1, arbitrary: fc.constant(2 as const) },
  ),
})
const league = ref
const game = ref
const user = ref

function pick<T>(r: Ref, preferred: readonly T[], existing: readonly T[], pool: readonly T[]): T {
  const tiers = [preferred, existing, pool].slice(r.tier).filter((list) => list.length > 0)
  const list = tiers[0] ?? pool
  return list[r.i % list.length] as T
}

const ALL_GAMES = [...REST_GAMES, ...SEEDED_GAMES]
const hasOpenPosition = (g: ModelGame) =>
  g.status !== 'cancelled' && g.positions.some((p) => p.status === 'open')
const MISSING_POSITION = 'missing-position'

const leagueOf = (m: SpecModel, r: Ref) => pick(r, [...m.leagues.keys()], [...m.leagues.keys()], LEAGUES)

function gameOf(
  m: SpecModel,
  r: Ref,
  preferred: (g: ModelGame) => boolean = (g) => g.status !== 'cancelled',
) {
  const games = [...m.games.values()]
  return pick(
    r,
    games.filter(preferred).map((g) => g.key),
    games.map((g) => g.key),
    ALL_GAMES,
  )
}

/** A user; preferred: the league's approved officials (any member when `members` is 'any'). */
function userOf(m: SpecModel, r: Ref, leagueKey: string | undefined, members: 'approved' | 'any'): string {
  const officials = [...(m.leagues.get(leagueKey ?? '')?.officials ?? [])]
  return pick(
    r,
    officials.filter(([, o]) => members === 'any' || o.status === 'approved').map(([key]) => key),
    [...m.users.keys()],
    USERS,
  )
}

function positionOf(m: SpecModel, r: Ref, preferred: (p: ModelPosition, g: ModelGame) => boolean): string {
  const all = m.positions()
  return pick(
    r,
    all.filter(({ game, position }) => preferred(position, game)).map((p) => p.position.key),
    all.map((p) => p.position.key),
    [...all.map((p) => p.position.key), MISSING_POSITION],
  )
}

/** A payment ever created (deleted ones too: their ids must answer payment_not_found), or a missing one. */
function paymentOf(m: SpecModel, r: Ref, preferred: (p: ModelPayment) => boolean): string | undefined {
  return pick<string | undefined>(
    r,
    [...m.payments.values()].filter(preferred).map((p) => p.key),
    m.paymentKeys,
    [...m.paymentKeys, undefined],
  )
}

/** Which position of a game a command names: the default (none), one of the game's, or a missing one. */
type PositionPick = { kind: 'default' } | { kind: 'inGame'; i: number; tier: 0 | 1 } | { kind: 'missing' }

const positionPick: fc.Arbitrary<PositionPick> = fc.oneof(
  { weight: 2, arbitrary: fc.constant({ kind: 'default' as const }) },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('inGame' as const),
      i: fc.nat(5),
      tier: fc.constantFrom(0 as const, 0 as const, 1 as const),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'missing' as const }) },
)

/** Tier 0 picks among the game's positions in `preferred` status, tier 1 among all of them. */
function resolvePosition(
  m: SpecModel,
  gameKey: string,
  p: PositionPick,
  preferred: ModelPosition['status'],
): string | undefined {
  if (p.kind === 'default') return undefined
  if (p.kind === 'missing') return MISSING_POSITION
  const positions = m.games.get(gameKey)?.positions ?? []
  const keys = positions.map((x) => x.key)
  if (keys.length === 0) return MISSING_POSITION
  return pick(
    { i: p.i, tier: p.tier },
    positions.filter((x) => x.status === preferred).map((x) => x.key),
    keys,
    keys,
  )
}

// ---- the command: one step on both sides, then the comparison ----

interface Step {
  label: string
  outcome: Outcome
  answer: Answer
  /** The game whose GameDetail the answer carries, when it succeeded. */
  detailOf?: string
}

class StepCommand implements fc.AsyncCommand<SpecModel, Service> {
  constructor(
    private readonly name: string,
    private readonly params: unknown,
    private readonly exec: (m: SpecModel, s: Service) => Promise<Step>,
    private readonly precondition: (m: SpecModel) => boolean = () => true,
  ) {}

  check(m: Readonly<SpecModel>): boolean {
    return this.precondition(m as SpecModel)
  }

  async run(m: SpecModel, s: Service): Promise<void> {
    const step = await this.exec(m, s)
    s.trace.push(`${step.label} → ${step.answer.error ?? step.answer.status}`)
    if (!stats.failed) {
      stats.commands += 1
      const how = `${this.name} ${step.outcome.error ?? step.outcome.status}`
      outcomes.set(how, (outcomes.get(how) ?? 0) + 1)
    }
    const mismatches: string[] = []
    const violations: string[] = []
    const compare = (into: string[], what: string, expected: unknown, actual: unknown) => {
      for (const line of differences(expected, actual)) into.push(`${what} ${line}`)
    }
    compare(
      mismatches,
      'answer',
      { status: step.outcome.status, error: step.outcome.error },
      { status: step.answer.status, error: step.answer.error },
    )
    compare(violations, 'events written', step.outcome.events, await s.newEvents())
    const expected = modelView(m, s.ids)
    const actual = await s.view(expected.leagues.map((l) => l.key as string))
    compare(mismatches, 'state', expected, actual)
    if (step.detailOf !== undefined && step.outcome.status < 300 && step.answer.data) {
      const predicted = expected.games.find((g) => g.key === step.detailOf)
      compare(mismatches, 'answered GameDetail', predicted, detailView(s.ids, step.answer.data))
    }
    for (const v of await s.invariantViolations()) violations.push(`invariant: ${v}`)
    if (mismatches.length + violations.length === 0) return
    if (!stats.failed) {
      stats.failed = true
      stats.failedAt = Date.now()
      // Counted per step: the first failing step ends the run and shrinking begins.
      stats.mismatches += mismatches.length > 0 ? 1 : 0
      stats.invariantViolations += violations.length > 0 ? 1 : 0
    }
    throw new Error(
      `after ${step.label}:\n${[...violations, ...mismatches].join('\n')}\n` +
        `steps of this run (prelude included):\n${s.trace.map((line, n) => `  ${n + 1}. ${line}`).join('\n')}`,
    )
  }

  toString(): string {
    return `${this.name}(${JSON.stringify(this.params)})`
  }
}

const command = (
  name: string,
  params: unknown,
  exec: (m: SpecModel, s: Service) => Promise<Omit<Step, 'label'> & { label?: string }>,
  precondition?: (m: SpecModel) => boolean,
) =>
  new StepCommand(
    name,
    params,
    async (m, s) => {
      const step = await exec(m, s)
      return { label: step.label ?? `${name}(${JSON.stringify(params)})`, ...step }
    },
    precondition,
  )

// ---- REST commands ----

const upsertLeagueParams = fc.record({
  league: fc.constantFrom(...LEAGUES),
  name: fc.constantFrom(' Spring ', 'Fall', '   '),
  paymentMode: fc.option(fc.constantFrom('offline', 'platform', 'barter'), { nil: undefined }),
  currency: fc.option(fc.constantFrom('usd', 'EUR'), { nil: undefined }),
  source: fc.constantFrom(undefined, undefined, undefined, 'own', 'reserved', 'foreign'),
})
type UpsertLeagueParams = typeof upsertLeagueParams extends fc.Arbitrary<infer T> ? T : never
const upsertLeagueCommand = (p: UpsertLeagueParams) =>
  command('upsertLeague', p, async (m, s) => {
    const outcome = m.upsertLeague(p.league, p)
    const source = { own: s.partner.source, reserved: 'app', foreign: 'someone-else' }
    const answer = await s.upsertLeague(p.league, {
      name: p.name,
      ...(p.paymentMode !== undefined && { paymentMode: p.paymentMode }),
      ...(p.currency !== undefined && { currency: p.currency }),
      ...(p.source !== undefined && { source: source[p.source] }),
    })
    return { outcome, answer }
  })

const upsertLeague = upsertLeagueParams.map(upsertLeagueCommand)

const gameItem: fc.Arbitrary<GameItem> = fc.record(
  {
    externalId: fc.constantFrom(...REST_GAMES),
    startsAt: fc.constantFrom(...STARTS),
    sport: fc.constantFrom('soccer', 'hockey'),
    location: fc.constantFrom('Field 1', 'Rink'),
    label: fc.constantFrom('Referee', 'Umpire'),
    payCents: fc.constantFrom(0, 1250, 2500, 4025),
    invalid: fc.constantFrom(false, false, false, false, false, true),
  },
  { requiredKeys: ['externalId', 'startsAt', 'invalid'] },
)

const upsertGamesParams = fc.record({ league, items: fc.array(gameItem, { minLength: 1, maxLength: 3 }) })
type UpsertGamesParams = typeof upsertGamesParams extends fc.Arbitrary<infer T> ? T : never
const upsertGamesCommand = (p: UpsertGamesParams) =>
  command('upsertGames', p, async (m, s) => {
    const leagueKey = leagueOf(m, p.league)
    const outcome = m.upsertGames(leagueKey, p.items)
    const answer = await s.upsertGames(
      leagueKey,
      p.items.map((item) => ({
        externalId: item.externalId,
        startsAt: item.invalid ? INVALID_STARTS_AT : item.startsAt,
        ...(item.sport !== undefined && { sport: item.sport }),
        ...(item.location !== undefined && { location: item.location }),
        ...(item.label !== undefined && { label: item.label }),
        ...(item.payCents !== undefined && { payDollars: item.payCents / 100 }),
      })),
    )
    if (answer.status === 201 && outcome.status === 201) {
      // `created` lists every persisted game in item order.
      const created = answer.data.created.map((g: any) => s.ids.key('game', g.id))
      if (JSON.stringify(created) !== JSON.stringify(outcome.persisted))
        return { outcome, answer: { status: 201, error: `created ${JSON.stringify(created)}` } }
    }
    return { label: `upsertGames(${leagueKey}, ${JSON.stringify(p.items)})`, outcome, answer }
  })

const upsertGames = upsertGamesParams.map(upsertGamesCommand)

/** A game with several positions: no endpoint makes one, so it is written by fixture, as in test/. */
const seedGame = fc
  .record({
    game: fc.constantFrom(...SEEDED_GAMES),
    league,
    payCents: fc.array(fc.constantFrom(0, 1250, 2500), { minLength: 2, maxLength: 3 }),
    startsAt: fc.constantFrom(...STARTS.slice(0, 2)),
  })
  .map((p) =>
    command(
      'seedGame',
      p,
      async (m, s) => {
        const leagueKey = leagueOf(m, p.league)
        m.seedGame(p.game, leagueKey, p.payCents, p.startsAt)
        await s.seedGame(p.game, leagueKey, p.payCents, p.startsAt)
        return {
          label: `seedGame(${p.game}, ${leagueKey}, ${JSON.stringify(p.payCents)}, ${p.startsAt})`,
          outcome: { status: 200, events: [] },
          answer: { status: 200 },
        }
      },
      (m) => m.leagues.has(leagueOf(m, p.league)) && !m.games.has(p.game),
    ),
  )

const patchGame = fc
  .record({
    game,
    sport: fc.option(fc.constantFrom('soccer', 'lacrosse'), { nil: undefined }),
    location: fc.option(fc.constantFrom('Field 1', 'Field 2'), { nil: undefined }),
    status: fc.constantFrom(undefined, undefined, undefined, 'completed'),
  })
  .map((p) =>
    command('patchGame', p, async (m, s) => {
      const gameKey = gameOf(m, p.game)
      const body = {
        ...(p.sport !== undefined && { sport: p.sport }),
        ...(p.location !== undefined && { location: p.location }),
        ...(p.status !== undefined && { status: p.status }),
      }
      return {
        label: `patchGame(${gameKey}, ${JSON.stringify(body)})`,
        outcome: m.patchGame(gameKey, body),
        answer: await s.patchGame(gameKey, body),
      }
    }),
  )

const cancelGame = fc.record({ game }).map((p) =>
  command('cancelGame', p, async (m, s) => {
    const gameKey = gameOf(m, p.game)
    return {
      label: `cancelGame(${gameKey})`,
      outcome: m.cancelGame(gameKey),
      answer: await s.cancelGame(gameKey),
      detailOf: gameKey,
    }
  }),
)

const addPosition = fc.record({ game, payCents: fc.constantFrom(0, 1250, 2500) }).map((p) =>
  command('addPosition', p, async (m, s) => {
    const gameKey = gameOf(m, p.game)
    return {
      label: `addPosition(${gameKey}, ${p.payCents})`,
      outcome: m.addPosition(gameKey, p.payCents),
      answer: await s.addPosition(gameKey, p.payCents),
      detailOf: gameKey,
    }
  }),
)

const removePosition = fc.record({ game, position: positionPick }).map((p) =>
  command('removePosition', p, async (m, s) => {
    const gameKey = gameOf(m, p.game, hasOpenPosition)
    const positionKey = resolvePosition(m, gameKey, p.position, 'open') ?? MISSING_POSITION
    return {
      label: `removePosition(${gameKey}, ${positionKey})`,
      outcome: m.removePosition(gameKey, positionKey),
      answer: await s.removePosition(gameKey, positionKey),
      detailOf: gameKey,
    }
  }),
)

const upsertOfficialParams = fc.record({
  league,
  user: fc.constantFrom(...USERS),
  status: fc.constantFrom(undefined, 'approved', 'pending', 'denied'),
  name: fc.option(fc.constantFrom('Ada', 'Bo'), { nil: undefined }),
  email: fc.option(fc.constantFrom('Ref.One@Example.TEST', '  two@example.test '), { nil: undefined }),
})
type UpsertOfficialParams = typeof upsertOfficialParams extends fc.Arbitrary<infer T> ? T : never
const upsertOfficialCommand = (p: UpsertOfficialParams) =>
  command('upsertOfficial', p, async (m, s) => {
    const leagueKey = leagueOf(m, p.league)
    const body = {
      ...(p.status !== undefined && { status: p.status }),
      ...(p.name !== undefined && { name: p.name }),
      // A person is an email address across every league (the conflict rules): each run's addresses are
      // its own, or a position held in an earlier run would conflict with this one's.
      ...(p.email !== undefined && { email: p.email.replace('@', `@run-${s.partner.organizerId}.`) }),
    }
    return {
      label: `upsertOfficial(${leagueKey}, ${p.user}, ${JSON.stringify(body)})`,
      outcome: m.upsertOfficial(leagueKey, p.user, body),
      answer: await s.upsertOfficial(leagueKey, p.user, body),
    }
  })

const upsertOfficial = upsertOfficialParams.map(upsertOfficialCommand)

const removeOfficial = fc.record({ league, user }).map((p) =>
  command('removeOfficial', p, async (m, s) => {
    const leagueKey = leagueOf(m, p.league)
    const userKey = userOf(m, p.user, leagueKey, 'any')
    return {
      label: `removeOfficial(${leagueKey}, ${userKey})`,
      outcome: m.removeOfficial(leagueKey, userKey),
      answer: await s.removeOfficial(leagueKey, userKey),
    }
  }),
)

const assign = fc
  .record({
    game,
    user,
    via: fc.constantFrom('userId', 'userId', 'userId', 'externalId', 'externalId', 'none'),
    position: positionPick,
  })
  .map((p) =>
    command('assign', p, async (m, s) => {
      const gameKey = gameOf(m, p.game, hasOpenPosition)
      const positionKey = resolvePosition(m, gameKey, p.position, 'open')
      const userKey = userOf(m, p.user, m.games.get(gameKey)?.league, 'approved')
      const who = p.via === 'none' ? null : { userKey, via: p.via as 'userId' | 'externalId' }
      return {
        label: `assign(${gameKey}, ${JSON.stringify(who)}, ${positionKey})`,
        outcome: m.assign(gameKey, who, positionKey),
        answer: await s.assign(gameKey, who, positionKey),
        detailOf: gameKey,
      }
    }),
  )

const unassign = fc.record({ game, position: positionPick }).map((p) =>
  command('unassign', p, async (m, s) => {
    const gameKey = gameOf(m, p.game, (g) => g.positions.some((x) => x.status === 'claimed'))
    const positionKey = resolvePosition(m, gameKey, p.position, 'claimed')
    return {
      label: `unassign(${gameKey}, ${positionKey})`,
      outcome: m.unassign(gameKey, positionKey),
      answer: await s.unassign(gameKey, positionKey),
      detailOf: gameKey,
    }
  }),
)

// ---- in-app commands (`refdesk app`) ----

const claim = fc.record({ game, user, position: positionPick }).map((p) =>
  command('claim', p, async (m, s) => {
    const gameKey = gameOf(m, p.game, hasOpenPosition)
    const userKey = userOf(m, p.user, m.games.get(gameKey)?.league, 'approved')
    const positionKey = resolvePosition(m, gameKey, p.position, 'open')
    return {
      label: `claim(${gameKey}, ${userKey}, ${positionKey})`,
      outcome: m.assign(gameKey, { userKey, via: 'userId' }, positionKey, true),
      answer: await s.claim(gameKey, userKey, positionKey),
      detailOf: gameKey,
    }
  }),
)

const withdraw = fc.record({ position: ref }).map((p) =>
  command('withdraw', p, async (m, s) => {
    const positionKey = positionOf(m, p.position, (x) => x.status === 'claimed')
    return {
      label: `withdraw(${positionKey})`,
      outcome: m.withdraw(positionKey),
      answer: await s.withdraw(positionKey),
      detailOf: positionKey.split('#')[0],
    }
  }),
)

const complete = fc.record({ game }).map((p) =>
  command('complete', p, async (m, s) => {
    const gameKey = gameOf(m, p.game, (g) => g.status === 'claimed')
    return {
      label: `complete(${gameKey})`,
      outcome: m.complete(gameKey),
      answer: await s.complete(gameKey),
      detailOf: gameKey,
    }
  }),
)

const noShow = fc.record({ position: ref }).map((p) =>
  command('noShow', p, async (m, s) => {
    const positionKey = positionOf(
      m,
      p.position,
      (x, g) => x.status === 'completed' && g.status === 'completed',
    )
    return {
      label: `noShow(${positionKey})`,
      outcome: m.noShow(positionKey),
      answer: await s.noShow(positionKey),
      detailOf: positionKey.split('#')[0],
    }
  }),
)

const pay = fc.record({ payment: ref }).map((p) =>
  command('pay', p, async (m, s) => {
    const paymentKey = paymentOf(m, p.payment, (x) => x.mode === 'offline' && x.status === 'pending')
    return { label: `pay(${paymentKey})`, outcome: m.pay(paymentKey), answer: await s.pay(paymentKey) }
  }),
)

const charge = fc
  .record({
    payment: ref,
    outcome: fc.constantFrom('paid' as const, 'failed' as const, 'requires_card' as const),
  })
  .map((p) =>
    command('charge', p, async (m, s) => {
      const paymentKey = paymentOf(
        m,
        p.payment,
        (x) => x.mode === 'platform' && ['pending', 'requires_card', 'failed'].includes(x.status),
      )
      return {
        label: `charge(${paymentKey}, ${p.outcome})`,
        outcome: m.charge(paymentKey, p.outcome),
        answer: await s.charge(paymentKey, p.outcome),
      }
    }),
  )

const deny = fc.record({ league, user }).map((p) =>
  command('deny', p, async (m, s) => {
    const leagueKey = leagueOf(m, p.league)
    const userKey = userOf(m, p.user, leagueKey, 'any')
    return {
      label: `deny(${leagueKey}, ${userKey})`,
      outcome: m.deny(leagueKey, userKey),
      answer: await s.deny(leagueKey, userKey),
    }
  }),
)

/**
 * Every run starts from the same small world, checked step by step like the random commands: two leagues
 * (offline usd, platform eur), three games and three approved officials. Random commands then collide on
 * it instead of mostly missing; L2, G3, O3 and the seeded games M0/M1 are left for them to create.
 */
const known = (i: number): Ref => ({ i, tier: 0 })
const preludeItem = (externalId: string, payCents: number, startsAt: string): GameItem => ({
  externalId,
  startsAt,
  payCents,
  invalid: false,
})
const PRELUDE = [
  upsertLeagueCommand({
    league: 'L0',
    name: ' Spring ',
    paymentMode: 'offline',
    currency: undefined,
    source: undefined,
  }),
  upsertLeagueCommand({
    league: 'L1',
    name: 'Fall',
    paymentMode: 'platform',
    currency: 'EUR',
    source: undefined,
  }),
  upsertGamesCommand({
    league: known(0),
    items: [
      preludeItem('G0', 2500, '2030-05-02T18:00:00.000Z'),
      preludeItem('G1', 1250, '2030-05-01T18:00:00.000Z'),
    ],
  }),
  upsertGamesCommand({ league: known(1), items: [preludeItem('G2', 4025, '2030-05-01T18:00:00.000Z')] }),
  ...(
    [
      [0, 'O0'],
      [0, 'O1'],
      [1, 'O0'],
      [1, 'O2'],
    ] as const
  ).map(([i, user]) =>
    upsertOfficialCommand({ league: known(i), user, status: undefined, name: undefined, email: undefined }),
  ),
]

const anyCommand = fc.oneof(
  { weight: 1, arbitrary: upsertLeague },
  { weight: 2, arbitrary: upsertGames },
  { weight: 1, arbitrary: seedGame },
  { weight: 1, arbitrary: patchGame },
  { weight: 1, arbitrary: cancelGame },
  { weight: 1, arbitrary: addPosition },
  { weight: 1, arbitrary: removePosition },
  { weight: 2, arbitrary: upsertOfficial },
  { weight: 1, arbitrary: removeOfficial },
  { weight: 5, arbitrary: assign },
  { weight: 2, arbitrary: unassign },
  { weight: 3, arbitrary: claim },
  { weight: 1, arbitrary: withdraw },
  { weight: 3, arbitrary: complete },
  { weight: 2, arbitrary: noShow },
  { weight: 2, arbitrary: pay },
  { weight: 3, arbitrary: charge },
  { weight: 1, arbitrary: deny },
)

describe('the service follows the spec state machine under random command sequences', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await buildReliabilityApp('model')
  })
  afterAll(async () => {
    await t?.close()
  })

  it('answers, state, events and invariants equal the model after every step', async () => {
    const seed = Number(process.env.REFDESK_MODEL_SEED ?? Math.floor(Math.random() * 2 ** 31))
    const path = process.env.REFDESK_MODEL_PATH
    const replayPath = process.env.REFDESK_MODEL_REPLAY
    console.log(
      `[model] database=${databaseKind()} seed=${seed} numRuns=${NUM_RUNS}${path ? ` path=${path}` : ''}`,
    )
    const started = Date.now()
    const details = await fc.check(
      fc.asyncProperty(
        fc.commands([anyCommand], {
          maxCommands: MAX_COMMANDS,
          size: 'max',
          ...(replayPath !== undefined && { replayPath }),
        }),
        async (commands) => {
          if (stats.failed && Date.now() - stats.failedAt > SHRINK_BUDGET_MS) return
          const setup = async () => {
            // A fresh source per run: its own leagues, users and externalIds, whose organizer is `ORG`.
            const service = new Service(t, await t.partner({ organizerExternalId: ORGANIZER }))
            await service.init()
            const model = new SpecModel()
            for (const step of PRELUDE) await step.run(model, service)
            return { model, real: service }
          }
          try {
            await fc.asyncModelRun(setup, commands)
          } catch (error) {
            // A crash (a 500, a harness error) is a mismatch too, and starts the shrink budget.
            if (!stats.failed) Object.assign(stats, { failed: true, failedAt: Date.now(), mismatches: 1 })
            throw error
          }
        },
      ),
      {
        seed,
        numRuns: NUM_RUNS,
        ...(path !== undefined && { path }),
      },
    )
    const cause = details.errorInstance instanceof Error ? details.errorInstance.message : ''
    const report = `${fc.defaultReportMessage(details) ?? ''}\n${cause}`
    if (details.failed) console.error(`[model] seed=${seed}\n${report}`)
    const runs = details.numRuns
    console.log(
      `[model] outcomes:\n${[...outcomes]
        .sort()
        .map(([how, n]) => `  ${how}: ${n}`)
        .join('\n')}`,
    )
    console.log(
      `[model] ${runs} runs, ${stats.commands} commands, ${stats.invariantViolations} invariant violations, ` +
        `${stats.mismatches} model mismatches in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    )
    recordFigure({
      section: 'model',
      metric: 'runs',
      value: runs,
      target: `${NUM_RUNS}`,
      met: runs === NUM_RUNS,
    })
    recordFigure({
      section: 'model',
      metric: 'commands executed',
      value: stats.commands,
      target: '>= 10 per run',
      met: stats.commands >= 10 * runs,
    })
    recordFigure({
      section: 'model',
      metric: 'invariant violations',
      value: stats.invariantViolations,
      target: '0',
      met: stats.invariantViolations === 0,
    })
    recordFigure({
      section: 'model',
      metric: 'model mismatches',
      value: stats.mismatches,
      target: '0',
      met: stats.mismatches === 0,
    })
    // Every kind of command must have succeeded somewhere, or the runs never reached the states that matter.
    const names = [
      ...['upsertLeague', 'upsertGames', 'seedGame', 'patchGame', 'cancelGame', 'upsertOfficial'],
      ...['removeOfficial', 'assign', 'unassign', 'claim', 'withdraw', 'complete', 'noShow', 'pay'],
      ...['charge', 'deny', 'addPosition', 'removePosition'],
    ]
    const succeeded = names.filter((name) =>
      [...outcomes.keys()].some((how) => /^\S+ 2\d\d$/.test(how) && how.startsWith(`${name} `)),
    )
    recordFigure({
      section: 'model',
      metric: 'kinds of command that succeeded at least once',
      value: `${succeeded.length} / ${names.length}`,
      target: `${names.length} / ${names.length}`,
      met: succeeded.length === names.length,
    })
    expect(details.failed, report).toBe(false)
    expect(succeeded).toEqual(names)
    expect(runs).toBe(NUM_RUNS)
    expect(stats.commands).toBeGreaterThanOrEqual(10 * runs)
    expect(stats.invariantViolations).toBe(0)
    expect(stats.mismatches).toBe(0)
  })
})
