// Starts in-process dispatchers over the test app's database with short, test-sized settings, and stops
// them after each test.
import { afterEach } from 'vitest'
import type { Clock } from '../../src/clock.js'
import type { WebhookSettings } from '../../src/webhooks/settings.js'
import { startDispatcher, type Dispatcher } from '../../src/webhooks/dispatcher.js'
import { parseRetrySchedule } from '../../src/webhooks/retry-schedule.js'
import { TEST_WEBHOOK_POLICY, type TestApp } from '../helpers/app.js'
import { CA } from './receiver.js'

export const testSettings = (overrides: Partial<WebhookSettings> = {}): WebhookSettings => ({
  retrySchedule: parseRetrySchedule('0s,100ms,200ms'),
  timeoutMs: 2000,
  policy: TEST_WEBHOOK_POLICY,
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
  return async (
    overrides: Partial<WebhookSettings> = {},
    leaseMs?: number,
    clock?: Clock,
  ): Promise<Dispatcher> => {
    const dispatcher = startDispatcher({
      database: t.runtime.database,
      settings: testSettings(overrides),
      ca: CA,
      ...(leaseMs !== undefined && { leaseMs }),
      ...(clock !== undefined && { clock }),
    })
    running.push(dispatcher)
    return dispatcher
  }
}
