// The official's Earnings and Leagues, and the Profile where they choose their time zone.
import type { FastifyInstance } from 'fastify'
import { listEarnings } from '../../domain/pages/earnings.js'
import { ApiError } from '../../domain/core/errors.js'
import { listMemberships } from '../../domain/pages/leagues.js'
import { listPreferences } from '../../domain/notifications/notification-preferences.js'
import { getHomePoint, setHomePoint, setTimeZone, TIME_ZONES } from '../../domain/people/profiles.js'
import { NOTIFICATION_HELP, NOTIFICATION_WORD } from '../../schemas/notifications.js'
import type { WebContext } from '../context.js'
import { field } from '../forms.js'
import { signedIn } from '../guards.js'
import { act, noticeOf, type Notices } from '../notices.js'
import { paths } from '../paths.js'

const EMAIL_WORDS = { words: NOTIFICATION_WORD, help: NOTIFICATION_HELP }

const NOTICES: Notices<'saved' | 'home_saved' | 'invalid_home'> = {
  saved: { kind: 'success', text: 'Saved.' },
  home_saved: { kind: 'success', text: 'Home point saved: organizers’ plans prefer games near it.' },
  invalid_home: {
    kind: 'error',
    text: 'Not saved: a latitude is −90 to 90 and a longitude −180 to 180, both or neither.',
  },
}

export function accountRoutes(app: FastifyInstance, { deps, sendPage }: WebContext): void {
  app.get(
    paths.earnings.pattern,
    signedIn(async (request, reply, person) => {
      const earnings = await listEarnings(deps, person)
      return sendPage(request, reply, 'earnings', { title: 'Earnings', nav: 'earnings' }, earnings)
    }),
  )

  app.get(
    paths.leagues.pattern,
    signedIn(async (request, reply, person) => {
      const memberships = await listMemberships(deps, person)
      return sendPage(request, reply, 'leagues', { title: 'Leagues', nav: 'leagues' }, { memberships })
    }),
  )

  app.get(
    paths.profile.pattern,
    signedIn(async (request, reply, person) => {
      const options = { title: 'Profile', nav: 'profile', notice: noticeOf(request, NOTICES) } as const
      const preferences = await listPreferences(deps, person)
      return sendPage(request, reply, 'profile', options, {
        timeZones: TIME_ZONES,
        home: await getHomePoint(deps, person),
        preferences,
        ...EMAIL_WORDS,
      })
    }),
  )

  // Both fields empty clears the point; a number out of range, or one without the other, is refused.
  app.post(
    paths.homePoint.pattern,
    signedIn(async (request, reply, person) => {
      const coordinate = (name: string) => {
        const value = field(request, name).trim()
        return value === '' ? null : Number(value)
      }
      const back = (notice: 'home_saved' | 'invalid_home') => paths.profile.href({ notice })
      return act(
        reply,
        () =>
          setHomePoint(deps, person, {
            latitude: coordinate('latitude'),
            longitude: coordinate('longitude'),
          }),
        {
          done: () => back('home_saved'),
          back,
          refusals: { invalid_latitude: 'invalid_home', invalid_longitude: 'invalid_home' },
        },
      )
    }),
  )

  // A refusal here is a mistyped zone: the form is shown again with the reason, not a redirect.
  app.post(
    paths.profile.pattern,
    signedIn(async (request, reply, person) => {
      try {
        await setTimeZone(deps, person, field(request, 'timeZone'))
      } catch (error) {
        if (!(error instanceof ApiError)) throw error
        const notice = { kind: 'error', text: 'Choose a time zone from the list.' } as const
        const options = { title: 'Profile', nav: 'profile', status: 400, notice } as const
        const preferences = await listPreferences(deps, person)
        return sendPage(request, reply, 'profile', options, {
          timeZones: TIME_ZONES,
          home: await getHomePoint(deps, person),
          preferences,
          ...EMAIL_WORDS,
        })
      }
      return reply.redirect(paths.profile.href({ notice: 'saved' }), 303)
    }),
  )
}
