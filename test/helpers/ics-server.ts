// A busy-calendar site for tests: HTTPS on 127.0.0.1 with the test CA's certificate (test/webhooks/fixtures),
// answering each path with what the test put there: an ICS text, a redirect, or nothing at all (a hang).
import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:https'
import type { AddressInfo, Socket } from 'node:net'

const fixture = (name: string) => readFileSync(new URL(`../webhooks/fixtures/${name}`, import.meta.url))
export const TEST_CA = fixture('ca.crt')

export type Answer = { ics: string } | { redirect: string } | { status: number } | 'hang'

export interface IcsServer {
  /** https://127.0.0.1:PORT */
  readonly origin: string
  readonly answers: Map<string, Answer>
  /** How many requests each path has had. */
  readonly hits: Map<string, number>
  close(): Promise<void>
}

export async function startIcsServer(): Promise<IcsServer> {
  const answers = new Map<string, Answer>()
  const hits = new Map<string, number>()
  const sockets = new Set<Socket>()
  const server: Server = createServer(
    { key: fixture('server.key'), cert: fixture('server.crt') },
    (req, res) => {
      const path = req.url ?? '/'
      hits.set(path, (hits.get(path) ?? 0) + 1)
      const answer = answers.get(path) ?? { status: 404 }
      if (answer === 'hang') return
      if ('ics' in answer) return void res.writeHead(200, { 'content-type': 'text/calendar' }).end(answer.ics)
      if ('redirect' in answer) return void res.writeHead(302, { location: answer.redirect }).end()
      res.writeHead(answer.status).end()
    },
  )
  server.on('connection', (socket: Socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    origin: `https://127.0.0.1:${port}`,
    answers,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}

/** An iCalendar text with these events (UTC times, `YYYYMMDDTHHMMSSZ`), each line as given. */
export function ics(...events: string[][]): string {
  const body = events.map((lines, i) => ['BEGIN:VEVENT', `UID:e${i}@test`, ...lines, 'END:VEVENT'])
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//RefDesk tests//EN',
    ...body.flat(),
    'END:VCALENDAR',
  ].join('\r\n')
}
