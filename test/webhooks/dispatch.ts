// Starts in-process dispatchers over the test app's database with short, test-sized settings, and stops
// them after each test.
import { afterEach } from 'vitest'
import type { WebhookSettings } from '../../src/config.js'
import { parseAllowPrivate } from '../../src/webhooks/address-guard.js'
import { startDispatcher, type Dispatcher } from '../../src/webhooks/dispatcher.js'
import { parseRetrySchedule } from '../../src/webhooks/retry-schedule.js'
import { testDatabaseUrl, type TestApp } from '../helpers/app.js'
import { CA } from './receiver.js'

export const testSettings = (overrides: Partial<WebhookSettings> = {}): WebhookSettings => ({
  retrySchedule: parseRetrySchedule('0s,100ms,200ms'),
  timeoutMs: 2000,
  policy: parseAllowPrivate('127.0.0.0/8'),
  concurrency: 8,
  perEndpointConcurrency: 4,
  pollIntervalMs: 200,
  ...overrides,
})

export function useDispatchers(t: TestApp) {
  const running: Dispatcher[] = []
  afterEach(async () => {
    await Promise.all(running.splice(0).map((d) => d.stop(0)))
  })
  return async (overrides: Partial<WebhookSettings> = {}, leaseMs?: number): Promise<Dispatcher> => {
    const dispatcher = startDispatcher({
      db: t.deps.db,
      settings: testSettings(overrides),
      databaseUrl: await testDatabaseUrl(),
      ca: CA,
      ...(leaseMs !== undefined && { leaseMs }),
    })
    running.push(dispatcher)
    return dispatcher
  }
}
