// The built bin as real processes for the crash and multi-process tests: `serve`, `worker` and
// `keys issue` spawned like test/helpers/cli.ts does, logging at debug level into the run's logs, plus a
// small HTTP client that turns a dropped connection into status 0 (an answer that acknowledges nothing).
import { spawn, type ChildProcess } from 'node:child_process'
import { createWriteStream } from 'node:fs'
import { Agent, fetch } from 'undici'
import { BIN } from '../../test/helpers/cli.js'
import { DEBUG_ENV, logFile, rememberSecrets } from '../lib/logs.js'

export interface Proc {
  readonly child: ChildProcess
  /** Resolves with the first stdout line matching `pattern`'s first group. */
  waitFor(pattern: RegExp): Promise<string>
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  kill(signal: NodeJS.Signals): void
}

function start(name: string, args: string[], env: NodeJS.ProcessEnv): Proc {
  const child = spawn(process.execPath, [BIN, ...args], {
    // These processes are driven hard by a few keys from one address: the rate limit is not under test.
    env: { ...process.env, ...DEBUG_ENV, REFDESK_RATE_LIMIT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const log = createWriteStream(logFile(name))
  child.stdout!.pipe(log, { end: false })
  child.stderr!.pipe(log, { end: false })
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => {
      log.end()
      resolve({ code, signal })
    }),
  )
  // Only the first lines are searched (start-up messages); the rest just streams into the log file.
  let head = ''
  const waiters: { pattern: RegExp; resolve: (v: string) => void; reject: (e: Error) => void }[] = []
  const scan = (chunk: Buffer) => {
    head += chunk.toString('utf8')
    for (const w of [...waiters]) {
      const found = w.pattern.exec(head)
      if (found) {
        waiters.splice(waiters.indexOf(w), 1)
        w.resolve(found[1] ?? found[0])
      }
    }
    if (waiters.length === 0 || head.length > 1_000_000) child.stdout!.off('data', scan)
  }
  void exit.then((status) => {
    for (const w of waiters.splice(0))
      w.reject(new Error(`${name} exited before ${String(w.pattern)}: ${JSON.stringify(status)}`))
  })
  return {
    child,
    exit,
    kill: (signal) => void child.kill(signal),
    waitFor: (pattern) =>
      new Promise((resolve, reject) => {
        const found = pattern.exec(head)
        if (found) return resolve(found[1] ?? found[0])
        if (child.exitCode !== null || child.signalCode !== null)
          return reject(new Error(`${name} already exited`))
        waiters.push({ pattern, resolve, reject })
        if (waiters.length === 1) child.stdout!.on('data', scan)
      }),
  }
}

export interface Server extends Proc {
  base: string
}

/** `refdesk serve` on a free port of 127.0.0.1; resolves once it listens. */
export async function startServe(
  url: string,
  options: { worker?: boolean; env?: NodeJS.ProcessEnv } = {},
): Promise<Server> {
  const args = ['serve', '--host', '127.0.0.1', '--port', '0', '--database', url]
  if (options.worker === false) args.push('--no-worker')
  const proc = start('serve', args, options.env ?? {})
  const port = await proc.waitFor(/"msg":"refdesk listening on http:\/\/127\.0\.0\.1:(\d+)"/)
  return { ...proc, base: `http://127.0.0.1:${port}/api/v1` }
}

export interface Worker extends Proc {
  /** The dispatcher's lease owner, as written into webhook_deliveries.lease_owner. */
  owner: string
}

/** `refdesk worker`; resolves once its dispatcher runs. */
export async function startWorker(url: string, env: NodeJS.ProcessEnv = {}): Promise<Worker> {
  const proc = start('worker', ['worker', '--database', url], env)
  const owner = await proc.waitFor(/"owner":"([^"]+)"[^\n]*"msg":"refdesk webhook worker started"/)
  return { ...proc, owner }
}

/** `refdesk keys issue`; the key is remembered for the secrets scan and kept out of the log file. */
export async function issueKeyByBin(url: string, source: string): Promise<string> {
  const child = spawn(process.execPath, [BIN, 'keys', 'issue', '--source', source, '--database', url], {
    env: { ...process.env, ...DEBUG_ENV },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const log = createWriteStream(logFile('keys-issue'))
  child.stderr.pipe(log)
  let stdout = ''
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')))
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
  const lines = stdout.trimEnd().split('\n')
  const key = lines.pop() ?? ''
  log.write(lines.join('\n') + '\n')
  if (code !== 0 || !/^key_[0-9a-f]{48}$/.test(key)) throw new Error(`keys issue failed (${code})`)
  rememberSecrets(key)
  return key
}

export interface Answer<T = any> {
  /** 0 when the connection dropped before an answer (the process died): nothing acknowledged. */
  status: number
  body: T
}

// Own connection pool per test file, so connections to a killed process are never reused.
const agent = new Agent({ connections: 128, pipelining: 0 })

export async function call<T = any>(
  base: string,
  key: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<Answer<T>> {
  try {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      ...(body !== undefined && { body: JSON.stringify(body) }),
      dispatcher: agent,
      signal: AbortSignal.timeout(60_000),
    })
    const text = await res.text()
    return { status: res.status, body: text ? JSON.parse(text) : undefined }
  } catch {
    return { status: 0, body: undefined as T }
  }
}
