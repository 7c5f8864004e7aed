import { z } from 'zod'
import {
  createWebhook,
  deleteWebhook,
  listWebhookDeliveries,
  listWebhooks,
  registrationReplay,
} from '../domain/partners/webhook-endpoints.js'
import {
  enableWebhook,
  recoverDeliveries,
  retryDelivery,
  sendTestEvent,
} from '../domain/partners/webhook-toolkit.js'
import {
  CreatedWebhookEndpoint,
  CreateWebhookBody,
  DeliveriesQuery,
  Delivery,
  DeliveryParams,
  MAX_DELIVERIES_LIMIT,
  RECOVER_WINDOW_DAYS,
  RecoverBody,
  Recovered,
  TestEventBody,
  WebhookEndpoint,
  WebhookParams,
} from '../schemas/webhooks.js'
import { defineOperation } from './operation.js'

const tags = ['webhooks']

export const listWebhooksOperation = defineOperation({
  method: 'GET',
  path: '/webhooks',
  operationId: 'listWebhooks',
  tags,
  summary: "Your source's webhook endpoints, newest first (never their secrets)",
  description: 'Every key of your source sees the same endpoints. Secrets are shown only at registration.',
  responseDescription: 'The endpoints, newest first, without secrets.',
  data: z.array(WebhookEndpoint),
  errors: [],
  handle: (deps, { caller }) => listWebhooks(deps, caller),
})

export const createWebhookOperation = defineOperation({
  method: 'POST',
  path: '/webhooks',
  operationId: 'createWebhook',
  tags,
  summary: 'Register an HTTPS endpoint; the signing secret is returned in this response only',
  description:
    'The endpoint receives the chosen events (all when `events` is empty or omitted, names added later included) for leagues of your source and leagues granted to this key. Registering the same URL twice creates two endpoints; send an `Idempotency-Key` to retry a registration safely. A source has at most 16 endpoints by default (the operator’s REFDESK_WEBHOOK_MAX_ENDPOINTS); past that the answer is 409 endpoint_limit_reached.',
  responseDescription: 'The endpoint and its signing `secret`, shown in this response only.',
  idempotencyKey: () => registrationReplay,
  // A replay of a registration whose endpoint was deleted since.
  replayErrors: ['endpoint_not_found'],
  body: CreateWebhookBody,
  requestExample: {
    url: 'https://hooks.acme.example/refdesk',
    events: ['game.created', 'position.claimed'],
  },
  status: 201,
  data: CreatedWebhookEndpoint,
  errors: [
    'invalid_json',
    'https_url_required',
    'invalid_url',
    'unknown_event',
    'invalid_events',
    'source_reserved',
    'source_mismatch',
    'invalid_source',
    'endpoint_limit_reached',
  ],
  handle: (deps, { caller, body }) => createWebhook(deps, caller, body),
})

export const deleteWebhookOperation = defineOperation({
  method: 'DELETE',
  path: '/webhooks/{webhookId}',
  operationId: 'deleteWebhook',
  tags,
  summary: 'Delete an endpoint and its delivery history; pending deliveries are dropped',
  description: 'A hard delete: the endpoint, its deliveries and their attempts are gone. There is no undo.',
  responseDescription: 'Always `{"deleted": true}`.',
  params: WebhookParams,
  data: z.object({ deleted: z.literal(true) }),
  errors: ['endpoint_not_found'],
  async handle(deps, { caller, params }) {
    await deleteWebhook(deps, caller, params.webhookId)
    return { deleted: true as const }
  },
})

export const listWebhookDeliveriesOperation = defineOperation({
  method: 'GET',
  path: '/webhooks/{webhookId}/deliveries',
  operationId: 'listWebhookDeliveries',
  tags,
  summary: "An endpoint's deliveries, newest first",
  description: `One delivery per (event, endpoint): its status, attempt count and last outcome. \`limit\` is 1 to ${MAX_DELIVERIES_LIMIT}, default 50. RefDesk extensions: \`status\` keeps only deliveries with that status, and the \`Link\` header (\`<…>; rel="next"\`) is the address of the next, older page (it carries \`cursor\`), absent on the last; the body stays \`{data}\`. Pages are keyed on each delivery's creation time and insertion order, so reading every page visits every delivery once, however many arrive meanwhile (those newer than the first page appear when you start again).`,
  responseDescription: 'The deliveries, newest first; the next page’s address is in the `Link` header.',
  params: WebhookParams,
  query: DeliveriesQuery,
  data: z.array(Delivery),
  paged: true,
  errors: ['invalid_limit', 'invalid_cursor', 'invalid_status_filter', 'endpoint_not_found'],
  handle: (deps, { caller, params, query }) => listWebhookDeliveries(deps, caller, params.webhookId, query),
})

