// Slow clients over real sockets: a socket is closed once its headers, its request or its idleness outlast
// their time-outs, at once after an answer given before its body arrived, and beyond the connection cap.
// Time-outs are small here; each assertion only says the socket closed before a generous bound.
import { connect, type Socket } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { buildHttp, type App } from '../../src/app.js'
import { DEFAULT_HTTP_SETTINGS, type HttpSettings } from '../../src/http/settings.js'
import { useTestApp } from '../helpers/app.js'

const BOUND_MS = 10_000

interface Watched {
  socket: Socket
  answer: () => string
  closed: Promise<void>
  isClosed: () => boolean
}

const sockets: Socket[] = []

function open(port: number): Promise<Watched> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    sockets.push(socket)
    let answer = ''
    let closed = false
    socket.on('data', (chunk) => (answer += String(chunk)))
    socket.on('error', () => undefined)
    const done = new Promise<void>((r) => socket.on('close', () => ((closed = true), r())))
    socket.once('connect', () =>
      resolve({ socket, answer: () => answer, closed: done, isClosed: () => closed }),
    )
    socket.once('error', reject)
  })
}

/** Resolves when the socket closes; fails the test if it is still open after BOUND_MS. */
async function closesWithinBound(watched: Watched): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`socket still open after ${BOUND_MS} ms`)), BOUND_MS)
  })
  try {
    await Promise.race([watched.closed, late])
  } finally {
    clearTimeout(timer)
  }
}

/** Writes one byte every 50 ms until the socket closes. */
function trickle(watched: Watched, byte = 'x'): void {
  const timer = setInterval(() => {
    if (watched.isClosed() || watched.socket.destroyed) return clearInterval(timer)
    watched.socket.write(byte)
  }, 50)
  void watched.closed.then(() => clearInterval(timer))
}

describe('slow clients', () => {
  const t = useTestApp()
  let app: App | undefined
  afterEach(async () => {
    // A socket a failing test left open would hold close() up.
    for (const socket of sockets.splice(0)) socket.destroy()
    await app?.close()
    app = undefined
  })

  async function listen(settings: Partial<HttpSettings>): Promise<number> {
    app = await buildHttp(t.runtime, undefined, { http: { ...DEFAULT_HTTP_SETTINGS, ...settings } })
    await app.listen({ port: 0, host: '127.0.0.1' })
    return (app.server.address() as { port: number }).port
  }

  const slowPost = (authorization: string) =>
    `POST /api/v1/leagues HTTP/1.1\r\nHost: x\r\n${authorization}Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"name":"`

  it('closes the socket right after a 401 given before the body arrived', async () => {
    // Time-outs far past the bound: only the close after the early answer can end this socket.
    const port = await listen({ requestTimeoutMs: 120_000, headersTimeoutMs: 60_000 })
    const watched = await open(port)
    watched.socket.write(slowPost(''))
    trickle(watched)
    await closesWithinBound(watched)
    expect(watched.answer()).toMatch(/^HTTP\/1\.1 401 /)
    expect(watched.answer().toLowerCase()).toContain('connection: close')
    expect(watched.answer()).toContain('{"error":"unauthorized"}')
  })

  it('closes an authenticated request whose body outlasts the request time-out, unanswered', async () => {
    const port = await listen({ requestTimeoutMs: 500, headersTimeoutMs: 300 })
    const p = await t.partner()
    const watched = await open(port)
    watched.socket.write(slowPost(`Authorization: Bearer ${p.key}\r\n`))
    trickle(watched)
    await closesWithinBound(watched)
    expect(watched.answer()).not.toMatch(/^HTTP\/1\.1 2/)
    expect((await p.get('/leagues')).body.data).toEqual([])
  })

  it('closes a socket whose headers outlast the header time-out', async () => {
    const port = await listen({ requestTimeoutMs: 60_000, headersTimeoutMs: 300 })
    const watched = await open(port)
    watched.socket.write('GET /api/v1/leagues HTTP/1.1\r\nX-Slow: ')
    trickle(watched)
    await closesWithinBound(watched)
  })

  it('closes a socket that never sends anything, and a kept-alive one after its keep-alive time-out', async () => {
    const port = await listen({ idleTimeoutMs: 300, keepAliveTimeoutMs: 300 })
    const silent = await open(port)
    await closesWithinBound(silent)
    const kept = await open(port)
    kept.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n')
    await closesWithinBound(kept)
    expect(kept.answer()).toMatch(/^HTTP\/1\.1 200 /)
    expect(kept.answer().toLowerCase()).toContain('connection: keep-alive')
  })

  it('closes a connection past the cap at once, while those within it stay open', async () => {
    const port = await listen({ maxConnections: 3, idleTimeoutMs: 60_000, headersTimeoutMs: 30_000 })
    const held = [await open(port), await open(port), await open(port)]
    const extra = await open(port)
    await closesWithinBound(extra)
    expect(held.map((w) => w.isClosed())).toEqual([false, false, false])
  })
})
