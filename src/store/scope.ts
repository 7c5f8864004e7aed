// The one access rule, in SQL: the leagues a scope may act on. A partner: its source's leagues plus those
// granted to its key. The console: every league. An organizer: the leagues one of their user rows
// organizes. An official: the leagues where one of their user rows is an approved official. Whatever lies
// outside a scope reads exactly like something that does not exist.
import type { ExpressionBuilder } from 'kysely'
import type { Db } from './tables.js'

/** What a partner's scope depends on; also the parameters of prepared scoped queries (hence a type). */
export type ScopeParams = {
  readonly source: string
  readonly grantedLeagueIds: readonly string[]
}

export type PartnerScope = ScopeParams & { readonly kind: 'partner' }

type ConsoleScope = { readonly kind: 'console' }

/** A signed-in person's leagues, by the role the action needs. */
type PersonScope = { readonly kind: 'organizer' | 'official'; readonly userIds: readonly string[] }

export type Scope = PartnerScope | ConsoleScope | PersonScope

/** The memberships that let a user claim a league's games. */
export function approvedOfficial(eb: ExpressionBuilder<Db, 'memberships'>) {
  return eb.and([eb('memberships.role', '=', 'official'), eb('memberships.status', '=', 'approved')])
}

/** A `where` filter for any query that has `leagues` among its tables. */
export function leagueInScope(scope: Scope | ScopeParams) {
  return <TB extends keyof Db>(builder: ExpressionBuilder<Db, TB | 'leagues'>) => {
    const eb = builder as unknown as ExpressionBuilder<Db, 'leagues'>
    // Prepared partner queries pass their placeholders without a kind.
    if (!('kind' in scope) || scope.kind === 'partner') {
      const ownSource = eb('leagues.source', '=', scope.source)
      return scope.grantedLeagueIds.length === 0
        ? ownSource
        : eb.or([ownSource, eb('leagues.id', 'in', scope.grantedLeagueIds)])
    }
    if (scope.kind === 'console') return eb.and([])
    if (scope.userIds.length === 0) return eb.or([])
    if (scope.kind === 'organizer') return eb('leagues.organizer_id', 'in', scope.userIds)
    return eb(
      'leagues.id',
      'in',
      eb
        .selectFrom('memberships')
        .select('memberships.league_id')
        .where('memberships.user_id', 'in', scope.userIds)
        .where(approvedOfficial),
    )
  }
}

export const scopeParams = (scope: ScopeParams): ScopeParams => ({
  source: scope.source,
  grantedLeagueIds: scope.grantedLeagueIds,
})
