// Webhook endpoints, owned by a source and scoped by the registering key's grants, and their deliveries.
import { randomBytes } from 'node:crypto'
import type { EventName } from '../../schemas/events.js'
import {
  encodeCursor,
  isLoopbackHttpUrl,
  type CreatedWebhookEndpoint,
  type CreateWebhookInput,
  type Delivery,
  type DeliveryCursor,
  type WebhookEndpoint,
} from '../../schemas/webhooks.js'
import * as deliveries from '../../store/deliveries.js'
import * as endpoints from '../../store/webhook-endpoints.js'
import type { DeliveryRow, WebhookEndpointRow } from '../../store/tables.js'
import { checkSource, type PartnerCaller } from '../core/caller.js'
import { isoNow, newId } from '../../clock.js'
import type { Deps } from '../core/deps.js'
import { fail } from '../core/errors.js'
import type { ReplayGuard } from './idempotency.js'

const newSecret = (): string => `sec_${randomBytes(24).toString('hex')}`

export function toEndpoint(row: WebhookEndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    events: JSON.parse(row.events) as EventName[],
    source: row.source,
    createdAt: row.created_at,
    disabled: row.disabled_at !== null,
    disabledAt: row.disabled_at,
  }
}

export function toDelivery(row: DeliveryRow): Delivery {
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
  // HTTPS, or in development mode http:// on loopback (the schema already refuses other http:// URLs).
  const url = new URL(input.url)
  const devUrl = deps.limits.webhookDevLocalhost && isLoopbackHttpUrl(input.url)
  if (!devUrl && url.protocol !== 'https:') fail('https_url_required')
  // A literal address is refused now, where the partner sees why, rather than at every delivery attempt.
  if (deps.webhookHostRefusal(url.hostname) !== null) fail('https_url_required')
  const secret = newSecret()
  const row = await deps.db.transaction().execute(async (trx) => {
    // Counted under the source's lock, so concurrent registrations cannot pass the cap together.
    if ((await endpoints.lockAndCountEndpoints(trx, caller.source)) >= deps.limits.endpointsPerSource)
      fail('endpoint_limit_reached')
    return endpoints.insertEndpoint(trx, {
      id: newId(),
      source: caller.source,
      key_id: caller.keyId,
      url: input.url,
      events: JSON.stringify(input.events ?? []),
      secret,
      created_at: isoNow(deps.clock),
    })
  })
  return { ...toEndpoint(row), secret }
}

/** A registration's answer as `JSON.stringify` wrote it, with its secret set to `secret`. */
function withSecret(body: string, secret: string | null): string {
  const answer = JSON.parse(body) as { data: { secret: string | null } }
  // Set in place, so the key keeps its position and the text comes out byte for byte.
  answer.data.secret = secret
  return JSON.stringify(answer)
}

/**
 * Idempotency-Key replays of a registration: the kept answer stores no secret (null in its place); a
 * replay takes it from the endpoint, which must still exist and be the source's, else
 * endpoint_not_found (a deleted endpoint's secret is never shown again).
 */
export const registrationReplay: ReplayGuard = {
  seal: (answer) => (answer.status === 201 ? { ...answer, body: withSecret(answer.body, null) } : answer),
  async replay(trx, caller, kept) {
    if (kept.status !== 201) return kept
    const { id } = (JSON.parse(kept.body) as { data: { id: string } }).data
    const endpoint = (await endpoints.findEndpoint(trx, caller.source, id)) ?? fail('endpoint_not_found')
    return { ...kept, body: withSecret(kept.body, endpoint.secret) }
  },
}

export async function listWebhooks(deps: Deps, caller: PartnerCaller): Promise<WebhookEndpoint[]> {
  return (await endpoints.listEndpoints(deps.db, caller.source)).map(toEndpoint)
}

export async function deleteWebhook(deps: Deps, caller: PartnerCaller, webhookId: string): Promise<void> {
  if (!(await endpoints.deleteEndpoint(deps.db, caller.source, webhookId))) fail('endpoint_not_found')
}

export interface DeliveriesQuery {
  limit: number
  cursor?: DeliveryCursor | undefined
  status?: Delivery['status'] | undefined
}

/** A page of deliveries, newest first, and the cursor of the next page (null on the last). */
export async function listWebhookDeliveries(
  deps: Deps,
  caller: PartnerCaller,
  webhookId: string,
  query: DeliveriesQuery,
): Promise<{ data: Delivery[]; nextCursor: string | null }> {
  const endpoint =
    (await endpoints.findEndpoint(deps.db, caller.source, webhookId)) ?? fail('endpoint_not_found')
  // One row more than the page says whether another page follows.
  const rows = await deliveries.listDeliveries(deps.db, endpoint, {
    limit: query.limit + 1,
    status: query.status,
    before: query.cursor,
  })
  const page = rows.slice(0, query.limit)
  const last = page.at(-1)
  const nextCursor =
    rows.length > query.limit && last ? encodeCursor({ createdAt: last.created_at, seq: last.seq }) : null
  return { data: page.map(toDelivery), nextCursor }
}
