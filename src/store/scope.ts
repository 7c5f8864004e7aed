// The one scope rule in SQL: a partner sees leagues of its source plus leagues granted to its key.
import type { ExpressionBuilder } from 'kysely'
import type { Caller } from '../domain/caller.js'
import type { Db } from './tables.js'

/** A `where` filter for any query that has `leagues` among its tables. */
export function leagueInScope(caller: Caller) {
  return <TB extends keyof Db>(builder: ExpressionBuilder<Db, TB | 'leagues'>) => {
    const eb = builder as unknown as ExpressionBuilder<Db, 'leagues'>
    if (caller.kind === 'app') return eb.and([])
    const ownSource = eb('leagues.source', '=', caller.source)
    return caller.grantedLeagueIds.length === 0
      ? ownSource
      : eb.or([ownSource, eb('leagues.id', 'in', caller.grantedLeagueIds)])
  }
}
