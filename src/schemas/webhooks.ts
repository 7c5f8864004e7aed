import { z } from 'zod'
import { EVENT_NAMES } from './events.js'
import { DateTime, extension, Id, isStorableText, MAX_LENGTH, PathId, SourceInput } from './common.js'

export const MAX_DELIVERIES_LIMIT = 200
const DEFAULT_DELIVERIES_LIMIT = 50

const EventName = z.enum(EVENT_NAMES)

export const WebhookEndpoint = z
  .object({
    id: Id,
    url: z.string(),
    events: z.array(EventName).meta({ description: 'Empty: every event, including names added later.' }),
    source: z.string(),
    createdAt: DateTime,
    disabled: extension(
      z.boolean(),
      'RefDesk extension. True once every attempt has failed for the operator’s REFDESK_WEBHOOK_DISABLE_AFTER (5 days by default): nothing is sent until `POST /webhooks/{webhookId}/enable`.',
    ),
    disabledAt: extension(DateTime.nullable(), 'RefDesk extension. Since when it is disabled.'),
  })
  .meta({ id: 'WebhookEndpoint' })

export const CreatedWebhookEndpoint = WebhookEndpoint.extend({
  secret: z.string().meta({ description: '`sec_` + 48 hex. Shown in this response only; store it now.' }),
}).meta({ id: 'CreatedWebhookEndpoint' })

export const CreateWebhookBody = z.object({
  url: z
    .string({ error: (issue) => (issue.input === undefined ? 'https_url_required' : 'invalid_url') })
    .max(MAX_LENGTH.url, { error: 'invalid_url' })
    .refine(isStorableText, { error: 'invalid_url' })
    .transform((value, ctx) => {
      const href = normalizeUrl(value)
      // Normalising can lengthen a URL (punycode, percent-encoding): the stored form is what is bounded.
      const code =
        href === undefined ? 'https_url_required' : href.length > MAX_LENGTH.url ? 'invalid_url' : undefined
      if (code === undefined) return href as string
      ctx.addIssue({ code: 'custom', message: code, input: value })
      return z.NEVER
    })
    .meta({
      format: 'uri',
      description:
        'An https:// URL with a host, stored as the WHATWG URL parser normalises it. A literal loopback, private, link-local or cloud-metadata address, or credentials (`user:pass@`), answer https_url_required. A server run with REFDESK_WEBHOOK_DEV_LOCALHOST also takes http:// on loopback (development only).',
    }),
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

/**
 * The URL's normalised form (WHATWG: lowercased scheme and host, IPv4 in dotted decimal, IPv6 compressed,
 * default port dropped), or undefined unless it is https with a host, or http:// on loopback (which the
 * service takes only in development mode). The parser forgives missing or extra slashes, so `https:///path`
 * would become host `path`: the text itself must name a host right after the scheme's `//`. A URL with
 * `user:pass@` is refused too.
 */
function normalizeUrl(value: string): string | undefined {
  if (!/^https?:\/\/[^/\\]/i.test(value)) return undefined
  try {
    const url = new URL(value)
    if (url.hostname === '') return undefined
    // Credentials in the URL would be stored, listed and sent in plain text; the endpoint has its secret.
    if (url.username !== '' || url.password !== '') return undefined
    return url.protocol === 'https:' || isLoopbackHttpUrl(value) ? url.href : undefined
  } catch {
    return undefined
  }
}

const LOOPBACK_HOST = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/

/** An http:// URL whose host is loopback (`localhost`, 127.0.0.0/8, `[::1]`). */
export function isLoopbackHttpUrl(value: string): boolean {
  try {
    const url = new URL(value)
    return url.protocol === 'http:' && LOOPBACK_HOST.test(url.hostname)
  } catch {
    return false
  }
}

export const WebhookParams = z.object({ webhookId: PathId('endpoint_not_found') })

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const

/** Where a page of deliveries ends: the last delivery's `createdAt` and its insertion order. */
export interface DeliveryCursor {
  createdAt: string
  seq: number
}

const CURSOR_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

export const encodeCursor = (cursor: DeliveryCursor): string =>
  Buffer.from(JSON.stringify([cursor.createdAt, cursor.seq])).toString('base64url')

function decodeCursor(text: string): DeliveryCursor | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'))
    if (!Array.isArray(value) || value.length !== 2) return undefined
    const [createdAt, seq] = value as unknown[]
    if (typeof createdAt !== 'string' || !CURSOR_TIME.test(createdAt)) return undefined
    if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 0) return undefined
    return { createdAt, seq }
  } catch {
    return undefined
  }
}

export const DeliveriesQuery = z.object({
  limit: z.coerce
    .number({ error: 'invalid_limit' })
    .int({ error: 'invalid_limit' })
    .min(1, { error: 'invalid_limit' })
    .max(MAX_DELIVERIES_LIMIT, { error: 'invalid_limit' })
    .default(DEFAULT_DELIVERIES_LIMIT),
  cursor: extension(
    z
      .string({ error: 'invalid_cursor' })
      .max(200, { error: 'invalid_cursor' })
      .transform((text, ctx) => {
        const cursor = decodeCursor(text)
        if (cursor === undefined) ctx.addIssue({ code: 'custom', message: 'invalid_cursor' })
        return cursor ?? z.NEVER
      })
      .optional(),
    'RefDesk extension. The `cursor` of the previous page’s `Link: <…>; rel="next"` header, unchanged: the page after it. Pages never repeat or skip a delivery, however many arrive meanwhile.',
  ),
  status: extension(
    z.enum(DELIVERY_STATUSES, { error: 'invalid_status_filter' }).optional(),
    'RefDesk extension. Only deliveries with this status.',
  ),
})

export const Delivery = z
  .object({
    id: Id,
    endpointId: Id,
    eventId: z.string(),
    event: EventName,
    status: z.enum(DELIVERY_STATUSES),
    attempts: z.number().int(),
    lastStatusCode: z.number().int().nullable(),
    lastError: z.string().nullable(),
    createdAt: DateTime,
    lastAttemptAt: DateTime.nullable(),
    nextAttemptAt: DateTime.nullable(),
    deliveredAt: DateTime.nullable(),
  })
  .meta({ id: 'Delivery' })

export const DeliveryParams = WebhookParams.extend({ deliveryId: PathId('delivery_not_found') })

export const TestEventBody = z.object({
  event: z
    .string({ error: 'invalid_event' })
    .refine((name) => (EVENT_NAMES as readonly string[]).includes(name), {
      error: (issue) => `unknown_event:${String(issue.input).slice(0, 200)}`,
    })
    .transform((name) => name as z.infer<typeof EventName>)
    .meta({ description: 'The event to send an example of.', enum: [...EVENT_NAMES] }),
})

/** How far back `recover` reaches. */
export const RECOVER_WINDOW_DAYS = 14

export const RecoverBody = z.object({
  since: z
    .string({ error: 'invalid_since' })
    .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/, { error: 'invalid_since' })
    .refine((text) => !Number.isNaN(Date.parse(text)), { error: 'invalid_since' })
    .meta({
      format: 'date-time',
      description: `Deliveries created at or after this time (ISO 8601 with a zone), at most ${RECOVER_WINDOW_DAYS} days back.`,
    }),
})

export const Recovered = z
  .object({
    recovered: z.number().int().meta({ description: 'Failed deliveries queued for another attempt.' }),
  })
  .meta({ id: 'Recovered' })

export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>
export type CreatedWebhookEndpoint = z.infer<typeof CreatedWebhookEndpoint>
export type CreateWebhookInput = z.output<typeof CreateWebhookBody>
export type Delivery = z.infer<typeof Delivery>
