// The official's Earnings and Leagues, and the Profile where they choose their time zone.
import type { FastifyInstance } from 'fastify'
import { listEarnings } from '../../domain/earnings.js'
import { ApiError } from '../../domain/errors.js'
import { listMemberships } from '../../domain/memberships.js'
import { listPreferences } from '../../domain/notification-preferences.js'
import { setTimeZone, TIME_ZONES } from '../../domain/profiles.js'
import { NOTIFICATION_HELP, NOTIFICATION_WORD } from '../../schemas/notifications.js'
import type { WebContext } from '../context.js'
import { field } from '../forms.js'
import { signedIn } from '../guards.js'
import { noticeOf, type Notices } from '../notices.js'
import { paths } from '../paths.js'

const EMAIL_WORDS = { words: NOTIFICATION_WORD, help: NOTIFICATION_HELP }

const NOTICES: Notices<'saved'> = { saved: { kind: 'success', text: 'Saved.' } }

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
        preferences,
        ...EMAIL_WORDS,
      })
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
          preferences,
          ...EMAIL_WORDS,
        })
      }
      return reply.redirect(paths.profile.href({ notice: 'saved' }), 303)
    }),
  )
}
