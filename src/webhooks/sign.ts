// Standard Webhooks signing: `v1,` + base64 HMAC-SHA256 over `id.timestamp.body`, keyed with the UTF-8
// bytes of the whole `sec_…` string (what `new Webhook(secret, { format: 'raw' })` verifies).
import { createHmac } from 'node:crypto'

export interface Envelope {
  id: string
  event: string
  createdAt: string
  /** The event's `data`, already JSON text (spliced in as stored, never re-serialized). */
  data: string
  /** An example sent by `POST /webhooks/{webhookId}/test`: the envelope gains `"test": true`. */
  test?: boolean
}

export function envelopeBody(e: Envelope): string {
  return `{"id":${JSON.stringify(e.id)},"event":${JSON.stringify(e.event)},"createdAt":${JSON.stringify(e.createdAt)},"data":${e.data}${e.test ? ',"test":true' : ''}}`
}

export function sign(secret: string, id: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', Buffer.from(secret, 'utf8'))
    .update(`${id}.${timestamp}.${body}`)
    .digest('base64')
  return `v1,${mac}`
}

export function signedHeaders(
  secret: string,
  id: string,
  body: string,
  now = Date.now(),
): Record<string, string> {
  const timestamp = Math.floor(now / 1000)
  return {
    'content-type': 'application/json',
    'user-agent': 'RefDesk-Webhooks/1',
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': sign(secret, id, timestamp, body),
  }
}
