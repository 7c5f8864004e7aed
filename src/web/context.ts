// What the app's route modules share: the services (with their clock), the settings and the page renderer.
import type { CookieSerializeOptions } from '@fastify/cookie'
import type { Deps } from '../domain/core/deps.js'
import type { MailTransport } from '../net/smtp.js'
import type { AfterReply } from './after-reply.js'
import type { SendPage } from './pages.js'
import type { AppSettings } from './settings.js'

/** What the route modules share. */
export interface WebContext {
  readonly deps: Deps
  readonly settings: AppSettings
  readonly mailer: MailTransport | undefined
  /** The configured public URL, else http://localhost:<listening port>. Never the request's Host header. */
  readonly publicUrl: () => string
  readonly sessionCookie: { readonly name: string; readonly options: CookieSerializeOptions }
  readonly sendPage: SendPage
  /** Work that starts once the reply is out (the sign-in mail). */
  readonly afterReply: AfterReply
}
