// Claims and withdrawals, limited per person (domain/assignments/action-limits.ts): over the limit the action does not
// run and the page says so plainly, with 429 and when to try again.
import { ACTION_WINDOW_MS, admitAction } from '../domain/assignments/action-limits.js'
import type { WebContext } from './context.js'
import type { SignedInHandler } from './guards.js'

const TOO_MANY = {
  heading: 'Too many actions',
  text: 'You claimed or withdrew many times in the last minute. Wait a minute, then try again.',
}

/** The action, counted against the person's limit; over it, the 429 page instead. */
export function limitedAction(context: WebContext, handler: SignedInHandler): SignedInHandler {
  return async (request, reply, person) => {
    if (await admitAction(context.deps, person)) return handler(request, reply, person)
    reply.header('retry-after', String(ACTION_WINDOW_MS / 1000))
    return context.sendPage(request, reply, 'message', { status: 429, title: TOO_MANY.heading }, TOO_MANY)
  }
}
