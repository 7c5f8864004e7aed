// The one-click unsubscribe of every notification mail (RFC 8058); the Profile has the checkbox per kind.
// The unsubscribe address carries its token; opening it shows a page that asks first (a link checker or
// preview must not unsubscribe anyone), and a POST to it, the page's button or the mail client's
// `List-Unsubscribe=One-Click`, turns the kind off. That POST comes without a session or a CSRF token: the
// token itself is the proof, and it can do nothing but turn one kind off.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { findUnsubscribe, unsubscribe } from '../../domain/notifications/notification-preferences.js'
import { NOTIFICATION_WORD } from '../../schemas/notifications.js'
import type { WebContext } from '../context.js'
import { queryString } from '../forms.js'
import { paths } from '../paths.js'

const BROKEN = {
  heading: 'This link does not work',
  text: 'It is not an unsubscribe link RefDesk sent. Change which emails you get on your Profile.',
}

export function unsubscribeRoutes(app: FastifyInstance, { deps, sendPage }: WebContext): void {
  const page = async (request: FastifyRequest, reply: FastifyReply, done: boolean) => {
    const token = queryString(request, 'token')
    const found = done ? await unsubscribe(deps, token) : await findUnsubscribe(deps, token)
    if (!found || token === undefined)
      return sendPage(request, reply, 'message', { status: 404, title: BROKEN.heading }, BROKEN)
    const all = found.kind === 'all'
    const word = found.kind === 'all' ? '' : NOTIFICATION_WORD[found.kind]
    const data = { token, email: found.email, word, all, done }
    const title = all ? 'Stop all mail' : `Stop ${word} emails`
    return sendPage(request, reply, 'unsubscribe', { title }, data)
  }
  app.get(paths.unsubscribe.pattern, { config: { anonymous: true } }, (request, reply) =>
    page(request, reply, false),
  )
  app.post(paths.unsubscribe.pattern, { config: { anonymous: true, noCsrf: true } }, (request, reply) =>
    page(request, reply, true),
  )
}