const testWebhookOperation = defineOperation({
  method: 'POST',
  path: '/webhooks/{webhookId}/test',
  operationId: 'testWebhook',
  tags,
  summary: 'Send the endpoint a signed example of an event',
  description:
    'Records an example of the event for this endpoint alone and sends it now, signed like any delivery: realistic `data` of the event’s documented shape (ids that exist nowhere, your source), and `"test": true` beside `id`, `event`, `createdAt` and `data` in the envelope so your receiver can tell it apart. It is retried on the schedule and listed in the endpoint’s deliveries like any other. A disabled endpoint answers 409 endpoint_disabled: enable it first. A source sends at most 60 test examples an hour over all its endpoints; past that the answer is 409 test_event_limit_reached until the oldest of them is an hour old.',
  responseDescription: 'The queued delivery (status `pending`); list the deliveries to see how it went.',
  params: WebhookParams,
  body: TestEventBody,
  requestExample: { event: 'position.claimed' },
  status: 202,
  data: Delivery,
  extension: true,
  errors: [
    'invalid_json',
    'invalid_event',
    'unknown_event',
    'endpoint_not_found',
    'endpoint_disabled',
    'test_event_limit_reached',
  ],
  handle: (deps, { caller, params, body }) => sendTestEvent(deps, caller, params.webhookId, body.event),
})

const retryWebhookDeliveryOperation = defineOperation({
  method: 'POST',
  path: '/webhooks/{webhookId}/deliveries/{deliveryId}/retry',
  operationId: 'retryWebhookDelivery',
  tags,
  summary: 'Send a delivery again now, whatever its status',
  description:
    'The delivery becomes `pending` and due now: the same event with the same `webhook-id` (deduplicate on it), one more attempt on record. A failed delivery whose retries are used up gets this one attempt; a pending one is sent now instead of at its next retry. An attempt still in flight when you ask is not recorded; the new one is.',
  responseDescription: 'The delivery, queued (status `pending`).',
  params: DeliveryParams,
  status: 202,
  data: Delivery,
  extension: true,
  errors: ['endpoint_not_found', 'delivery_not_found', 'endpoint_disabled'],
  handle: (deps, { caller, params }) => retryDelivery(deps, caller, params.webhookId, params.deliveryId),
})

const recoverWebhookOperation = defineOperation({
  method: 'POST',
  path: '/webhooks/{webhookId}/recover',
  operationId: 'recoverWebhook',
  tags,
  summary: 'Send every failed delivery since a time again',
  description: `Every \`failed\` delivery of the endpoint created at or after \`since\` (at most ${RECOVER_WINDOW_DAYS} days back, else invalid_since) becomes \`pending\` and due now: one more attempt each, same \`webhook-id\`, in the usual order and pace. Use it after your receiver was down, or after enabling a disabled endpoint.`,
  responseDescription: 'How many deliveries were queued again.',
  params: WebhookParams,
  body: RecoverBody,
  requestExample: { since: '2026-04-20T00:00:00Z' },
  data: Recovered,
  extension: true,
  errors: ['invalid_json', 'invalid_since', 'endpoint_not_found', 'endpoint_disabled'],
  handle: (deps, { caller, params, body }) => recoverDeliveries(deps, caller, params.webhookId, body.since),
})

const enableWebhookOperation = defineOperation({
  method: 'POST',
  path: '/webhooks/{webhookId}/enable',
  operationId: 'enableWebhook',
  tags,
  summary: 'Enable an endpoint that was disabled for failing',
  description:
    'An endpoint whose every attempt failed for the operator’s REFDESK_WEBHOOK_DISABLE_AFTER (5 days by default) is disabled: its pending deliveries fail with lastError `endpoint_disabled`, and so do the deliveries of events that happen while it is. Enabling sends new events again and leaves those failed: recover them with `POST /webhooks/{webhookId}/recover`. Enabling an enabled endpoint changes nothing.',
  responseDescription: 'The endpoint, enabled.',
  params: WebhookParams,
  data: WebhookEndpoint,
  extension: true,
  errors: ['endpoint_not_found'],
  handle: (deps, { caller, params }) => enableWebhook(deps, caller, params.webhookId),
})

export const webhookOperations = [
  listWebhooksOperation,
  createWebhookOperation,
  deleteWebhookOperation,
  listWebhookDeliveriesOperation,
]

/** The webhook toolkit: RefDesk extensions, with no MCP tool. */
export const webhookExtensionOperations = [
  testWebhookOperation,
  retryWebhookDeliveryOperation,
  recoverWebhookOperation,
  enableWebhookOperation,
]
