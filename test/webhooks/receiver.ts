// A real HTTPS receiver on 127.0.0.1 with a certificate from the test CA (fixtures/), or a plain HTTP one
// (`{ plain: true }`, as a partner develops with). Its behaviour is scripted per request: a status code,
// a connection reset, or a hang (never answers).
import { readFileSync } from 'node:fs'
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { createServer, type Server } from 'node:https'
import type { AddressInfo, Socket } from 'node:net'
import { eventually } from '../helpers/eventually.js'

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url))
export const CA = fixture('ca.crt')
export const CA_PATH = new URL('./fixtures/ca.crt', import.meta.url).pathname

export type Behaviour = number | 'reset' | 'hang'

export interface Received {
  path: string
  headers: Record<string, string>
  body: string
  json: { id: string; event: string; createdAt: string; data: any }
  receivedAt: number
}

export interface Receiver {
  url: string
  received: Received[]
  /** Requests whose answer was a 2xx. */
  accepted(): Received[]
  /** Next behaviours, one per request in order; afterwards `fallback`. */
  script(...next: Behaviour[]): void
  fallback: Behaviour
  /** A behaviour for every request to a path (`/hooks/slow`), before the script and the fallback. */
  readonly byPath: Map<string, Behaviour>
  /** Answers every request held by 'hang' so far. */
  answerHung(status: number): void
  waitForAccepted(n: number): Promise<Received[]>
  /** The most requests this receiver has had open at once. */
  maxConcurrent: number
  close(): Promise<void>
}

export async function startReceiver(options: { plain?: boolean } = {}): Promise<Receiver> {
  const queue: Behaviour[] = []
  const acceptedSet = new WeakSet<Received>()
  const sockets = new Set<Socket>()
  const hung: { entry: Received; res: ServerResponse }[] = []
  let open = 0
  const receiver: Receiver = {
    url: '',
    received: [],
    fallback: 204,
    byPath: new Map(),
    maxConcurrent: 0,
    accepted: () => receiver.received.filter((r) => acceptedSet.has(r)),
    answerHung: (status) => {
      for (const { entry, res } of hung.splice(0)) {
        if (status >= 200 && status < 300) acceptedSet.add(entry)
        res.writeHead(status).end()
      }
    },
    script: (...next) => void queue.push(...next),
    waitForAccepted: (n) =>
      eventually(() => {
        const got = receiver.accepted()
        if (got.length < n) throw new Error(`${got.length}/${n} accepted`)
        return got
      }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy()
        server.close(() => resolve())
      }),
  }
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    receiver.maxConcurrent = Math.max(receiver.maxConcurrent, ++open)
    res.on('close', () => open--)
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      const entry: Received = {
        path: req.url ?? '',
        headers: req.headers as Record<string, string>,
        body,
        json: JSON.parse(body),
        receivedAt: performance.now(),
      }
      receiver.received.push(entry)
      const behaviour = receiver.byPath.get(entry.path) ?? queue.shift() ?? receiver.fallback
      if (behaviour === 'reset') return req.socket.destroy()
      if (behaviour === 'hang') return void hung.push({ entry, res })
      if (behaviour >= 200 && behaviour < 300) acceptedSet.add(entry)
      res.writeHead(behaviour, behaviour === 302 ? { location: 'https://127.0.0.1/elsewhere' } : {}).end()
    })
  }
  const server: Server | ReturnType<typeof createHttpServer> = options.plain
    ? createHttpServer(handle)
    : createServer({ key: fixture('server.key'), cert: fixture('server.crt') }, handle)
  server.on(options.plain ? 'connection' : 'secureConnection', (s: Socket) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const scheme = options.plain ? 'http' : 'https'
  receiver.url = `${scheme}://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`
  return receiver
}
