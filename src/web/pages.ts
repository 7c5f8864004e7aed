// Server-rendered pages: Eta templates (auto-escaping every `<%= %>`) inside one layout. Every page carries a
// fresh CSRF token for its forms and is never cached, since it shows one person's data.
import { Eta } from 'eta'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Person } from '../domain/sessions.js'
import { VIEWS_DIR } from './assets.js'
import { formatters, type Formatters } from './format.js'

const eta = new Eta({ views: VIEWS_DIR, cache: true })

export type NavKey = 'schedule' | 'open' | 'earnings' | 'leagues' | 'organize' | 'calendar' | 'profile'

const NAV: readonly { key: NavKey; label: string; href: string }[] = [
  { key: 'schedule', label: 'Schedule', href: '/app/' },
  { key: 'open', label: 'Open games', href: '/app/open' },
  { key: 'earnings', label: 'Earnings', href: '/app/earnings' },
  { key: 'leagues', label: 'Leagues', href: '/app/leagues' },
  { key: 'organize', label: 'Organize', href: '/app/organize' },
  { key: 'calendar', label: 'Calendar', href: '/app/calendar' },
  { key: 'profile', label: 'Profile', href: '/app/profile' },
]

export interface Notice {
  readonly kind: 'success' | 'info' | 'error'
  readonly text: string
}

export interface PageOptions {
  readonly title: string
  readonly status?: number
  readonly nav?: NavKey
  readonly notice?: Notice | undefined
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in person, resolved from the session cookie for every page. */
    person: Person | undefined
  }
}

/** What every template gets besides its own data. */
export interface PageContext {
  readonly csrf: string
  readonly person: Person | undefined
  readonly format: Formatters
}

export type SendPage = (
  request: FastifyRequest,
  reply: FastifyReply,
  view: string,
  options: PageOptions,
  data?: object,
) => FastifyReply

export const pageSender =
  (stylesheetHref: string): SendPage =>
  (request, reply, view, options, data = {}) => {
    const person = request.person
    const context: PageContext = {
      csrf: reply.generateCsrf(),
      person,
      format: formatters(person?.timeZone ?? 'UTC'),
    }
    const html = eta.render(view, {
      ...data,
      ...context,
      title: options.title,
      notice: options.notice,
      stylesheet: stylesheetHref,
      nav: person
        ? NAV.filter((item) => item.key !== 'organize' || person.organizes).map((item) => ({
            ...item,
            current: item.key === options.nav,
          }))
        : [],
    })
    return reply
      .status(options.status ?? 200)
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(html)
  }
