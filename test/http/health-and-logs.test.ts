import { Writable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { buildHttp, openRuntime } from '../../src/app.js'
import { issueKey } from '../../src/domain/partners/api-keys.js'
import { isPostgres, testDatabaseUrl, uniqueSource, useTestApp } from '../helpers/app.js'

describe('health checks, request ids and logs', () => {
  const t = useTestApp()

  it('healthz and readyz answer without a key', async () => {
    for (const url of ['/healthz', '/readyz']) {
      const res = await t.app.inject({ url })
      expect(res.statusCode).toBe(200)
      expect(res.json()).toEqual({ status: 'ok' })
    }
  })

  it('readyz answers 503 when the database is unreachable', async () => {
    // PostgreSQL: nothing listens on port 1. SQLite: the file handle is closed under the app.
    const url = isPostgres() ? 'postgres://postgres@127.0.0.1:1/none' : await testDatabaseUrl()
    const runtime = await openRuntime(url, { migrate: false })
    const app = await buildHttp(runtime)
    if (!isPostgres()) await runtime.close()
    const res = await app.inject({ url: '/readyz' })
    expect(res.statusCode).toBe(503)
    expect(res.json()).toEqual({ status: 'unavailable' })
    await app.close()
    if (isPostgres()) await runtime.close()
  })

  it('every response carries a Request-Id; a sane incoming one is kept', async () => {
    const p = await t.partner()
    const ok = await t.app.inject({ url: '/api/v1/leagues', headers: { authorization: `Bearer ${p.key}` } })
    expect(ok.headers['request-id']).toMatch(/^req_[0-9a-f-]{36}$/)
    const unauthorized = await t.app.inject({ url: '/api/v1/leagues' })
    expect(unauthorized.headers['request-id']).toMatch(/^req_/)
    const notFound = await t.app.inject({ url: '/nowhere' })
    expect(notFound.headers['request-id']).toMatch(/^req_/)
    const mine = await t.app.inject({ url: '/healthz', headers: { 'request-id': 'partner-trace.42' } })
    expect(mine.headers['request-id']).toBe('partner-trace.42')
    const hostile = await t.app.inject({ url: '/healthz', headers: { 'request-id': 'a b<script>' } })
    expect(hostile.headers['request-id']).toMatch(/^req_/)
  })

  it('logs are structured, carry the request id and never the key', async () => {
    const lines: string[] = []
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(...String(chunk).split('\n').filter(Boolean))
        done()
      },
    })
    const runtime = await openRuntime(await testDatabaseUrl(), { migrate: !isPostgres() })
    const app = await buildHttp(runtime, { level: 'trace', stream })
    const { key } = await issueKey(runtime.deps, { source: uniqueSource() })
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/leagues',
      headers: { authorization: `Bearer ${key}` },
      payload: { name: 'Logged' },
    })
    await app.inject({ url: '/api/v1/leagues', headers: { authorization: `Bearer ${key}x` } })
    await app.close()
    await runtime.close()
    const requestId = res.headers['request-id'] as string
    const entries = lines.map((line) => JSON.parse(line) as { reqId?: string })
    expect(entries.filter((e) => e.reqId === requestId).length).toBeGreaterThanOrEqual(2)
    expect(lines.join('\n')).not.toContain(key.slice(4))
    expect(lines.join('\n').toLowerCase()).not.toContain('bearer')
  })
})
