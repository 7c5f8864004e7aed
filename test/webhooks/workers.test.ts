import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { issueKey } from '../../src/domain/partners/api-keys.js'
import { openDatabase, type Database } from '../../src/store/database.js'
import { startDispatcher, type Dispatcher } from '../../src/webhooks/dispatcher.js'
import { isPostgres, uniqueSource } from '../helpers/app.js'
import { BIN, runBin, useCliDatabase } from '../helpers/cli.js'
import { testSettings } from './dispatch.js'
import { CA, CA_PATH, startReceiver, type Receiver } from './receiver.js'
import { eventually } from '../helpers/eventually.js'

interface Worker {
  logged(text: string): Promise<void>
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  kill(signal: NodeJS.Signals): void
}

function worker(url: string, env: NodeJS.ProcessEnv): Worker {
  const child = spawn(process.execPath, [BIN, 'worker', '--database', url], {
    env: {
      ...process.env,
      LOG_LEVEL: 'info',
      NODE_EXTRA_CA_CERTS: CA_PATH,
      REFDESK_WEBHOOK_ALLOW_PRIVATE: '127.0.0.0/8',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const lines: string[] = []
  const waiters: { text: string; resolve: () => void }[] = []
  createInterface({ input: child.stdout }).on('line', (line) => {
    lines.push(line)
    for (const w of waiters) if (line.includes(w.text)) w.resolve()
  })
  return {
    logged: (text) =>
      new Promise((resolve) => {
        if (lines.some((l) => l.includes(text))) resolve()
        else waiters.push({ text, resolve })
      }),
    exit: new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal }))),
    kill: (signal) => child.kill(signal),
  }
}

