// Sign-in by email link, and sign-out. The emailed link opens a page whose button redeems it: mail scanners
// that fetch links must not use them up, so the GET only looks and the POST signs in.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import {
  admitSignInRequest,
  isLiveSignInLink,
  makeSignInLink,
  normalizeEmail,
  redeemSignInLink,
} from '../../domain/people/sign-in-links.js'
import { endAllSessions, endSession } from '../../domain/people/sessions.js'
import type { WebContext } from '../context.js'
import { field, queryString } from '../forms.js'
import { signedIn } from '../guards.js'
import { signInMessage } from '../mail.js'
import { paths } from '../paths.js'

export function signInRoutes(app: FastifyInstance, context: WebContext): void {
  const { deps, settings, mailer, sendPage } = context
  const mailEnabled = mailer !== undefined

  const signInPage = (request: FastifyRequest, reply: FastifyReply, email = '', error?: string) =>
    sendPage(
      request,
      reply,
      'sign-in',
      { title: 'Sign in', status: error ? 400 : 200 },
      { email, error, mailEnabled },
    )

  app.post(paths.signIn.pattern, async (request, reply) => {
    const given = field(request, 'email')
    const email = normalizeEmail(given)
    if (email === undefined) {
      return signInPage(request, reply, given, 'Enter your email address, for example name@example.com.')
    }
    let limited = false
    if (mailer) {
      limited = !(await admitSignInRequest(deps, { client: request.ip, limits: settings.signInLimits }))
      // Whether the address has an account is looked up only after the answer is out: the answer, and how
      // long it takes, are the same for every address. The failure is logged by code only: a mail server's
      // message can quote the address.
      if (!limited) {
        context.afterReply.defer(reply, async () => {
          const token = await makeSignInLink(deps, { email, limits: settings.signInLimits })
          if (token === undefined) return
          const link = `${context.publicUrl()}${paths.signInLink.href({ token })}`
          await mailer.send(signInMessage(email, link)).catch((error: { code?: unknown }) => {
            request.log.warn({ code: error.code }, 'sign-in email not sent')
          })
        })
      }
    }
    return sendPage(
      request,
      reply,
      'sign-in-sent',
      { title: 'Check your email' },
      { email, limited, mailEnabled },
    )
  })

  app.get(paths.signInLink.pattern, async (request, reply) => {
    const token = queryString(request, 'token')
    const live = await isLiveSignInLink(deps, token)
    return sendPage(
      request,
      reply,
      'sign-in-link',
      { title: live ? 'Sign in' : 'Link expired', status: live ? 200 : 400 },
      { token: live ? token : undefined },
    )
  })

  app.post(paths.signInLink.pattern, async (request, reply) => {
    const session = await redeemSignInLink(deps, field(request, 'token'), {
      sessionTtlMs: settings.sessionTtlMs,
    })
    if (!session) {
      return sendPage(
        request,
        reply,
        'sign-in-link',
        { title: 'Link expired', status: 400 },
        { token: undefined },
      )
    }
    const { name, options } = context.sessionCookie
    // A new session replaces whatever session this browser had.
    await endSession(deps, request.cookies[name])
    reply.setCookie(name, session.token, { ...options, expires: session.expiresAt })
    return reply.redirect(paths.home.href(), 303)
  })

  app.post(
    paths.signOutEverywhere.pattern,
    signedIn(async (_request, reply, person) => {
      await endAllSessions(deps, person)
      const { name, options } = context.sessionCookie
      reply.clearCookie(name, options)
      return reply.redirect(paths.home.href(), 303)
    }),
  )

  app.post(paths.signOut.pattern, async (request, reply) => {
    const { name, options } = context.sessionCookie
    await endSession(deps, request.cookies[name])
    reply.clearCookie(name, options)
    return reply.redirect(paths.home.href(), 303)
  })
}
