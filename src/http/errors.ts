// The one error handler. Tier 1: ApiError → its status and code. Tier 2: Fastify's own client errors
// mapped to spec codes, so Fastify's 413/415 and its error shape never reach a partner. Tier 3: a fault,
// logged with the request id and answered with a plain 500.
import type { Socket } from 'node:net'
import type { FastifyError, FastifyInstance } from 'fastify'
import { ApiError } from '../domain/core/errors.js'
import { answerError } from '../operations/answer.js'

function clientErrorFor(error: FastifyError): ApiError | undefined {
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return new ApiError('body_too_large')
  if (error.code?.startsWith('FST_ERR_CTP_') || error instanceof SyntaxError)
    return new ApiError('invalid_json')
  if (error.statusCode === 404 || error.code === 'FST_ERR_BAD_URL') return new ApiError('not_found')
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
    return new ApiError('invalid_json')
  }
  return undefined
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const apiError = error instanceof ApiError ? error : clientErrorFor(error)
    const { status, body } = answerError(apiError ?? error, request.log)
    // RFC 6750: a 401 names the scheme it wants; MCP clients read it to tell a bad key from a bad URL.
    if (status === 401) reply.header('www-authenticate', 'Bearer realm="refdesk"')
    return reply.status(status).send(body)
  })
  app.setNotFoundHandler((_request, reply) => reply.status(404).send(new ApiError('not_found').body))
}

/**
 * Node's client errors, raised before there is a request to route (a request line or headers it cannot
 * parse, headers over its limit, a request not received within the time-out). The answer is the API's
 * `{"error":"<code>"}` with 400, and the socket is closed: what follows on it cannot be trusted. A request
 * that timed out gets no answer, only the close, as the network failure it is for the client.
 */
export function answerClientError(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return
  this.log.debug({ err: { code: error.code, message: error.message } }, 'client error')
  if (error.code !== 'ERR_HTTP_REQUEST_TIMEOUT' && socket.writable) {
    const { body } = new ApiError(
      error.code === 'HPE_HEADER_OVERFLOW' ? 'headers_too_large' : 'invalid_request',
    )
    const text = JSON.stringify(body)
    socket.write(
      `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${text}`,
    )
  }
  socket.destroy()
}
