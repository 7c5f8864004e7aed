// What the CLI prints. Records go to stdout as JSON; failures go to stderr and set exit code 1. A domain
// refusal prints the same `{"error":"<code>"}` body the API would answer, so scripts can branch on it.
import { ConfigError, logLevelFrom } from '../config.js'
import { KeyCommandError } from '../domain/partners/api-keys.js'
import { ApiError } from '../domain/core/errors.js'

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`)
}

export function printLine(line: string): void {
  process.stdout.write(`${line}\n`)
}

export function reportFailure(error: unknown): void {
  process.exitCode = 1
  if (error instanceof ApiError) {
    process.stderr.write(`${JSON.stringify(error.body)}\n`)
  } else if (error instanceof KeyCommandError || error instanceof ConfigError) {
    process.stderr.write(`refdesk: ${error.message}\n`)
  } else {
    process.stderr.write(`refdesk: ${explain(error)}\n`)
  }
}

/** The message and its causes (a failed migration wraps ECONNREFUSED); stack traces at LOG_LEVEL=debug. */
function explain(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const verbose = ['debug', 'trace'].includes(logLevelFrom())
  const text = verbose ? (error.stack ?? error.message) : error.message
  return error.cause === undefined ? text : `${text}\n  caused by: ${explain(error.cause)}`
}
