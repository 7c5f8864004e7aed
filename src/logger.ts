// The pino options every RefDesk process logs with: JSON lines at the given level, credentials redacted
// whichever serializer ends up printing request or response headers.
import type { FastifyRequest } from 'fastify'
import type { LoggerOptions } from 'pino'

const REDACTED = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
]

// Secrets end up in URLs: the app's sign-in and calendar-feed tokens, and a partner key or webhook secret
// pasted into a query string (`?api_key=key_…`) or a path. A logged URL keeps its path and the names of
// its query parameters, never their values, and any key_/sec_ token in the path is masked.
const TOKEN = /\b(key|sec)_[0-9A-Za-z]+/g

export function loggedUrl(url: string): string {
  const at = url.indexOf('?')
  const path = (at === -1 ? url : url.slice(0, at)).replace(TOKEN, '$1_[redacted]')
  if (at === -1) return path
  const names = url
    .slice(at + 1)
    .split('&')
    .filter((pair) => pair !== '')
    .map((pair) => `${pair.split('=', 1)[0]!.replace(TOKEN, '$1_[redacted]')}=[redacted]`)
  return `${path}?${names.join('&')}`
}

export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: { paths: REDACTED, censor: '[redacted]' },
    serializers: {
      // Fastify's own request serializer, but for the URL.
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: loggedUrl(request.url),
        host: request.host,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
    },
  }
}
