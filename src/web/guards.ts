// The guards of the app's routes: who may open a page, and which path parameters may reach a service. Whether
// the person organizes or officiates in the league an id names is the domain's rule, checked inside the
// transaction of the action (domain/core/access.ts): routes pass the person as the caller and let a refusal
// answer Not found.
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { ErrorCode } from '../domain/core/errors.js'
import { ApiError } from '../domain/core/errors.js'
import type { Person } from '../domain/people/sessions.js'
import { isId } from './forms.js'
import { paths } from './paths.js'

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in person, resolved from the session cookie for every page; read it through `signedIn`. */
    person: Person | undefined
  }
  interface FastifyContextConfig {
    /** The route needs no session lookup (the stylesheet, the token-authenticated calendar feed). */
    anonymous?: boolean
    /** A POST authenticated by a token of its own that a mail client sends without a form (one-click unsubscribe). */
    noCsrf?: boolean
  }
}

export type SignedInHandler = (
  request: FastifyRequest,
  reply: FastifyReply,
  person: Person,
) => Promise<unknown>

/** A page or action of a signed-in person, who is handed to it; anyone else is sent to the sign-in page. */
export function signedIn(handler: SignedInHandler) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<unknown> => {
    const person = request.person
    if (!person) return reply.redirect(paths.home.href(), 303)
    return handler(request, reply, person)
  }
}

/** An id path parameter; anything not id-shaped is the given 404 before any query runs. */
export function idParam(request: FastifyRequest, name: string, missing: ErrorCode): string {
  const value = (request.params as Record<string, string | undefined>)[name] ?? ''
  if (!isId(value)) throw new ApiError(missing)
  return value
}
