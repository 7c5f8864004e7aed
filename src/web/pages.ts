// Server-rendered pages: Eta templates (auto-escaping every `<%= %>`) inside one layout. Every page carries a
// fresh CSRF token for its forms and is never cached, since it shows one person's data.
import { Eta } from 'eta'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Person } from '../domain/people/sessions.js'
import { VIEWS_DIR } from './assets.js'
import { formatters, type Formatters } from './format.js'
import { LABELS, type Labels } from './labels.js'
import { paths, type Paths } from './paths.js'
import type { ViewName, Views } from './views.js'

const eta = new Eta({ views: VIEWS_DIR, cache: true })

type NavKey =
  'schedule' | 'open' | 'availability' | 'earnings' | 'leagues' | 'organize' | 'calendar' | 'profile'

const NAV: readonly { key: NavKey; label: string; href: string }[] = [
  { key: 'schedule', label: 'Schedule', href: paths.home.href() },
  { key: 'open', label: 'Open games', href: paths.openGames.href() },
  { key: 'availability', label: 'Availability', href: paths.availability.href() },
  { key: 'earnings', label: 'Earnings', href: paths.earnings.href() },
  { key: 'leagues', label: 'Leagues', href: paths.leagues.href() },
  { key: 'organize', label: 'Organize', href: paths.organize.href() },
  { key: 'calendar', label: 'Calendar', href: paths.calendar.href() },
  { key: 'profile', label: 'Profile', href: paths.profile.href() },
]

/** A line at the top of a page: what an action did, or why it did not (notices.ts). */
export interface Notice {
  readonly kind: 'success' | 'info' | 'error'
  readonly text: string
}

interface PageOptions {
  readonly title: string
  readonly status?: number
  readonly nav?: NavKey
  readonly notice?: Notice | undefined
  /**
   * The zone every time on the page is shown in: a league's pages pass the league's, the one its schedule is
   * made in; without it, the person's.
   */
  readonly timeZone?: string
}

/** What every template gets besides its own data (test/web/views.test.ts reads it). */
interface PageContext {
  readonly title: string
  readonly notice: Notice | undefined
  readonly stylesheet: string
  /** The menu, empty for someone signed out. */
  readonly nav: readonly { key: NavKey; label: string; href: string; current: boolean }[]
  readonly csrf: string
  readonly person: Person | undefined
  readonly format: Formatters
  /** The app's address builders (paths.ts): templates link with `it.path.x.href(…)`. */
  readonly path: Paths
  /** The words of every status and mode (labels.ts): `it.label.status[game.status]`. */
  readonly label: Labels
}

/**
 * The data of a view is exactly its type in views.ts: a field the type does not name is refused as the
 * compiler refuses an excess property, for a variable as for a literal, so the type lists everything a
 * route hands its template (and test/web/views.test.ts, that the template reads nothing else).
 */
type Exactly<T, D> = D & Readonly<Record<Exclude<keyof D, keyof T>, never>>

export type SendPage = <V extends ViewName, D extends Views[V]>(
  request: FastifyRequest,
  reply: FastifyReply,
  view: V,
  options: PageOptions,
  data: Exactly<Views[V], D>,
) => FastifyReply

/** `csrfBinding`: what the page's CSRF token is bound to (the session cookie it was served with). */
export const pageSender =
  (stylesheetHref: string, csrfBinding: (request: FastifyRequest) => string): SendPage =>
  (request, reply, view, options, data) => {
    const person = request.person
    const context: PageContext = {
      title: options.title,
      notice: options.notice,
      stylesheet: stylesheetHref,
      nav: person
        ? NAV.filter((item) => item.key !== 'organize' || person.organizes).map((item) => ({
            ...item,
            current: item.key === options.nav,
          }))
        : [],
      csrf: reply.generateCsrf({ userInfo: csrfBinding(request) }),
      person,
      format: formatters(options.timeZone ?? person?.timeZone ?? 'UTC'),
      path: paths,
      label: LABELS,
    }
    const html = eta.render(view, { ...data, ...context })
    return reply
      .status(options.status ?? 200)
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(html)
  }
