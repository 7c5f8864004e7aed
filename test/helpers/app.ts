// buildTestApp(): a migrated database (fresh in-memory SQLite per test, or this file's PostgreSQL clone),
// the HTTP app, and partner clients with keys of their own fresh source, so tests never see each other.
import { randomBytes } from 'node:crypto'
import type { FastifyServerOptions, LightMyRequestResponse } from 'fastify'
import { afterEach, beforeEach, expect } from 'vitest'
import { buildHttp, openRuntime, type HttpOptions, type Runtime } from '../../src/app.js'
import type { Clock } from '../../src/clock.js'
import { issueKey, type IssuedKey } from '../../src/domain/partners/api-keys.js'
import { DEFAULT_LIMITS, type Deps, type Limits } from '../../src/domain/core/deps.js'
import type { App } from '../../src/http/server.js'
import { DEFAULT_HTTP_SETTINGS } from '../../src/http/settings.js'
import { parseAllowPrivate, type AddressPolicy } from '../../src/net/address-guard.js'
import { cloneTemplate } from './pg.js'

// Keyed by test file: a worker runs several files in one module graph (vitest.config.ts, isolate: false).
const fileDatabases = new Map<string, Promise<string>>()

/** SQLite by default; with TEST_DATABASE_URL, one PostgreSQL database per test file. */
export function testDatabaseUrl(): Promise<string> {
  const base = process.env.TEST_DATABASE_URL
  if (!base) return Promise.resolve('file::memory:')
  const file = expect.getState().testPath ?? ''
  let database = fileDatabases.get(file)
  if (!database) {
    database = cloneTemplate(base)
    fileDatabases.set(file, database)
  }
  return database
}

export const isPostgres = (): boolean => Boolean(process.env.TEST_DATABASE_URL)

export const uniqueSource = (prefix = 'src'): string => `${prefix}-${randomBytes(5).toString('hex')}`

export interface Reply<T = any> {
  status: number
  body: T
  headers: LightMyRequestResponse['headers']
}

export interface Client {
  get<T = any>(path: string): Promise<Reply<T>>
  post<T = any>(path: string, body?: unknown): Promise<Reply<T>>
  patch<T = any>(path: string, body?: unknown): Promise<Reply<T>>
  delete<T = any>(path: string, body?: unknown): Promise<Reply<T>>
}

export type Partner = IssuedKey & Client

export interface TestApp {
  app: App
  runtime: Runtime
  deps: Deps
  /** A new key for a new (or the given) source, with a client bound to it. */
  partner(options?: { source?: string; organizerExternalId?: string }): Promise<Partner>
  /** A client sending the given raw Authorization header (or none). */
  client(authorization?: string): Client
  close(): Promise<void>
}

function toReply(res: LightMyRequestResponse): Reply {
  let body: unknown = res.body
  try {
    body = res.json()
  } catch {
    // Non-JSON bodies stay as text so a test can assert on them.
  }
  return { status: res.statusCode, body, headers: res.headers }
}

export function clientFor(app: App, authorization?: string): Client {
  const send = async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown) =>
    toReply(
      await app.inject({
        method,
        url: `/api/v1${path}`,
        headers: authorization === undefined ? {} : { authorization },
        ...(body !== undefined && { payload: body as object }),
      }),
    )
  return {
    get: (path) => send('GET', path),
    post: (path, body) => send('POST', path, body),
    patch: (path, body) => send('PATCH', path, body),
    delete: (path, body) => send('DELETE', path, body),
  }
}

/** What test dispatchers deliver to (test/webhooks/dispatch.ts): the local receivers on 127.0.0.1. */
export const TEST_WEBHOOK_POLICY: AddressPolicy = parseAllowPrivate('127.0.0.0/8')

export async function buildTestApp(
  options: {
    logger?: FastifyServerOptions['logger']
    http?: HttpOptions
    webhookPolicy?: AddressPolicy
    clock?: Clock
    /** Another database than the test's own (a SQLite file, say); migrated when it is SQLite. */
    databaseUrl?: string
    snapshotPageSize?: number
    /** Bounds lowered so that the smallest data reaches them. */
    limits?: Partial<Limits>
  } = {},
): Promise<TestApp> {
  const databaseUrl = options.databaseUrl ?? (await testDatabaseUrl())
  const runtime = await openRuntime(databaseUrl, {
    migrate: !databaseUrl.startsWith('postgres'),
    webhookPolicy: options.webhookPolicy ?? TEST_WEBHOOK_POLICY,
    ...(options.clock !== undefined && { clock: options.clock }),
    ...(options.snapshotPageSize !== undefined && { snapshotPageSize: options.snapshotPageSize }),
    ...(options.limits !== undefined && { limits: { ...DEFAULT_LIMITS, ...options.limits } }),
  })
  // No rate limit unless a test sets one: a file's partners make many requests, and all come from one
  // address, which the limit of unknown keys counts (test/http/rate-limit.test.ts sets its own).
  const app = await buildHttp(runtime, options.logger, {
    http: { ...DEFAULT_HTTP_SETTINGS, rateLimitPerSecond: 0 },
    ...options.http,
  })
  await app.ready()
  return {
    app,
    runtime,
    deps: runtime.deps,
    async partner(options = {}) {
      const issued = await issueKey(runtime.deps, {
        source: options.source ?? uniqueSource(),
        ...(options.organizerExternalId !== undefined && {
          organizerExternalId: options.organizerExternalId,
        }),
      })
      return { ...issued, ...clientFor(app, `Bearer ${issued.key}`) }
    },
    client: (authorization) => clientFor(app, authorization),
    async close() {
      await app.close()
      await runtime.close()
    },
  }
}

/** Registers beforeEach/afterEach hooks; the returned object is filled before every test. */
export function useTestApp(options: Parameters<typeof buildTestApp>[0] = {}): TestApp {
  const t = {} as TestApp
  beforeEach(async () => {
    Object.assign(t, await buildTestApp(options))
  })
  afterEach(async () => {
    await t.close()
  })
  return t
}
