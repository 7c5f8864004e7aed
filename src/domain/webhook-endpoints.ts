// Webhook endpoints (owned by a source, scoped by the registering key's grants) and the fan-out that
// turns each committed event into one delivery per matching endpoint, inside the event's transaction.
import { randomBytes } from 'node:crypto'
import type { Transaction } from 'kysely'
import type {
  CreatedWebhookEndpoint,
  CreateWebhookInput,
  Delivery,
  WebhookEndpoint,
} from '../schemas/webhooks.js'
import * as deliveries from '../store/deliveries.js'
import * as endpoints from '../store/webhook-endpoints.js'
import * as leagues from '../store/leagues.js'
import { announceDeliveries } from '../store/outbox.js'
import type { Db, DeliveryRow, NewDelivery, NewOutboxEvent, WebhookEndpointRow } from '../store/tables.js'
import { checkSource, type PartnerCaller } from './caller.js'
import { newId, nowIso } from './clock.js'
import type { Deps } from './deps.js'
import { fail } from './errors.js'
import type { EventName } from './events.js'
import { groupBy } from './views.js'

export const newSecret = (): string => `sec_${randomBytes(24).toString('hex')}`

function toEndpoint(row: WebhookEndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    events: JSON.parse(row.events) as EventName[],
    source: row.source,
    createdAt: row.created_at,
  }
}

function toDelivery(row: DeliveryRow): Delivery {
  return {
    id: row.id,
    endpointId: row.endpoint_id,
    eventId: row.event_id,
    event: row.event as EventName,
    status: row.status,
    attempts: row.attempts,
    lastStatusCode: row.last_status_code,
    lastError: row.last_error,
    createdAt: row.created_at,
    lastAttemptAt: row.last_attempt_at,
    nextAttemptAt: row.next_attempt_at,
    deliveredAt: row.delivered_at,
  }
}

export async function createWebhook(
  deps: Deps,
  caller: PartnerCaller,
  input: CreateWebhookInput,
): Promise<CreatedWebhookEndpoint> {
  checkSource(caller, input.source)
  const secret = newSecret()
  const row = await endpoints.insertEndpoint(deps.db, {
    id: newId(),
    source: caller.source,
    key_id: caller.keyId,
    url: input.url,
    events: JSON.stringify(input.events ?? []),
    secret,
    created_at: nowIso(),
  })
  return { ...toEndpoint(row), secret }
}

export async function listWebhooks(deps: Deps, caller: PartnerCaller): Promise<WebhookEndpoint[]> {
  return (await endpoints.listEndpoints(deps.db, caller.source)).map(toEndpoint)
}

export async function deleteWebhook(deps: Deps, caller: PartnerCaller, webhookId: string): Promise<void> {
  if (!(await endpoints.deleteEndpoint(deps.db, caller.source, webhookId))) fail('endpoint_not_found')
}

export async function listWebhookDeliveries(
  deps: Deps,
  caller: PartnerCaller,
  webhookId: string,
  limit: number,
): Promise<Delivery[]> {
  const endpoint =
    (await endpoints.findEndpoint(deps.db, caller.source, webhookId)) ?? fail('endpoint_not_found')
  return (await deliveries.listDeliveries(deps.db, endpoint.id, limit)).map(toDelivery)
}

/**
 * One pending delivery per (event, matching endpoint), due at once (the dispatcher applies the schedule's
 * first delay). An endpoint with an empty event list takes every event, names added later included.
 */
export async function fanOut(trx: Transaction<Db>, events: readonly NewOutboxEvent[]): Promise<void> {
  const byLeague = groupBy(events, (e) => e.league_id)
  const rows: NewDelivery[] = []
  for (const [leagueId, group] of byLeague) {
    const league = await leagues.findLeague(trx, leagueId)
    if (league === undefined) continue
    const targets = await endpoints.endpointsForLeague(trx, league)
    for (const target of targets) {
      const wanted = JSON.parse(target.events) as string[]
      for (const event of group) {
        if (wanted.length > 0 && !wanted.includes(event.event)) continue
        rows.push({
          id: newId(),
          endpoint_id: target.id,
          event_id: event.id,
          event: event.event,
          status: 'pending',
          attempts: 0,
          created_at: event.created_at,
          next_attempt_at: event.created_at,
        })
      }
    }
  }
  if (rows.length === 0) return
  await deliveries.insertDeliveries(trx, rows)
  await announceDeliveries(trx)
}
