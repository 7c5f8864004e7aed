// A league's games and what hangs off them (positions, claims, payments), read page by page in the
// games' list order (`starts_at`, then `seq`) from one snapshot (issue 21 item 3). The spec's big lists
// are unpaged, so a 10,000-game league is read whole; one synchronous better-sqlite3 read of it held the
// event loop for every tenant. Each page here is a keyset range of games, read in one short call, with
// the event loop free between pages; the snapshot (`openSnapshot`) keeps the pages one state.
import { setImmediate as yieldToLoop } from 'node:timers/promises'
import type { Kysely } from 'kysely'
import { toLeagueClaim, type LeagueClaim } from './claims.js'
import type { Snapshot } from './snapshots.js'
import { prepared } from './prepared.js'
import type { Db, GameRow, PaymentRow, PositionRow } from './tables.js'

export { openSnapshot } from './database.js'
export type { Snapshot } from './snapshots.js'

/** The games of a page: those after (`afterStartsAt`, `afterSeq`) up to the page's last one, included. */
export interface GameRange {
  readonly leagueId: string
  readonly afterStartsAt: string
  readonly afterSeq: number
  readonly lastStartsAt: string
  readonly lastSeq: number
}

export interface GamePage {
  readonly games: GameRow[]
  readonly range: GameRange
}

// Before every game: starts_at is an ISO instant, seq a positive identity.
const START = { startsAt: '', seq: -1 }
// `limit` is a parameter, so an unpaged read (in-memory SQLite) is the same statement.
const NO_LIMIT = Number.MAX_SAFE_INTEGER

const gamesAfter = prepared((db, p: { leagueId: string; startsAt: string; seq: number; limit: number }) =>
  db
    .selectFrom('games')
    .selectAll()
    .where('league_id', '=', p.leagueId)
    .where((eb) => eb(eb.refTuple('starts_at', 'seq'), '>', eb.tuple(p.startsAt, p.seq)))
    .orderBy('starts_at')
    .orderBy('seq')
    .limit(p.limit),
)

/** The league's games in pages of `snapshot.pageSize`, in list order, yielding to the event loop between pages. */
export async function* gamePages(snapshot: Snapshot, leagueId: string): AsyncGenerator<GamePage> {
  const limit = Number.isFinite(snapshot.pageSize) ? snapshot.pageSize : NO_LIMIT
  let after = START
  for (;;) {
    const games = await gamesAfter.execute(snapshot.db, { leagueId, ...after, limit })
    const last = games.at(-1)
    if (last === undefined) return
    yield {
      games,
      range: {
        leagueId,
        afterStartsAt: after.startsAt,
        afterSeq: after.seq,
        lastStartsAt: last.starts_at,
        lastSeq: last.seq,
      },
    }
    if (games.length < limit) return
    after = { startsAt: last.starts_at, seq: last.seq }
    await yieldToLoop()
  }
}

type RangeParams = { [K in keyof GameRange]: GameRange[K] }

const positionsInRange = prepared((db, p: RangeParams) =>
  db
    .selectFrom('positions')
    .innerJoin('games', 'games.id', 'positions.game_id')
    .selectAll('positions')
    .where('games.league_id', '=', p.leagueId)
    .where((eb) =>
      eb(eb.refTuple('games.starts_at', 'games.seq'), '>', eb.tuple(p.afterStartsAt, p.afterSeq)),
    )
    .where((eb) => eb(eb.refTuple('games.starts_at', 'games.seq'), '<=', eb.tuple(p.lastStartsAt, p.lastSeq)))
    .orderBy('positions.seq'),
)

/** The positions of the range's games in creation order. */
export function listRangePositions(db: Kysely<Db>, range: GameRange): Promise<PositionRow[]> {
  return positionsInRange.execute(db, { ...range })
}

const claimsInRange = prepared((db, p: RangeParams) =>
  db
    .selectFrom('claims')
    .innerJoin('positions', 'positions.id', 'claims.position_id')
    .innerJoin('games', 'games.id', 'positions.game_id')
    .innerJoin('users', 'users.id', 'claims.user_id')
    .selectAll('games')
    .select([
      'positions.seq as position_seq',
      'positions.id as position_id',
      'positions.label as position_label',
      'positions.pay_cents as position_pay_cents',
      'positions.status as position_status',
      'positions.created_at as position_created_at',
      'positions.updated_at as position_updated_at',
      'positions.min_level as position_min_level',
      'users.id as user_id',
      'users.name as user_name',
      'users.email as user_email',
    ])
    .where('games.league_id', '=', p.leagueId)
    .where((eb) =>
      eb(eb.refTuple('games.starts_at', 'games.seq'), '>', eb.tuple(p.afterStartsAt, p.afterSeq)),
    )
    .where((eb) => eb(eb.refTuple('games.starts_at', 'games.seq'), '<=', eb.tuple(p.lastStartsAt, p.lastSeq)))
    .orderBy('games.starts_at')
    .orderBy('games.seq')
    .orderBy('positions.seq'),
)

/** The range's positions holding a claim, by game start, then game and position order. */
export async function listRangeClaims(db: Kysely<Db>, range: GameRange): Promise<LeagueClaim[]> {
  return (await claimsInRange.execute(db, { ...range })).map(toLeagueClaim)
}

const paymentsInRange = prepared((db, p: RangeParams) =>
  db
    .selectFrom('payments')
    .innerJoin('positions', 'positions.id', 'payments.position_id')
    .innerJoin('games', 'games.id', 'positions.game_id')
    .selectAll('payments')
    // Through the range's games, not `payments.league_id`: a page reads its own payments, not the league's.
    .where('games.league_id', '=', p.leagueId)
    .where((eb) =>
      eb(eb.refTuple('games.starts_at', 'games.seq'), '>', eb.tuple(p.afterStartsAt, p.afterSeq)),
    )
    .where((eb) => eb(eb.refTuple('games.starts_at', 'games.seq'), '<=', eb.tuple(p.lastStartsAt, p.lastSeq)))
    .orderBy('payments.seq', 'desc'),
)

/** The payments of the range's positions, newest first (as `listPayments`). */
export function listRangePayments(db: Kysely<Db>, range: GameRange): Promise<PaymentRow[]> {
  return paymentsInRange.execute(db, { ...range })
}
