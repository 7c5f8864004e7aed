// The webhook toolkit, RefDesk extensions beyond the spec: send an endpoint a signed example of an event,
// send one delivery again now, queue an endpoint's failed deliveries again, and enable an endpoint that
// was disabled for failing too long. Each acts on an endpoint of the caller's source only; another
// source's ids answer like missing ones.
import type { Transaction } from 'kysely'
import { isoNow, newId } from '../../clock.js'
import type { EventName } from '../../schemas/events.js'
import { RECOVER_WINDOW_DAYS, type Delivery, type WebhookEndpoint } from '../../schemas/webhooks.js'
import * as deliveries from '../../store/deliveries.js'
import * as outbox from '../../store/outbox.js'
import type { Db, WebhookEndpointRow } from '../../store/tables.js'
import * as endpoints from '../../store/webhook-endpoints.js'
import type { PartnerCaller } from '../core/caller.js'
import type { Deps } from '../core/deps.js'
import { fail } from '../core/errors.js'
import { sampleEventData } from './sample-events.js'
import { toDelivery, toEndpoint } from './webhook-endpoints.js'
import { DAY_MS, HOUR_MS, iso } from '../../time.js'

/**
 * Test examples a source may send in an hour, over all its endpoints: enough to develop a receiver, too
 * few for the test endpoint to become a way of filling the dispatchers' queues (issue 21, item 1).
 */
const TEST_EVENTS_PER_HOUR = 60

/** The caller's endpoint, read inside the transaction; a disabled one takes nothing until enabled. */
async function activeEndpoint(
  trx: Transaction<Db>,
  caller: PartnerCaller,
  webhookId: string,
): Promise<WebhookEndpointRow> {
  const endpoint = (await endpoints.findEndpoint(trx, caller.source, webhookId)) ?? fail('endpoint_not_found')
  if (endpoint.disabled_at !== null) fail('endpoint_disabled')
  return endpoint
}

/**
 * Records an example of the event for this endpoint alone (its envelope says `"test": true`) and queues
 * its delivery, due now: it is signed, retried and listed like any other. A source that sent
 * TEST_EVENTS_PER_HOUR of them in the last hour is refused until the oldest is an hour old.
 */
export async function sendTestEvent(
  deps: Deps,
  caller: PartnerCaller,
  webhookId: string,
  event: EventName,
): Promise<Delivery> {
  return deps.db.transaction().execute(async (trx) => {
    const endpoint = await activeEndpoint(trx, caller, webhookId)
    const now = isoNow(deps.clock)
    const hourAgo = iso(Date.parse(now) - HOUR_MS)
    if ((await deliveries.countTestDeliveries(trx, endpoint.source, hourAgo)) >= TEST_EVENTS_PER_HOUR)
      fail('test_event_limit_reached')
    const data = sampleEventData(event, endpoint.source, Date.parse(now))
    const eventId = `evt_${newId()}`
    await outbox.insertTestEvent(trx, {
      id: eventId,
      event,
      league_id: data.leagueId,
      data: JSON.stringify(data),
      created_at: now,
    })
    const id = newId()
    await deliveries.insertDeliveries(trx, [
      {
        id,
        endpoint_id: endpoint.id,
        event_id: eventId,
        event,
        status: 'pending',
        attempts: 0,
        created_at: now,
        next_attempt_at: now,
        source: endpoint.source,
      },
    ])
    await outbox.announceWork(trx)
    return toDelivery((await deliveries.findDelivery(trx, endpoint, id))!)
  })
}

/** Sends the delivery again now, whatever its status: same event, same `webhook-id`, one more attempt. */
export async function retryDelivery(
  deps: Deps,
  caller: PartnerCaller,
  webhookId: string,
  deliveryId: string,
): Promise<Delivery> {
  return deps.db.transaction().execute(async (trx) => {
    const endpoint =
      (await endpoints.findEndpoint(trx, caller.source, webhookId)) ?? fail('endpoint_not_found')
    const delivery = (await deliveries.findDelivery(trx, endpoint, deliveryId)) ?? fail('delivery_not_found')
    if (endpoint.disabled_at !== null) fail('endpoint_disabled')
    const requeued = await deliveries.requeueDelivery(trx, delivery.id, isoNow(deps.clock))
    await outbox.announceWork(trx)
    return toDelivery(requeued)
  })
}

/** Queues every failed delivery of the endpoint created at or after `since` for an attempt now. */
export async function recoverDeliveries(
  deps: Deps,
  caller: PartnerCaller,
  webhookId: string,
  since: string,
): Promise<{ recovered: number }> {
  const now = deps.clock.now()
  const from = Date.parse(since)
  if (from < now - RECOVER_WINDOW_DAYS * DAY_MS) fail('invalid_since')
  return deps.db.transaction().execute(async (trx) => {
    const endpoint = await activeEndpoint(trx, caller, webhookId)
    const recovered = await deliveries.requeueFailed(trx, endpoint, iso(from), iso(now))
    if (recovered > 0) await outbox.announceWork(trx)
    return { recovered }
  })
}

/** Lets a disabled endpoint take new events again; what failed meanwhile stays failed until recovered. */
export async function enableWebhook(
  deps: Deps,
  caller: PartnerCaller,
  webhookId: string,
): Promise<WebhookEndpoint> {
  const row =
    (await endpoints.enableEndpoint(deps.db, caller.source, webhookId)) ?? fail('endpoint_not_found')
  return toEndpoint(row)
}
