// Faulty webhook receivers on real HTTPS sockets (certificate from the test CA in test/webhooks/fixtures).
// Each request is answered by a scripted fault chosen from the attempt number of its `webhook-id`, and
// the receiver keeps what the dispatcher's side cannot see: every request per event id, the 2xx answers
// it gave with the raw signed body, the responses the client abandoned before they were complete, and
// how many response-body bytes were offered versus handed to the socket.
import { readFileSync } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { createServer, type Server } from 'node:https'
import type { AddressInfo, Socket } from 'node:net'

const fixture = (name: string) =>
  readFileSync(new URL(`../../test/webhooks/fixtures/${name}`, import.meta.url))
export const CA_PATH = new URL('../../test/webhooks/fixtures/ca.crt', import.meta.url).pathname

/** What the receiver does with one request. */
export type Fault =
  | { kind: 'status'; status: number; headers?: Record<string, string>; delayMs?: number }
  /** Reads the request and never answers. */
  | { kind: 'hang' }
  /** Destroys the socket as soon as the request head arrived, before reading its body. */
  | { kind: 'reset-request' }
  /** Writes part of the status line and headers, then destroys the socket. */
  | { kind: 'reset-response' }
  /** Writes a complete `200` response head one byte every `intervalMs`. */
  | { kind: 'trickle-head'; intervalMs: number }
  /** Sends the head at once, then the body one byte every `intervalMs`. */
  | { kind: 'trickle-body'; status: number; intervalMs: number; length: number }
  /** Streams `bytes` of body as fast as the client reads it; `contentLength` false means chunked. */
  | { kind: 'huge'; status: number; bytes: number; contentLength: boolean }

export interface Received {
  headers: Record<string, string>
  body: string
}

export interface FaultReceiver {
  url: string
  /** The faults this receiver answered with, per `webhook-id`, in the order the requests came. */
  answered: Map<string, Fault[]>
  /** The requests answered with a 2xx status line, with their raw body. */
  accepted: Map<string, Received[]>
  /** Responses the client closed before the receiver had finished them (timeouts, early close). */
  abandoned: number
  /** Response-body bytes the faults meant to send, and the bytes actually handed to the socket. */
  bytesOffered: number
  bytesWritten: number
  /** The most body bytes handed to the socket for any one response. */
  maxWrittenPerResponse: number
  close(): Promise<void>
}

const isSuccess = (status: number) => status >= 200 && status < 300
const HUGE_CHUNK = Buffer.alloc(64 * 1024, 'x')

export async function startFaultReceiver(
  script: (attempt: number, eventId: string) => Fault,
): Promise<FaultReceiver> {
  const sockets = new Set<Socket>()
  const receiver: FaultReceiver = {
    url: '',
    answered: new Map(),
    accepted: new Map(),
    abandoned: 0,
    bytesOffered: 0,
    bytesWritten: 0,
    maxWrittenPerResponse: 0,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy()
        server.close(() => resolve())
      }),
  }

  const accept = (id: string, req: IncomingMessage, body: string) => {
    const list = receiver.accepted.get(id) ?? []
    list.push({ headers: req.headers as Record<string, string>, body })
    receiver.accepted.set(id, list)
  }

  // Counts a response the client gave up on: its socket closed before `finished()` became true.
  const watch = (socket: Socket, finished: () => boolean) =>
    socket.once('close', () => {
      if (!finished()) receiver.abandoned += 1
    })

  const handle = (req: IncomingMessage, res: ServerResponse, fault: Fault, id: string, body: string) => {
    const socket = req.socket
    switch (fault.kind) {
      case 'status': {
        const answer = () => {
          if (socket.destroyed) return
          if (isSuccess(fault.status)) accept(id, req, body)
          res.writeHead(fault.status, fault.headers ?? {}).end()
        }
        if (fault.delayMs === undefined) answer()
        else setTimeout(answer, fault.delayMs)
        return
      }
      case 'hang':
        watch(socket, () => false)
        return
      case 'reset-request':
        return
      case 'reset-response':
        socket.write('HTTP/1.1 200 OK\r\ncontent-le')
        socket.destroy()
        return
      case 'trickle-head': {
        const head = 'HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n'
        let sent = 0
        watch(socket, () => sent === head.length)
        const timer = setInterval(() => {
          if (socket.destroyed || sent === head.length) return clearInterval(timer)
          socket.write(head[sent++]!)
        }, fault.intervalMs)
        socket.once('close', () => clearInterval(timer))
        return
      }
      case 'trickle-body': {
        if (isSuccess(fault.status)) accept(id, req, body)
        receiver.bytesOffered += fault.length
        res.writeHead(fault.status, { 'content-length': String(fault.length) })
        let sent = 0
        watch(socket, () => sent === fault.length)
        const timer = setInterval(() => {
          if (res.destroyed || sent === fault.length) return clearInterval(timer)
          sent += 1
          receiver.bytesWritten += 1
          if (sent === fault.length) res.end('x')
          else res.write('x')
        }, fault.intervalMs)
        socket.once('close', () => clearInterval(timer))
        return
      }
      case 'huge': {
        if (isSuccess(fault.status)) accept(id, req, body)
        receiver.bytesOffered += fault.bytes
        res.writeHead(fault.status, fault.contentLength ? { 'content-length': String(fault.bytes) } : {})
        let sent = 0
        watch(socket, () => sent === fault.bytes)
        const pump = () => {
          while (sent < fault.bytes && !res.destroyed) {
            const chunk = HUGE_CHUNK.subarray(0, Math.min(HUGE_CHUNK.length, fault.bytes - sent))
            sent += chunk.length
            receiver.bytesWritten += chunk.length
            receiver.maxWrittenPerResponse = Math.max(receiver.maxWrittenPerResponse, sent)
            if (sent === fault.bytes) return void res.end(chunk)
            // Backpressure: wait until the client read what is buffered, as a real server would.
            if (!res.write(chunk)) return void res.once('drain', pump)
          }
        }
        pump()
        return
      }
    }
  }

  const server: Server = createServer(
    { key: fixture('server.key'), cert: fixture('server.crt') },
    (req, res) => {
      const id = String(req.headers['webhook-id'] ?? '')
      const answered = receiver.answered.get(id) ?? []
      const fault = script(answered.length + 1, id)
      answered.push(fault)
      receiver.answered.set(id, answered)
      if (fault.kind === 'reset-request') return void req.socket.destroy()
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => handle(req, res, fault, id, Buffer.concat(chunks).toString('utf8')))
    },
  )
  // Writes to a socket the client already closed are expected here, not failures of the receiver.
  server.on('clientError', (_err, socket) => socket.destroy())
  server.on('secureConnection', (s: Socket) => {
    sockets.add(s)
    s.on('error', () => undefined)
    s.on('close', () => sockets.delete(s))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  receiver.url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`
  return receiver
}
