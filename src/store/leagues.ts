import type { Kysely, Transaction } from 'kysely'
import { isPostgres } from './dialect.js'
import { prepared } from './prepared.js'
import { leagueInScope, scopeParams, type Scope, type ScopeParams } from './scope.js'
import type { Db, LeagueRow, NewLeague } from './tables.js'

const leagueInScopeById = prepared((db, p: ScopeParams & { id: string }) =>
  db.selectFrom('leagues').selectAll().where('id', '=', p.id).where(leagueInScope(p)),
)

/** A league in the scope; a partner's lookup is prepared (every partner request makes one). */
export function findLeagueInScope(db: Kysely<Db>, scope: Scope, id: string): Promise<LeagueRow | undefined> {
  if (scope.kind === 'partner') return leagueInScopeById.takeFirst(db, { ...scopeParams(scope), id })
  if (scope.kind === 'console') return findLeague(db, id)
  return db
    .selectFrom('leagues')
    .selectAll()
    .where('id', '=', id)
    .where(leagueInScope(scope))
    .executeTakeFirst()
}

export type LeagueWithCounts = LeagueRow & { game_count: number; member_count: number }

export async function listLeaguesInScope(db: Kysely<Db>, scope: Scope): Promise<LeagueWithCounts[]> {
  const rows = await db
    .selectFrom('leagues')
    .selectAll('leagues')
    .select((eb) => [
      eb
        .selectFrom('games')
        .select(eb.fn.countAll().as('n'))
        .whereRef('games.league_id', '=', 'leagues.id')
        .as('game_count'),
      eb
        .selectFrom('memberships')
        .select(eb.fn.countAll().as('n'))
        .whereRef('memberships.league_id', '=', 'leagues.id')
        .as('member_count'),
    ])
    .where(leagueInScope(scope))
    .orderBy('leagues.seq', 'desc')
    .execute()
  return rows.map((r) => ({ ...r, game_count: Number(r.game_count), member_count: Number(r.member_count) }))
}

export function insertLeague(db: Kysely<Db>, row: NewLeague): Promise<LeagueRow> {
  return db.insertInto('leagues').values(row).returningAll().executeTakeFirstOrThrow()
}

/**
 * Insert, or rewrite `changes` (the name and whichever of paymentMode and currency the caller gave) on the
 * league with the same (source, externalId).
 */
export function upsertLeague(db: Kysely<Db>, row: NewLeague, changes: LeagueChanges): Promise<LeagueRow> {
  return db
    .insertInto('leagues')
    .values(row)
    .onConflict((oc) => oc.columns(['source', 'external_id']).doUpdateSet(changes))
    .returningAll()
    .executeTakeFirstOrThrow()
}

/** What a partner may change of a league: its name, paymentMode, currency and assigning settings. */
type LeagueChanges = Partial<
  Pick<
    LeagueRow,
    | 'name'
    | 'payment_mode'
    | 'currency'
    | 'updated_at'
    | 'time_zone'
    | 'game_minutes'
    | 'travel_buffer_minutes'
    | 'max_games_per_day'
    | 'conflict_policy'
  >
>

export function updateLeague(db: Kysely<Db>, id: string, changes: LeagueChanges): Promise<LeagueRow> {
  return db.updateTable('leagues').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow()
}

/** The league with this (source, externalId), locked until the transaction ends (on PostgreSQL). */
export function findLeagueByExternalId(
  trx: Transaction<Db>,
  source: string,
  externalId: string,
): Promise<LeagueRow | undefined> {
  const query = trx
    .selectFrom('leagues')
    .selectAll()
    .where('source', '=', source)
    .where('external_id', '=', externalId)
  return (isPostgres(trx) ? query.forUpdate() : query).executeTakeFirst()
}

const leagueById = prepared((db, p: { id: string }) =>
  db.selectFrom('leagues').selectAll().where('id', '=', p.id),
)

export function findLeague(db: Kysely<Db>, id: string): Promise<LeagueRow | undefined> {
  return leagueById.takeFirst(db, { id })
}
