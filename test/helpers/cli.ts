// Runs the built bin (`node dist/main.js`, built by global-setup) as a child process against a database
// the test can also open in process: a fresh SQLite file per test, or this file's PostgreSQL database.
import { execFile } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach } from 'vitest'
import { buildHttp, openRuntime, type Runtime } from '../../src/app.js'
import type { App } from '../../src/http/server.js'
import { openDatabase } from '../../src/store/database.js'
import { clientFor, TEST_WEBHOOK_POLICY, testDatabaseUrl, type Client } from './app.js'

export const BIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url))

export interface CliResult {
  code: number
  stdout: string
  stderr: string
}

/** Runs the bin with `env` over this process's environment (an `undefined` value unsets a variable). */
export function runBin(
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
  cwd?: string,
): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { env: { ...process.env, ...env }, ...(cwd !== undefined && { cwd }) },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0
        resolve({ code, stdout, stderr })
      },
    )
  })
}

export interface CliTest {
  /** `file:…` or `postgres://…`, shared by the bin and the in-process runtime. */
  url: string
  /** Runs `refdesk <args> --database <url>`. */
  run(...args: string[]): Promise<CliResult>
  /** The same database in process (opened on first use). */
  runtime(): Promise<Runtime>
  /** A partner client over the in-process app for the given key. */
  api(key: string): Promise<Client>
}

/**
 * A database per test. SQLite files are created and migrated up front, as `refdesk migrate` would, since
 * only serve and migrate create one; `{ existing: false }` leaves the path empty.
 */
export function useCliDatabase(options: { existing?: boolean } = {}): CliTest {
  let dir: string | undefined
  let runtime: Runtime | undefined
  let app: App | undefined
  const t = {} as CliTest
  beforeEach(async () => {
    if (process.env.TEST_DATABASE_URL) {
      t.url = await testDatabaseUrl()
    } else {
      dir = await mkdtemp(join(tmpdir(), 'refdesk-cli-'))
      t.url = `file:${join(dir, 'refdesk.sqlite')}`
      if (options.existing !== false) {
        const database = openDatabase(t.url)
        await database.migrate()
        await database.close()
      }
    }
  })
  afterEach(async () => {
    await app?.close()
    await runtime?.close()
    app = runtime = undefined
    if (dir) await rm(dir, { recursive: true, force: true })
    dir = undefined
  })
  t.run = (...args) => runBin([...args, '--database', t.url])
  t.runtime = async () => (runtime ??= await openRuntime(t.url, { webhookPolicy: TEST_WEBHOOK_POLICY }))
  t.api = async (key) => {
    app ??= await buildHttp(await t.runtime())
    return clientFor(app, `Bearer ${key}`)
  }
  return t
}

export const lastLine = (text: string): string => text.trimEnd().split('\n').at(-1) ?? ''
