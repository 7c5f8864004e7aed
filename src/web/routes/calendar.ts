// The private calendar feed: a page to make (or remake) its address, shown once, and the ICS feed itself,
// authenticated by the token in its query string (calendar apps send no cookies).
import type { FastifyInstance } from 'fastify'
import ical, { ICalEventStatus } from 'ical-generator'
import { calendarFeedGames, findCalendarFeed, renewCalendarFeed } from '../../domain/pages/calendar.js'
import type { WebContext } from '../context.js'
import { queryString } from '../forms.js'
import { formatters } from '../format.js'
import { signedIn } from '../guards.js'
import { paths } from '../paths.js'

export function calendarRoutes(app: FastifyInstance, context: WebContext): void {
  const { deps, sendPage } = context
  const page = { title: 'Calendar', nav: 'calendar' } as const

  app.get(
    paths.calendar.pattern,
    signedIn(async (request, reply, person) => {
      const feed = await findCalendarFeed(deps, person)
      return sendPage(request, reply, 'calendar', page, { feed })
    }),
  )

  app.post(
    paths.calendar.pattern,
    signedIn(async (request, reply, person) => {
      const token = await renewCalendarFeed(deps, person)
      const feedUrl = `${context.publicUrl()}${paths.calendarFeed.href({ token })}`
      return sendPage(request, reply, 'calendar', page, { feedUrl })
    }),
  )

  app.get(paths.calendarFeed.pattern, { config: { anonymous: true } }, async (request, reply) => {
    const games = await calendarFeedGames(deps, queryString(request, 'token'))
    if (!games) return reply.status(404).type('text/plain; charset=utf-8').send('Not found\n')
    const money = formatters('UTC').money
    const calendar = ical({
      name: 'RefDesk games',
      prodId: { company: 'RefDesk', product: 'RefDesk', language: 'EN' },
    })
    for (const game of games) {
      calendar.createEvent({
        id: `${game.positionId}@refdesk`,
        start: new Date(game.startsAt),
        // The game's own length, else its league's gameMinutes (stored as the game's end).
        end: new Date(game.endsAt),
        summary: `${game.sport || 'Game'} · ${game.leagueName}`,
        location: game.location,
        description: `${game.label}, ${money(game.payCents, game.currency)}`,
        status:
          game.gameStatus === 'cancelled' || game.positionStatus === 'cancelled'
            ? ICalEventStatus.CANCELLED
            : ICalEventStatus.CONFIRMED,
        url: `${context.publicUrl()}${paths.home.href()}`,
      })
    }
    return reply
      .type('text/calendar; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(calendar.toString())
  })
}
