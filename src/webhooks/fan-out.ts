// Fan-out: each recorded event becomes one pending delivery per endpoint that wants it, written by a
// dispatcher after the change committed, a bounded batch of events per transaction. An endpoint wants an
// event when it belongs to the league's source or its registering (live) key holds a grant on the
// league, it lists the event's name (an empty list takes every event, names added later included), and
// it saw the league when the event happened (registered, and granted, before it): expanding later than
// the commit must not change who receives what. A disabled endpoint's delivery is recorded failed
// (`endpoint_disabled`), never sent: `recover` sends it once the endpoint is enabled again.
import type { Kysely } from 'kysely'
import { isoNow, newId, type Clock } from '../clock.js'
import * as deliveries from '../store/deliveries.js'
import * as leagues from '../store/leagues.js'
import * as outbox from '../store/outbox.js'
import type { Db, NewDelivery, OutboxEventRow } from '../store/tables.js'
import * as endpoints from '../store/webhook-endpoints.js'

/** Events expanded per transaction: with a source's endpoints capped, a few thousand deliveries at most. */
export const FAN_OUT_BATCH = 200

/** Expands the oldest unexpanded events; answers how many events it took (FAN_OUT_BATCH: look again). */
export function fanOut(db: Kysely<Db>, clock: Clock): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const events = await outbox.lockUnexpanded(trx, FAN_OUT_BATCH)
    if (events.length === 0) return 0
    const rows: NewDelivery[] = []
    for (const [leagueId, group] of byLeague(events)) {
      const league = await leagues.findLeague(trx, leagueId)
      const targets = league === undefined ? [] : await endpoints.endpointsForLeague(trx, league)
      for (const target of targets) {
        const wanted = JSON.parse(target.events) as string[]
        for (const event of group) {
          if (target.sees_since > event.created_at) continue
          if (wanted.length > 0 && !wanted.includes(event.event)) continue
          const disabled = target.disabled_at !== null
          rows.push({
            id: newId(),
            endpoint_id: target.id,
            event_id: event.id,
            event: event.event,
            status: disabled ? 'failed' : 'pending',
            attempts: 0,
            last_error: disabled ? 'endpoint_disabled' : null,
            created_at: event.created_at,
            next_attempt_at: disabled ? null : event.created_at,
            source: target.source,
          })
        }
      }
    }
    await deliveries.insertDeliveries(trx, rows)
    await outbox.markExpanded(
      trx,
      events.map((e) => e.id),
      isoNow(clock),
    )
    if (rows.length > 0) await outbox.announceWork(trx)
    return events.length
  })
}

function byLeague(events: readonly OutboxEventRow[]): Map<string, OutboxEventRow[]> {
  const groups = new Map<string, OutboxEventRow[]>()
  for (const event of events) {
    const group = groups.get(event.league_id)
    if (group) group.push(event)
    else groups.set(event.league_id, [event])
  }
  return groups
}
