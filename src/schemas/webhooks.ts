import { z } from 'zod'
import { EVENT_NAMES } from '../domain/events.js'
import { DateTime, Id, PathId, SourceInput } from './common.js'

export const MAX_DELIVERIES_LIMIT = 200
export const DEFAULT_DELIVERIES_LIMIT = 50

const EventName = z.enum(EVENT_NAMES)

export const WebhookEndpoint = z
  .object({
    id: Id,
    url: z.string(),
    events: z.array(EventName).meta({ description: 'Empty: every event, including names added later.' }),
    source: z.string(),
    createdAt: DateTime,
  })
  .meta({ id: 'WebhookEndpoint' })

export const CreatedWebhookEndpoint = WebhookEndpoint.extend({
  secret: z.string().meta({ description: '`sec_` + 48 hex. Shown in this response only; store it now.' }),
}).meta({ id: 'CreatedWebhookEndpoint' })

export const CreateWebhookBody = z.object({
  url: z
    .string({ error: (issue) => (issue.input === undefined ? 'https_url_required' : 'invalid_url') })
    .refine(isHttpsUrl, { error: 'https_url_required' })
    .meta({ format: 'uri', description: 'An https:// URL.' }),
  events: z
    .array(z.string({ error: 'invalid_events' }), { error: 'invalid_events' })
    .superRefine((names, ctx) => {
      const unknown = names.find((name) => !(EVENT_NAMES as readonly string[]).includes(name))
      if (unknown !== undefined)
        ctx.addIssue({ code: 'custom', message: `unknown_event:${unknown.slice(0, 200)}` })
    })
    .transform((names) => [...new Set(names)] as z.infer<typeof EventName>[])
    .optional()
    .meta({ description: 'Event names; empty or omitted means all events.' }),
  source: SourceInput.optional(),
})

function isHttpsUrl(value: string): boolean {
  try {
    const url = new URL(value)
    return url.protocol === 'https:' && url.hostname !== ''
  } catch {
    return false
  }
}

export const WebhookParams = z.object({ webhookId: PathId('endpoint_not_found') })

export const DeliveriesQuery = z.object({
  limit: z.coerce
    .number({ error: 'invalid_limit' })
    .int({ error: 'invalid_limit' })
    .min(1, { error: 'invalid_limit' })
    .max(MAX_DELIVERIES_LIMIT, { error: 'invalid_limit' })
    .default(DEFAULT_DELIVERIES_LIMIT),
})

export const Delivery = z
  .object({
    id: Id,
    endpointId: Id,
    eventId: z.string(),
    event: EventName,
    status: z.enum(['pending', 'succeeded', 'failed']),
    attempts: z.number().int(),
    lastStatusCode: z.number().int().nullable(),
    lastError: z.string().nullable(),
    createdAt: DateTime,
    lastAttemptAt: DateTime.nullable(),
    nextAttemptAt: DateTime.nullable(),
    deliveredAt: DateTime.nullable(),
  })
  .meta({ id: 'Delivery' })

export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>
export type CreatedWebhookEndpoint = z.infer<typeof CreatedWebhookEndpoint>
export type CreateWebhookInput = z.output<typeof CreateWebhookBody>
export type Delivery = z.infer<typeof Delivery>
