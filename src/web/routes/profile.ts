// The Profile and its forms: the time zone every time is shown in, the home point the assignor measures
// from, and which emails the person gets. Each form answers through `act`, back here with its notice.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { listPreferences, setPreferences } from '../../domain/notifications/notification-preferences.js'
import { joinedLeagueNames } from '../../domain/leagues/consent.js'
import { getHomePoint, setHomePoint, setTimeZone, TIME_ZONES } from '../../domain/people/profiles.js'
import { NOTIFICATION_HELP, NOTIFICATION_WORD } from '../../schemas/notifications.js'
import type { WebContext } from '../context.js'
import { field } from '../forms.js'
import { signedIn } from '../guards.js'
import { act, noticeOf, type Notices } from '../notices.js'
import { paths } from '../paths.js'

type Code = 'saved' | 'invalid_zone' | 'home_saved' | 'invalid_home'

const NOTICES: Notices<Code> = {
  saved: { kind: 'success', text: 'Saved.' },
  invalid_zone: { kind: 'error', text: 'Choose a time zone from the list.' },
  home_saved: { kind: 'success', text: 'Home point saved: organizers’ plans prefer games near it.' },
  invalid_home: {
    kind: 'error',
    text: 'Not saved: a latitude is −90 to 90 and a longitude −180 to 180, both or neither.',
  },
}

const back = (notice: Code) => paths.profile.href({ notice })

/** The checked kinds of the email settings, whatever shape the body has. */
function checked(request: FastifyRequest): string[] {
  const value = (request.body as Record<string, unknown> | undefined)?.kind
  const values = Array.isArray(value) ? value : [value]
  return values.filter((v): v is string => typeof v === 'string')
}

/** A coordinate field: empty is none; anything else a number the service judges (NaN is refused there). */
function coordinate(request: FastifyRequest, name: string): number | null {
  const value = field(request, name).trim()
  return value === '' ? null : Number(value)
}

export function profileRoutes(app: FastifyInstance, { deps, sendPage }: WebContext): void {
  app.get(
    paths.profile.pattern,
    signedIn(async (request, reply, person) => {
      const options = { title: 'Profile', nav: 'profile', notice: noticeOf(request, NOTICES) } as const
      const [home, preferences, joinedLeagues] = await Promise.all([
        getHomePoint(deps, person),
        listPreferences(deps, person),
        joinedLeagueNames(deps, person),
      ])
      return sendPage(request, reply, 'profile', options, {
        timeZones: TIME_ZONES,
        home,
        preferences,
        words: NOTIFICATION_WORD,
        help: NOTIFICATION_HELP,
        joinedLeagues,
      })
    }),
  )

  app.post(
    paths.profile.pattern,
    signedIn(async (request, reply, person) =>
      act(reply, () => setTimeZone(deps, person, field(request, 'timeZone')), {
        done: () => back('saved'),
        back,
        refusals: { invalid_time_zone: 'invalid_zone' },
      }),
    ),
  )

  // Both fields empty clears the point; a number out of range, or one without the other, is refused.
  app.post(
    paths.homePoint.pattern,
    signedIn(async (request, reply, person) => {
      const point = { latitude: coordinate(request, 'latitude'), longitude: coordinate(request, 'longitude') }
      return act(reply, () => setHomePoint(deps, person, point), {
        done: () => back('home_saved'),
        back,
        refusals: { invalid_latitude: 'invalid_home', invalid_longitude: 'invalid_home' },
      })
    }),
  )

  app.post(
    paths.emailSettings.pattern,
    signedIn(async (request, reply, person) =>
      act(reply, () => setPreferences(deps, person, checked(request)), {
        done: () => back('saved'),
        back,
        refusals: {},
      }),
    ),
  )
}
