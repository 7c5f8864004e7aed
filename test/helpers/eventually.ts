// Waiting for work another task does (a delivery, a mail, a lease): poll until the check passes, bounded
// only just short of the test's own time-out. vi.waitFor's default of one second, or any guess of how long
// the work takes, fails on a loaded machine although nothing is wrong; the work's own failure still shows,
// as the last error of the check.
import { vi } from 'vitest'

const WITHIN_THE_TEST_MS = 50_000

export function eventually<T>(check: () => T | Promise<T>, interval = 20): Promise<T> {
  return vi.waitFor(check, { timeout: WITHIN_THE_TEST_MS, interval })
}
