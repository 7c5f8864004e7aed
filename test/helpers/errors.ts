// For service-level tests: the code a refused call answers with.
import { expect } from 'vitest'
import { ApiError } from '../../src/domain/core/errors.js'

/** Awaits a call that must be refused, and returns its error code. */
export async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(ApiError)
  return (error as ApiError).code
}
