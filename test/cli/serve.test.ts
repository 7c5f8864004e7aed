import { spawn } from 'node:child_process'
import http from 'node:http'
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { describe, expect, it } from 'vitest'
import { issueKey } from '../../src/domain/partners/api-keys.js'
import { uniqueSource } from '../helpers/app.js'
import { BIN, useCliDatabase } from '../helpers/cli.js'

interface Served {
  port: number
  logs: string[]
  /** Resolves once a log line contains `text`. */
  logged(text: string): Promise<void>
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  kill(signal: NodeJS.Signals): void
}

/** Starts `refdesk serve` and resolves once it logs where it listens. */
function serve(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Served> {
  const child = spawn(process.execPath, [BIN, 'serve', '--host', '127.0.0.1', '--port', '0', ...args], {
    cwd: options.cwd,
    env: { ...(options.env ?? process.env), LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const logs: string[] = []
  const waiters: { text: string; resolve: () => void }[] = []
  const logged = (text: string) =>
    new Promise<void>((resolve) => {
      if (logs.some((l) => l.includes(text))) resolve()
      else waiters.push({ text, resolve })
    })
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  )
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      logs.push(line)
      for (const w of waiters) if (line.includes(w.text)) w.resolve()
      const port = /"msg":"refdesk listening on http:\/\/127\.0\.0\.1:(\d+)"/.exec(line)?.[1]
      if (port) resolve({ port: Number(port), logs, logged, exit, kill: (signal) => child.kill(signal) })
    })
    void exit.then((status) =>
      reject(new Error(`serve exited early: ${JSON.stringify(status)}\n${logs.join('\n')}`)),
    )
  })
}

describe('refdesk serve', () => {
  const t = useCliDatabase()

  it('answers /healthz and the API, and exits 0 on SIGTERM after draining', async () => {
    const server = await serve(['--database', t.url, '--no-worker'])
    const base = `http://127.0.0.1:${server.port}`
    const health = await fetch(`${base}/healthz`)
    expect(health.status).toBe(200)
    expect(await health.json()).toEqual({ status: 'ok' })
    expect((await fetch(`${base}/readyz`)).status).toBe(200)

    const secret = `key_${'ab'.repeat(24)}`
    const denied = await fetch(`${base}/api/v1/leagues`, {
      headers: { authorization: `Bearer ${secret}`, cookie: 'session=s3cret' },
    })
    expect(denied.status).toBe(401)
    expect(denied.headers.get('request-id')).toMatch(/^req_/)

    server.kill('SIGTERM')
    expect(await server.exit).toEqual({ code: 0, signal: null })
    const logs = server.logs.join('\n')
    expect(logs).toContain('"reqId":"req_')
    expect(logs).toContain('shutting down')
    expect(logs).not.toContain(secret)
    expect(logs).not.toContain('s3cret')
  })

  it('finishes a request that is in flight when SIGTERM arrives', async () => {
    const runtime = await t.runtime()
    const { key } = await issueKey(runtime.deps, { source: uniqueSource('drain') })
    const server = await serve(['--database', t.url])
    const body = JSON.stringify({ name: 'Drained' })
    const request = http.request({
      host: '127.0.0.1',
      port: server.port,
      method: 'POST',
      path: '/api/v1/leagues',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
      },
    })
    const response = new Promise<{ status: number; connection: string | undefined; body: string }>(
      (resolve, reject) => {
        request.on('response', (res) => {
          let text = ''
          res.on('data', (chunk: Buffer) => (text += chunk.toString()))
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body: text }),
          )
        })
        request.on('error', reject)
      },
    )
    request.write(body.slice(0, 5))
    await server.logged('incoming request')
    server.kill('SIGTERM')
    await server.logged('shutting down')
    request.end(body.slice(5))
    const res = await response
    expect(res).toMatchObject({ status: 201, connection: 'close' })
    expect(JSON.parse(res.body).data).toMatchObject({ name: 'Drained' })
    expect(await server.exit).toEqual({ code: 0, signal: null })
  })

  it('exits 0 on SIGINT too', async () => {
    const server = await serve(['--database', t.url])
    server.kill('SIGINT')
    expect(await server.exit).toEqual({ code: 0, signal: null })
  })

  it('defaults to ./data/refdesk.sqlite, created on first start', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'refdesk-serve-'))
    try {
      const env = { ...process.env }
      delete env.DATABASE_URL
      const server = await serve([], { cwd, env })
      expect(existsSync(join(cwd, 'data', 'refdesk.sqlite'))).toBe(true)
      expect((await fetch(`http://127.0.0.1:${server.port}/healthz`)).status).toBe(200)
      server.kill('SIGTERM')
      expect((await server.exit).code).toBe(0)
    } finally {
      await rm(cwd, { recursive: true, force: true })
    }
  })
})
