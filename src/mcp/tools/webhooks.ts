import {
  listWebhooksOperation,
  createWebhookOperation,
  deleteWebhookOperation,
  listWebhookDeliveriesOperation,
} from '../../operations/webhooks.js'
import { z } from 'zod'
import type { Delivery } from '../../schemas/webhooks.js'
import { MAX_DELIVERIES_LIMIT, WebhookEndpoint } from '../../schemas/webhooks.js'
import { DESTRUCTIVE, NEXT_STEP, READ, WRITE, read, refuse, type ToolSpec } from '../tool.js'

const DeleteWebhookPreview = z.object({
  endpoint: WebhookEndpoint,
  deliveries: z
    .number()
    .int()
    .meta({
      description: `Delivery records deleted with the endpoint (counted up to ${MAX_DELIVERIES_LIMIT}).`,
    }),
  next: z.string(),
})

export const webhookTools: ToolSpec[] = [
  {
    name: 'list_webhooks',
    title: 'List webhook endpoints',
    description:
      'Lists the webhook endpoints registered by this key’s source, newest first (the secret is never shown again). Takes no arguments.',
    annotations: READ,
    operation: listWebhooksOperation,
  },
  {
    name: 'create_webhook',
    title: 'Register a webhook endpoint',
    description:
      'Registers an HTTPS endpoint for signed event deliveries (all events when events is empty or omitted). The result carries the signing secret, shown this once only: hand it to the user to store. Registering twice creates two endpoints, so do not retry blindly: check refdesk_list_webhooks first.',
    annotations: WRITE,
    operation: createWebhookOperation,
  },
  {
    name: 'delete_webhook',
    title: 'Delete a webhook endpoint',
    description: [
      'Deletes a webhook endpoint and its delivery history; no further events are sent to it. Needs webhookId (from refdesk_list_webhooks).',
      'Destructive: without confirm: true nothing changes and the result is a preview showing the endpoint and how many delivery records would go with it. Show it to the user, then repeat with confirm: true.',
    ].join('\n'),
    annotations: DESTRUCTIVE,
    operation: deleteWebhookOperation,
    preview: {
      schema: DeleteWebhookPreview,
      async build(args, forward) {
        const endpoints = await read<WebhookEndpoint[]>(forward, { operation: listWebhooksOperation })
        const endpoint = endpoints.find((e) => e.id === args.webhookId) ?? refuse('endpoint_not_found')
        const deliveries = await read<Delivery[]>(forward, {
          operation: listWebhookDeliveriesOperation,
          params: { webhookId: endpoint.id },
          query: { limit: String(MAX_DELIVERIES_LIMIT) },
        })
        return { endpoint, deliveries: deliveries.length, next: NEXT_STEP }
      },
    },
  },
  {
    name: 'list_webhook_deliveries',
    title: 'List an endpoint’s deliveries',
    description: `Lists the latest deliveries to a webhook endpoint, newest first, with status, attempts and the last error (limit: default 50, at most ${MAX_DELIVERIES_LIMIT}; status keeps one status). nextCursor, when not null, is the cursor of the next, older page. Needs webhookId (from refdesk_list_webhooks).`,
    annotations: READ,
    operation: listWebhookDeliveriesOperation,
  },
]
