// The RefDesk app under /app: server-rendered pages for officials and organizers, signed in by email link. Cookies, form
// bodies, security headers and CSRF checks are registered in this plugin's scope only, so /api/v1 stays
// key-only and cookie-free. Every action calls the domain services `refdesk app` calls.
import type { AddressInfo } from 'node:net'
import fastifyCookie from '@fastify/cookie'
import fastifyCsrf from '@fastify/csrf-protection'
import fastifyFormbody from '@fastify/formbody'
import fastifyHelmet from '@fastify/helmet'
import type { FastifyError, FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import type { Deps } from '../domain/core/deps.js'
import { ApiError } from '../domain/core/errors.js'
import { findPerson } from '../domain/people/sessions.js'
import { smtpTransport, type MailTransport } from '../net/smtp.js'
import { afterReplyQueue, type AfterReply } from './after-reply.js'
import { loadStylesheet } from './assets.js'
import type { WebContext } from './context.js'
import { pageSender } from './pages.js'
import { APP_PREFIX, paths } from './paths.js'
import { availabilityRoutes } from './routes/availability.js'
import { calendarRoutes } from './routes/calendar.js'
import { earningsRoutes } from './routes/earnings.js'
import { leaguesRoutes } from './routes/leagues.js'
import { openGamesRoutes } from './routes/open-games.js'
import { organizeRoutes } from './routes/organize.js'
import { organizeAssignRoutes } from './routes/organize-assign.js'
import { organizeGameRoutes } from './routes/organize-game.js'
import { organizeGamesRoutes } from './routes/organize-games.js'
import { organizeOfficialsRoutes } from './routes/organize-officials.js'
import { organizePayoutsRoutes } from './routes/organize-payouts.js'
import { profileRoutes } from './routes/profile.js'
import { scheduleRoutes } from './routes/schedule.js'
import { signInRoutes } from './routes/sign-in.js'
import { unsubscribeRoutes } from './routes/unsubscribe.js'
import type { AppSettings } from './settings.js'

/**
 * The route modules, siblings that import no other: each registers its page (a module, its view and its read
 * model in domain/pages/ share the page's name) with the page's confirmations and actions.
 */
const ROUTES: readonly ((app: FastifyInstance, context: WebContext) => void)[] = [
  signInRoutes,
  scheduleRoutes,
  openGamesRoutes,
  availabilityRoutes,
  earningsRoutes,
  leaguesRoutes,
  calendarRoutes,
  profileRoutes,
  unsubscribeRoutes,
  organizeRoutes,
  organizeGamesRoutes,
  organizeGameRoutes,
  organizeAssignRoutes,
  organizeOfficialsRoutes,
  organizePayoutsRoutes,
]

export interface WebOptions {
  readonly deps: Deps
  readonly settings: AppSettings
  /** Default: SMTP when `settings.smtpUrl` is set, else none (the sign-in page says to ask the operator). */
  readonly mailer?: MailTransport
  /** Default: an in-process queue; tests pass their own to wait for it or hold it. */
  readonly afterReply?: AfterReply
}

const CSRF_FAILURES = new Set(['FST_CSRF_INVALID_TOKEN', 'FST_CSRF_MISSING_SECRET'])

// One answer for an unknown page, an unknown id and another person's or league's id alike.
const NOT_FOUND = {
  heading: 'Not found',
  text: 'There is nothing here. It may have been removed, or the address is mistyped.',
}

export const webApp: FastifyPluginAsync<WebOptions> = async (app, options) => {
  const { deps, settings } = options
  const secure = settings.publicUrl?.startsWith('https:') ?? false
  // Under https the __Host- prefix pins the cookies to this host and path `/`; over plain http (development)
  // they are scoped to /app, so the partner API never receives them.
  const cookiePrefix = secure ? '__Host-' : ''
  const cookiePath = secure ? '/' : APP_PREFIX
  const sessionCookieName = `${cookiePrefix}refdesk_session`
  const mailer =
    options.mailer ?? (settings.smtpUrl ? smtpTransport(settings.smtpUrl, settings.mailFrom) : undefined)
  const afterReply =
    options.afterReply ?? afterReplyQueue((error) => app.log.error({ err: error }, 'deferred task failed'))
  // A stopping server sends the mail it promised before closing the mailer and the database.
  app.addHook('onClose', async () => {
    await afterReply.idle()
    if (!options.mailer) mailer?.close()
  })
  const stylesheet = loadStylesheet()
  const csrfBinding = (request: FastifyRequest) => `session:${request.cookies[sessionCookieName] ?? ''}`

  const context: WebContext = {
    deps,
    settings,
    mailer,
    publicUrl: () =>
      settings.publicUrl ?? `http://localhost:${(app.server.address() as AddressInfo | null)?.port ?? 3000}`,
    sessionCookie: {
      name: sessionCookieName,
      options: { path: cookiePath, httpOnly: true, sameSite: 'lax', secure },
    },
    sendPage: pageSender(paths.stylesheet.href({ file: stylesheet.name }), csrfBinding),
    afterReply,
  }

  // The app's pages are no partner operation: the OpenAPI document (and its parity tests) must not see them.
  app.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, hide: true }
  })
  await app.register(fastifyCookie)
  await app.register(fastifyFormbody, { bodyLimit: 16 * 1024 })
  await app.register(fastifyCsrf, {
    cookieKey: `${cookiePrefix}refdesk_csrf`,
    cookieOpts: { path: cookiePath, httpOnly: true, sameSite: 'strict', secure },
    // Forms only: the token is never read from a header or the query string.
    getToken: (request) => (request.body as { _csrf?: string } | undefined)?._csrf,
    // Bound to the session cookie the page was served with: a token from one session (a person's, an
    // attacker's own) is refused in any other, even in a browser that keeps the same CSRF secret cookie.
    getUserInfo: csrfBinding,
    // The HMAC key only tags the binding; what a forger lacks is the HttpOnly secret cookie, so the key
    // need not be secret, and one constant lets every serving process check every other's tokens.
    csrfOpts: { hmacKey: 'refdesk-app-csrf' },
  })
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'none'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        baseUri: ["'none'"],
        ...(secure && { upgradeInsecureRequests: [] }),
      },
    },
    strictTransportSecurity: secure,
  })

  app.decorateRequest('person', undefined)
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config.anonymous) return
    request.person = await findPerson(
      deps,
      request.cookies[context.sessionCookie.name],
      settings.sessionIdleMs,
    )
  })
  // Every state change is a POST, and every POST carries the form's CSRF token (checked once the body is parsed).
  app.addHook('preHandler', (request, reply, done) => {
    if (request.method === 'POST' && !request.routeOptions.config.noCsrf)
      return app.csrfProtection(request, reply, done)
    done()
  })

  const notFound = (request: FastifyRequest, reply: FastifyReply) =>
    context.sendPage(request, reply, 'message', { status: 404, title: 'Not found' }, NOT_FOUND)

  app.get(paths.stylesheet.pattern, { config: { anonymous: true } }, async (request, reply) => {
    if ((request.params as { file: string }).file !== stylesheet.name) return notFound(request, reply)
    return reply
      .type('text/css; charset=utf-8')
      .header('cache-control', 'public, max-age=31536000, immutable')
      .send(stylesheet.css)
  })

  for (const routes of ROUTES) routes(app, context)

  app.setNotFoundHandler(notFound)
  installErrorPages(app, context)
}

/** Browsers get a page, never JSON and never a stack: refusals explain themselves, faults are logged. */
function installErrorPages(app: FastifyInstance, context: WebContext): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const page = (status: number, heading: string, text: string) =>
      context.sendPage(request, reply, 'message', { status, title: heading }, { heading, text })
    if (CSRF_FAILURES.has(error.code)) {
      return page(403, 'This form has expired', 'Go back, reload the page and try again.')
    }
    if (error instanceof ApiError && error.status === 404) return page(404, NOT_FOUND.heading, NOT_FOUND.text)
    if (error instanceof ApiError || (error.statusCode !== undefined && error.statusCode < 500)) {
      return page(400, 'That did not work', 'Go back and check what you entered.')
    }
    request.log.error({ err: error }, 'unhandled error')
    return page(500, 'Something went wrong', 'Please try again in a moment.')
  })
}
