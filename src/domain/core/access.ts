// The one access rule for every caller, applied where a service starts: pass the transaction's handle, so
// the check and the change it guards see the same rows. Anything out of reach answers the not-found code of
// an id that does not exist, so a scoped 404 tells nothing. The rule itself is SQL: store/scope.ts.
import type { Kysely } from 'kysely'
import * as games from '../../store/games.js'
import * as leagues from '../../store/leagues.js'
import * as payments from '../../store/payments.js'
import * as positions from '../../store/positions.js'
import type { Scope } from '../../store/scope.js'
import type { Db, GameRow, LeagueRow, PaymentRow, PositionRow } from '../../store/tables.js'
import type { Caller } from './caller.js'
import { fail } from './errors.js'

/**
 * What the caller does to the league: run it (partners, the console and the league's organizer) or work in
 * it (its approved officials claiming games). Partners and the console do both in their whole scope.
 */
export type Access = 'organize' | 'officiate'

export function scopeOf(caller: Caller, access: Access = 'organize'): Scope {
  if (caller.kind !== 'person') return caller
  return { kind: access === 'organize' ? 'organizer' : 'official', userIds: caller.userIds }
}

export async function requireLeague(
  db: Kysely<Db>,
  caller: Caller,
  leagueId: string,
  access?: Access,
): Promise<LeagueRow> {
  return (await leagues.findLeagueInScope(db, scopeOf(caller, access), leagueId)) ?? fail('league_not_found')
}

export async function requireGame(
  db: Kysely<Db>,
  caller: Caller,
  gameId: string,
  access?: Access,
): Promise<GameRow> {
  return (await games.findGameInScope(db, scopeOf(caller, access), gameId)) ?? fail('game_not_found')
}

export async function requirePosition(
  db: Kysely<Db>,
  caller: Caller,
  positionId: string,
): Promise<PositionRow> {
  return (await positions.findPositionInScope(db, scopeOf(caller), positionId)) ?? fail('position_not_found')
}

export async function requirePayment(db: Kysely<Db>, caller: Caller, paymentId: string): Promise<PaymentRow> {
  return (await payments.findPaymentInScope(db, scopeOf(caller), paymentId)) ?? fail('payment_not_found')
}
