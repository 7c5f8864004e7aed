// The pino options every RefDesk process logs with: JSON lines at the given level, credentials redacted
// whichever serializer ends up printing request or response headers.
import type { LoggerOptions } from 'pino'

const REDACTED = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
]

export function loggerOptions(level: string): LoggerOptions {
  return { level, redact: { paths: REDACTED, censor: '[redacted]' } }
}
