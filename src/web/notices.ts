// What a page says after an action, and the one way an action answers: a 303 to where the person goes next,
// or back to where they came from with the notice of the domain's refusal (a lost race, a state that moved
// on). A refusal the action does not name, a 404 among them, propagates to the error page.
import type { FastifyReply, FastifyRequest } from 'fastify'
import { ApiError, type ErrorCode } from '../domain/core/errors.js'
import { queryString } from './forms.js'
import type { Notice } from './pages.js'

/** A page's notices by code: the code travels in the address (`?notice=code`), never the text. */
export type Notices<C extends string> = Readonly<Record<C, Notice>>

/** The refusals of the domain an action expects, as the notice each shows. */
export type Refusals<C extends string> = Readonly<Partial<Record<ErrorCode, C>>>

/** The notice the address names, if it is one of the page's. */
export function noticeOf<C extends string>(request: FastifyRequest, notices: Notices<C>): Notice | undefined {
  const code = queryString(request, 'notice')
  return code !== undefined && Object.hasOwn(notices, code) ? notices[code as C] : undefined
}

export interface ActionOutcome<T, C extends string> {
  /** Where a success goes, notice included. */
  readonly done: (result: T) => string
  /** Where a refusal goes, with its notice. */
  readonly back: (notice: C) => string
  readonly refusals: Refusals<C>
}

/** Runs a state change and redirects (303) by its outcome; see the module header. */
export async function act<T, C extends string>(
  reply: FastifyReply,
  action: () => Promise<T>,
  outcome: ActionOutcome<T, C>,
): Promise<FastifyReply> {
  let result: T
  try {
    result = await action()
  } catch (error) {
    const notice = error instanceof ApiError ? outcome.refusals[error.code] : undefined
    if (notice === undefined) throw error
    return reply.redirect(outcome.back(notice), 303)
  }
  return reply.redirect(outcome.done(result), 303)
}
