// The one scope rule in SQL: a partner sees leagues of its source plus leagues granted to its key.
import type { ExpressionBuilder } from 'kysely'
import type { Caller } from '../domain/caller.js'
import type { Db } from './tables.js'

/** What a partner's scope depends on; a PartnerCaller is one, and so are prepared-query parameters. */
export type Scope = {
  readonly source: string
  readonly grantedLeagueIds: readonly string[]
}

/** A `where` filter for any query that has `leagues` among its tables. */
export function leagueInScope(caller: Caller | Scope) {
  return <TB extends keyof Db>(builder: ExpressionBuilder<Db, TB | 'leagues'>) => {
    const eb = builder as unknown as ExpressionBuilder<Db, 'leagues'>
    if ('kind' in caller && caller.kind === 'app') return eb.and([])
    const scope = caller as Scope
    const ownSource = eb('leagues.source', '=', scope.source)
    return scope.grantedLeagueIds.length === 0
      ? ownSource
      : eb.or([ownSource, eb('leagues.id', 'in', scope.grantedLeagueIds)])
  }
}

export const scopeParams = (scope: Scope): Scope => ({
  source: scope.source,
  grantedLeagueIds: scope.grantedLeagueIds,
})