describe('dispatchers sharing one database', () => {
  const t = useCliDatabase()
  let receiver: Receiver
  const started: Dispatcher[] = []
  const opened: Database[] = []
  beforeEach(async () => {
    receiver = await startReceiver()
  })
  afterEach(async () => {
    await Promise.all(started.splice(0).map((d) => d.stop(0)))
    await Promise.all(opened.splice(0).map((d) => d.close()))
    await receiver.close()
  })

  async function partnerWithEndpoint() {
    const runtime = await t.runtime()
    const issued = await issueKey(runtime.deps, { source: uniqueSource() })
    const api = await t.api(issued.key)
    const endpoint = (await api.post('/webhooks', { url: receiver.url })).body.data
    const league = (await api.post('/leagues', { name: 'L' })).body.data
    return { api, endpoint, league }
  }

  it('two dispatchers deliver every event exactly once', async () => {
    const { api, endpoint, league } = await partnerWithEndpoint()
    const runtime = await t.runtime()
    // On PostgreSQL each dispatcher gets its own pool, as separate processes would. One process never
    // opens a SQLite file twice (a synchronous busy wait would block the lock holder's own event loop).
    const second = isPostgres() ? openDatabase(t.url) : undefined
    if (second) opened.push(second)
    // A timeout no loaded machine misses: a timed-out attempt is retried (at least once, by design), which
    // is not what this test counts. Leases are renewed while attempts are out (issue 21, item 15).
    const settings = testSettings({ concurrency: 16, perEndpointConcurrency: 8, timeoutMs: 15_000 })
    for (const database of [runtime.database, second ?? runtime.database]) {
      started.push(startDispatcher({ database, settings, ca: CA }))
    }
    const games = Array.from({ length: 150 }, (_, i) => ({
      startsAt: new Date(Date.UTC(2026, 4, 1) + i * 3_600_000).toISOString(),
    }))
    expect((await api.post(`/leagues/${league.id}/games`, { games })).status).toBe(201)

    await receiver.waitForAccepted(150)
    await eventually(async () => {
      const rows = (await api.get(`/webhooks/${endpoint.id}/deliveries?limit=200`)).body.data
      expect(rows.filter((d: { status: string }) => d.status === 'succeeded')).toHaveLength(150)
    }, 50)
    await Promise.all(started.splice(0).map((d) => d.stop()))
    expect(receiver.received).toHaveLength(150)
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(150)
    const attempts = await runtime.deps.db.selectFrom('webhook_attempts').select('delivery_id').execute()
    expect(attempts).toHaveLength(150)
  })

  it('a worker killed mid-delivery loses nothing: the lease expires and the same webhook-id goes out again', async () => {
    const { api, endpoint } = await partnerWithEndpoint()
    receiver.script('hang')
    const killed = worker(t.url, {
      REFDESK_WEBHOOK_TIMEOUT_MS: '1000',
      REFDESK_WEBHOOK_RETRY_SCHEDULE: '0s,100ms',
    })
    await killed.logged('refdesk webhook worker started')
    const league = (await api.post('/leagues', { name: 'K' })).body.data
    await api.post(`/leagues/${league.id}/games`, { games: [{ startsAt: '2026-05-01T18:00:00Z' }] })
    await eventually(() => expect(receiver.received).toHaveLength(1))
    killed.kill('SIGKILL')
    expect((await killed.exit).signal).toBe('SIGKILL')

    const survivor = worker(t.url, { REFDESK_WEBHOOK_POLL_MS: '100' })
    try {
      const [redelivered] = await receiver.waitForAccepted(1)
      expect(redelivered!.headers['webhook-id']).toBe(receiver.received[0]!.headers['webhook-id'])
      await eventually(async () => {
        const [delivery] = (await api.get(`/webhooks/${endpoint.id}/deliveries`)).body.data
        expect(delivery).toMatchObject({ status: 'succeeded', lastStatusCode: 204 })
      })
    } finally {
      survivor.kill('SIGTERM')
      expect(await survivor.exit).toEqual({ code: 0, signal: null })
    }
  })

  it('SIGTERM lets an in-flight delivery finish, then exits 0', async () => {
    const { api, endpoint, league } = await partnerWithEndpoint()
    receiver.script('hang')
    const w = worker(t.url, {})
    await w.logged('refdesk webhook worker started')
    await api.post(`/leagues/${league.id}/games`, { games: [{ startsAt: '2026-05-01T18:00:00Z' }] })
    await eventually(() => expect(receiver.received).toHaveLength(1))
    w.kill('SIGTERM')
    await w.logged('shutting down')
    receiver.answerHung(200)
    expect(await w.exit).toEqual({ code: 0, signal: null })
    const [delivery] = (await api.get(`/webhooks/${endpoint.id}/deliveries`)).body.data
    expect(delivery).toMatchObject({ status: 'succeeded', attempts: 1, lastStatusCode: 200 })
  })

  it('stopping past the grace period aborts the attempt and releases its lease uncounted', async () => {
    const { api, endpoint, league } = await partnerWithEndpoint()
    receiver.script('hang')
    const runtime = await t.runtime()
    const dispatcher = startDispatcher({
      database: runtime.database,
      settings: testSettings(),
      ca: CA,
    })
    await api.post(`/leagues/${league.id}/games`, { games: [{ startsAt: '2026-05-01T18:00:00Z' }] })
    await eventually(() => expect(receiver.received).toHaveLength(1))
    await dispatcher.stop(0)
    const [delivery] = (await api.get(`/webhooks/${endpoint.id}/deliveries`)).body.data
    expect(delivery).toMatchObject({ status: 'pending', attempts: 0 })
    const row = await runtime.deps.db
      .selectFrom('webhook_deliveries')
      .select(['lease_owner', 'lease_until'])
      .executeTakeFirstOrThrow()
    expect(row).toEqual({ lease_owner: null, lease_until: null })
  })

  it('`refdesk serve` runs a dispatcher that its own API requests wake', async () => {
    const runtime = await t.runtime()
    const issued = await issueKey(runtime.deps, { source: uniqueSource() })
    const child = spawn(
      process.execPath,
      [BIN, 'serve', '--host', '127.0.0.1', '--port', '0', '--database', t.url],
      {
        env: {
          ...process.env,
          LOG_LEVEL: 'info',
          NODE_EXTRA_CA_CERTS: CA_PATH,
          REFDESK_WEBHOOK_ALLOW_PRIVATE: 'true',
          REFDESK_WEBHOOK_POLL_MS: '600000',
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    )
    const exit = new Promise((resolve) => child.on('exit', (code) => resolve(code)))
    try {
      const port = await new Promise<number>((resolve) =>
        createInterface({ input: child.stdout }).on('line', (line) => {
          const found = /"msg":"refdesk listening on http:\/\/127\.0\.0\.1:(\d+)"/.exec(line)?.[1]
          if (found) resolve(Number(found))
        }),
      )
      const call = (path: string, body: unknown) =>
        fetch(`http://127.0.0.1:${port}/api/v1${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${issued.key}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }).then((r) => r.json() as Promise<any>)
      // By name, so TLS is checked against the certificate's DNS name through NODE_EXTRA_CA_CERTS.
      await call('/webhooks', { url: receiver.url.replace('127.0.0.1', 'localhost') })
      // Registration follows REFDESK_WEBHOOK_ALLOW_PRIVATE too: a private literal passes, metadata never.
      const quiet = { events: ['payment.failed'] }
      expect((await call('/webhooks', { url: 'https://10.1.2.3/hook', ...quiet })).data.url).toBe(
        'https://10.1.2.3/hook',
      )
      expect(await call('/webhooks', { url: 'https://169.254.169.254/', ...quiet })).toEqual({
        error: 'https_url_required',
      })
      const league = (await call('/leagues', { name: 'S' })).data
      await call(`/leagues/${league.id}/games`, { games: [{ startsAt: '2026-05-01T18:00:00Z' }] })
      const [received] = await receiver.waitForAccepted(1)
      expect(received!.json.event).toBe('game.created')
    } finally {
      child.kill('SIGTERM')
      expect(await exit).toBe(0)
    }
  })

  it('documents the worker command and its environment', async () => {
    const help = await runBin(['worker', '--help'])
    expect(help.code).toBe(0)
    for (const text of [
      '--database',
      'REFDESK_WEBHOOK_RETRY_SCHEDULE',
      'REFDESK_WEBHOOK_TIMEOUT_MS',
      'REFDESK_WEBHOOK_ALLOW_PRIVATE',
      'NODE_EXTRA_CA_CERTS',
    ]) {
      expect(help.stdout).toContain(text)
    }
    expect((await runBin(['--help'])).stdout).toContain('worker')
  })

  it('a worker in another process picks up a commit: LISTEN/NOTIFY on PostgreSQL, polling on SQLite', async () => {
    const { api, endpoint, league } = await partnerWithEndpoint()
    // PostgreSQL: polling effectively off, so only NOTIFY can bring the delivery out in time. SQLite has
    // no cross-process signal: the fallback scan must find it.
    const w = worker(t.url, { REFDESK_WEBHOOK_POLL_MS: isPostgres() ? '600000' : '100' })
    try {
      await w.logged('refdesk webhook worker started')
      await new Promise((r) => setTimeout(r, 300))
      await api.post(`/leagues/${league.id}/games`, { games: [{ startsAt: '2026-05-01T18:00:00Z' }] })
      await receiver.waitForAccepted(1)
      await eventually(async () => {
        const [delivery] = (await api.get(`/webhooks/${endpoint.id}/deliveries`)).body.data
        expect(delivery).toMatchObject({ status: 'succeeded' })
      })
    } finally {
      w.kill('SIGTERM')
      await w.exit
    }
  })
})
