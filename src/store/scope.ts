// The one scope rule in SQL: a partner sees leagues of its source plus leagues granted to its key; the
// application itself (the in-app console and the app's own rules) sees every league.
import type { ExpressionBuilder } from 'kysely'
import type { Db } from './tables.js'

/** What a partner's scope depends on; also the parameters of prepared scoped queries (hence a type). */
export type ScopeParams = {
  readonly source: string
  readonly grantedLeagueIds: readonly string[]
}

export type PartnerScope = ScopeParams & { readonly kind: 'partner' }

export type Scope = PartnerScope | { readonly kind: 'app' }

/** A `where` filter for any query that has `leagues` among its tables. */
export function leagueInScope(scope: Scope | ScopeParams) {
  return <TB extends keyof Db>(builder: ExpressionBuilder<Db, TB | 'leagues'>) => {
    const eb = builder as unknown as ExpressionBuilder<Db, 'leagues'>
    if ('kind' in scope && scope.kind === 'app') return eb.and([])
    const { source, grantedLeagueIds } = scope as ScopeParams
    const ownSource = eb('leagues.source', '=', source)
    return grantedLeagueIds.length === 0
      ? ownSource
      : eb.or([ownSource, eb('leagues.id', 'in', grantedLeagueIds)])
  }
}

export const scopeParams = (scope: ScopeParams): ScopeParams => ({
  source: scope.source,
  grantedLeagueIds: scope.grantedLeagueIds,
})
