import { z } from 'zod'
import {
  createWebhook,
  deleteWebhook,
  listWebhookDeliveries,
  listWebhooks,
} from '../../domain/webhook-endpoints.js'
import {
  CreatedWebhookEndpoint,
  CreateWebhookBody,
  DeliveriesQuery,
  Delivery,
  WebhookEndpoint,
  WebhookParams,
} from '../../schemas/webhooks.js'
import { defineOperation } from '../operation.js'

const tags = ['webhooks']

export const listWebhooksOperation = defineOperation({
  method: 'GET',
  path: '/webhooks',
  operationId: 'listWebhooks',
  tags,
  summary: "Your source's webhook endpoints, newest first (never their secrets)",
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
    'The endpoint receives the chosen events (all when `events` is empty or omitted, names added later included) for leagues of your source and leagues granted to this key. Registering the same URL twice creates two endpoints.',
  body: CreateWebhookBody,
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
  ],
  handle: (deps, { caller, body }) => createWebhook(deps, caller, body),
})

export const deleteWebhookOperation = defineOperation({
  method: 'DELETE',
  path: '/webhooks/{webhookId}',
  operationId: 'deleteWebhook',
  tags,
  summary: 'Delete an endpoint and its delivery history; pending deliveries are dropped',
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
  params: WebhookParams,
  query: DeliveriesQuery,
  data: z.array(Delivery),
  errors: ['invalid_limit', 'endpoint_not_found'],
  handle: (deps, { caller, params, query }) =>
    listWebhookDeliveries(deps, caller, params.webhookId, query.limit),
})

export const webhookOperations = [
  listWebhooksOperation,
  createWebhookOperation,
  deleteWebhookOperation,
  listWebhookDeliveriesOperation,
]
