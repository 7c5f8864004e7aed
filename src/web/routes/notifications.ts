// Email settings: the Profile's checkbox per notification kind, and the one-click unsubscribe of every
// notification mail (RFC 8058). The unsubscribe address carries its token; opening it shows a page that
// asks first (a link checker or preview must not unsubscribe anyone), and a POST to it, the page's button
// or the mail client's `List-Unsubscribe=One-Click`, turns the kind off. That POST comes without a session
// or a CSRF token: the token itself is the proof, and it can do nothing but turn one kind off.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import {
  findUnsubscribe,
  setPreferences,
  unsubscribe,
} from '../../domain/notifications/notification-preferences.js'
import { NOTIFICATION_WORD } from '../../schemas/notifications.js'
import type { WebContext } from '../context.js'
import { queryString } from '../forms.js'
import { signedIn } from '../guards.js'
import { paths } from '../paths.js'

const BROKEN = {
  heading: 'This link does not work',
  text: 'It is not an unsubscribe link RefDesk sent. Change which emails you get on your Profile.',
}

/** The checked kinds of the Profile's form, whatever shape the body has. */
function checked(request: FastifyRequest): string[] {
  const value = (request.body as Record<string, unknown> | undefined)?.kind
  const values = Array.isArray(value) ? value : [value]
  return values.filter((v): v is string => typeof v === 'string')
}

export function notificationRoutes(app: FastifyInstance, { deps, sendPage }: WebContext): void {
  app.post(
    paths.emailSettings.pattern,
    signedIn(async (request, reply, person) => {
      await setPreferences(deps, person, checked(request))
      return reply.redirect(paths.profile.href({ notice: 'saved' }), 303)
    }),
  )

  const page = async (request: FastifyRequest, reply: FastifyReply, done: boolean) => {
    const token = queryString(request, 'token')
    const found = done ? await unsubscribe(deps, token) : await findUnsubscribe(deps, token)
    if (!found || token === undefined)
      return sendPage(request, reply, 'message', { status: 404, title: BROKEN.heading }, BROKEN)
    const word = NOTIFICATION_WORD[found.kind]
    const data = { token, email: found.email, word, done }
    return sendPage(request, reply, 'unsubscribe', { title: `Stop ${word} emails` }, data)
  }
  app.get(paths.unsubscribe.pattern, { config: { anonymous: true } }, (request, reply) =>
    page(request, reply, false),
  )
  app.post(paths.unsubscribe.pattern, { config: { anonymous: true, noCsrf: true } }, (request, reply) =>
    page(request, reply, true),
  )
}
