// The HTTP edge: what every answer carries, and what arrives before any route (a bearer scheme in any
// case, ids longer than a router would take, HTTP Node cannot parse, query strings in the log).
import { connect } from 'node:net'
import { Writable } from 'node:stream'
import { afterEach, describe, expect, it } from 'vitest'
import { buildHttp, openRuntime, type App } from '../../src/app.js'
import { issueKey } from '../../src/domain/partners/api-keys.js'
import { loggedUrl, loggerOptions } from '../../src/logger.js'
import { isPostgres, testDatabaseUrl, uniqueSource, useTestApp } from '../helpers/app.js'

/** Sends raw bytes to the listening app; resolves with everything it answered once it closes. */
function rawExchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    let answer = ''
    socket.on('data', (chunk) => (answer += String(chunk)))
    socket.on('close', () => resolve(answer))
    socket.on('error', reject)
    socket.write(request)
  })
}

const bodyOf = (answer: string) => answer.slice(answer.indexOf('\r\n\r\n') + 4)

describe('the HTTP edge', () => {
  const t = useTestApp()
  let listening: App | undefined
  afterEach(async () => {
    await listening?.close()
    listening = undefined
  })

  async function port(): Promise<number> {
    listening = await buildHttp(t.runtime)
    await listening.listen({ port: 0, host: '127.0.0.1' })
    return (listening.server.address() as { port: number }).port
  }

  it.each(['bearer', 'BEARER', 'bEaReR'])(
    'accepts the %s scheme: auth schemes are case-insensitive',
    async (scheme) => {
      const p = await t.partner()
      expect((await t.client(`${scheme} ${p.key}`).get('/leagues')).status).toBe(200)
    },
  )

  it('marks every /api/v1 answer no-store, refusals and unknown paths included, and nothing else', async () => {
    const p = await t.partner()
    const answers = [
      await p.get('/leagues'),
      await p.post('/leagues', { name: 'Cached?' }),
      await t.client().get('/leagues'),
      await p.get('/leagues/nope'),
      await p.get('/no-such-thing'),
      await t.client().get('/openapi.json'),
    ]
    for (const answer of answers) expect(answer.headers['cache-control']).toBe('no-store')
    const health = await t.app.inject({ url: '/healthz' })
    expect(health.headers['cache-control']).toBeUndefined()
  })

  it.each<[string, string, 'GET' | 'DELETE']>([
    ['/leagues', 'league_not_found', 'GET'],
    ['/leagues/{id}/games', 'league_not_found', 'GET'],
    ['/games', 'game_not_found', 'GET'],
    ['/webhooks', 'endpoint_not_found', 'DELETE'],
  ])('an id of 2,000 characters in %s answers its resource’s code', async (path, code, method) => {
    const p = await t.partner()
    const id = 'x'.repeat(2000)
    const url = path.includes('{id}') ? path.replace('{id}', id) : `${path}/${id}`
    const res = method === 'GET' ? await p.get(url) : await p.delete(url)
    expect(res).toMatchObject({ status: 404, body: { error: code } })
  })

  it.each([
    [
      'a header over Node’s limit',
      `GET /api/v1/leagues HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      'headers_too_large',
    ],
    ['a request line that is not HTTP', 'HELLO THERE\r\n\r\n', 'invalid_request'],
    ['a malformed header', 'GET /api/v1/leagues HTTP/1.1\r\nHost x\r\n\r\n', 'invalid_request'],
    [
      'a bad Content-Length',
      'POST /api/v1/leagues HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n',
      'invalid_request',
    ],
  ])('%s → 400 with its code, and the socket closed', async (_label, request, code) => {
    const answer = await rawExchange(await port(), request)
    expect(answer).toMatch(/^HTTP\/1\.1 400 /)
    expect(JSON.parse(bodyOf(answer))).toEqual({ error: code })
  })

  it('a URL that cannot be decoded → 404 not_found in the API’s shape', async () => {
    const p = await t.partner()
    expect(await p.get('/leagues/%E0%A4%A')).toMatchObject({ status: 404, body: { error: 'not_found' } })
  })

  it('never writes a query string’s values, nor a key or secret in a path, to the log', async () => {
    const lines: string[] = []
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk))
        done()
      },
    })
    const runtime = await openRuntime(await testDatabaseUrl(), { migrate: !isPostgres() })
    // The options `refdesk serve` logs with.
    const app = await buildHttp(runtime, { ...loggerOptions('trace'), stream })
    try {
      const { key } = await issueKey(runtime.deps, { source: uniqueSource() })
      const secret = `sec_${'5'.repeat(48)}`
      const urls = [
        `/api/v1/leagues?api_key=${key}`,
        `/api/v1/no-such-route?api_key=${key}`,
        `/api/v1/leagues/${key}?x=${secret}`,
        `/api/v1/webhooks/${secret}`,
        `/app/?token=${key}`,
        `/healthz?api_key=${key}`,
        `/api/v1/leagues/%E0%A4%A?api_key=${key}`,
      ]
      for (const url of urls) {
        await app.inject({ url, headers: { authorization: `Bearer ${key}` } })
        await app.inject({ url })
      }
      const log = lines.join('')
      expect(log).toContain('api_key=[redacted]')
      expect(log).not.toContain(key.slice(4))
      expect(log).not.toContain(secret.slice(4))
    } finally {
      await app.close()
      await runtime.close()
    }
  })

  it('logs a URL with its path and its query parameters’ names only', () => {
    expect(loggedUrl('/api/v1/games/g1/assign?positionId=p1&x')).toBe(
      '/api/v1/games/g1/assign?positionId=[redacted]&x=[redacted]',
    )
    expect(loggedUrl('/api/v1/leagues/key_abc123/games')).toBe('/api/v1/leagues/key_[redacted]/games')
    expect(loggedUrl('/api/v1/leagues')).toBe('/api/v1/leagues')
  })
})
