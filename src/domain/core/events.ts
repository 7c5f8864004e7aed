// Events: services build them here and record them inside the transaction of the change that caused
// them, so an event exists if and only if its change committed. Dispatchers expand each recorded event
// into deliveries afterwards (webhooks/fan-out.ts): the cost of a change does not grow with the number of
// endpoints that want it.
import type { Transaction } from 'kysely'
import { newId } from '../../clock.js'
import type { EventData, EventName } from '../../schemas/events.js'
import * as outbox from '../../store/outbox.js'
import type { Db } from '../../store/tables.js'

export interface DomainEvent<N extends EventName = EventName> {
  event: N
  leagueId: string
  data: EventData[N] & { leagueId: string }
}

export function domainEvent<N extends EventName>(
  event: N,
  leagueId: string,
  data: EventData[N],
): DomainEvent<N> {
  return { event, leagueId, data: { leagueId, ...data } }
}

/** Records the events at `at`, the instant of the change that caused them. */
export async function recordEvents(
  trx: Transaction<Db>,
  events: readonly DomainEvent[],
  at: string,
): Promise<void> {
  if (events.length === 0) return
  await outbox.appendEvents(
    trx,
    events.map((e) => ({
      id: `evt_${newId()}`,
      event: e.event,
      league_id: e.leagueId,
      data: JSON.stringify(e.data),
      created_at: at,
    })),
  )
  await outbox.announceWork(trx)
}
