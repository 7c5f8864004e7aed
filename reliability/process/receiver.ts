// An HTTPS webhook receiver for processes (certificate from the test CA in test/webhooks/fixtures) that
// answers 204 after a short random delay, so that deliveries are genuinely in flight when a worker dies,
// and keeps every request: its event id, webhook-id, body, whether the signature verifies, and when.
import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:https'
import type { AddressInfo, Socket } from 'node:net'
import { sign } from '../../src/webhooks/sign.js'

const fixture = (name: string) =>
  readFileSync(new URL(`../../test/webhooks/fixtures/${name}`, import.meta.url))
export const CA_PATH = new URL('../../test/webhooks/fixtures/ca.crt', import.meta.url).pathname

export interface Delivery {
  eventId: string
  webhookId: string
  body: string
  signed: boolean
  /** performance.now() when the request arrived. */
  at: number
  /** The 204 went out (false: the sender's connection died first). */
  answered: boolean
}

export interface SlowReceiver {
  url: string
  /** Every request, answered or not, in arrival order. */
  received: Delivery[]
  /** Requests read and not yet answered. */
  inProgress(): number
  /** The endpoint secret, once registered, for checking signatures. */
  secret: string
  /** Answers wait a random time up to this. */
  maxDelayMs: number
  close(): Promise<void>
}

export async function startSlowReceiver(maxDelayMs = 5): Promise<SlowReceiver> {
  const sockets = new Set<Socket>()
  let open = 0
  const receiver: SlowReceiver = {
    url: '',
    received: [],
    secret: '',
    maxDelayMs,
    inProgress: () => open,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy()
        server.close(() => resolve())
      }),
  }
  const server: Server = createServer(
    { key: fixture('server.key'), cert: fixture('server.crt') },
    (req, res) => {
      const chunks: Buffer[] = []
      open += 1
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8')
        const header = (name: string) => String(req.headers[name] ?? '')
        const webhookId = header('webhook-id')
        const timestamp = Number(header('webhook-timestamp'))
        const delivery: Delivery = {
          eventId: (JSON.parse(body) as { id: string }).id,
          webhookId,
          body,
          signed: header('webhook-signature') === sign(receiver.secret, webhookId, timestamp, body),
          at: performance.now(),
          answered: false,
        }
        receiver.received.push(delivery)
        res.on('finish', () => (delivery.answered = true))
        setTimeout(() => {
          if (!res.destroyed) res.writeHead(204).end()
        }, Math.random() * receiver.maxDelayMs)
      })
      res.on('close', () => (open -= 1))
    },
  )
  server.on('secureConnection', (s: Socket) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  receiver.url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`
  return receiver
}
