// The official's Leagues: each membership with what it lets them do, Join on a league's invitation and
// Leave on one they joined (DESIGN "Consent").
import type { FastifyInstance } from 'fastify'
import { joinLeague, leaveLeague } from '../../domain/leagues/consent.js'
import { listMemberships } from '../../domain/pages/leagues.js'
import type { WebContext } from '../context.js'
import { idParam, signedIn } from '../guards.js'
import { act, noticeOf, type Notices, type Refusals } from '../notices.js'
import { paths } from '../paths.js'

type Code = 'joined' | 'left' | 'gone'

const NOTICES: Notices<Code> = {
  joined: {
    kind: 'success',
    text: 'Joined: this league now sees when you are unavailable, your distance to its games and your games in the other leagues you joined.',
  },
  left: { kind: 'success', text: 'You left the league; the games you held in it are open again.' },
  gone: { kind: 'error', text: 'That league has no membership of yours to change.' },
}

const REFUSALS: Refusals<Code> = { league_not_found: 'gone', not_a_member: 'gone' }

export function leaguesRoutes(app: FastifyInstance, { deps, sendPage }: WebContext): void {
  app.get(
    paths.leagues.pattern,
    signedIn(async (request, reply, person) => {
      const memberships = await listMemberships(deps, person)
      const options = { title: 'Leagues', nav: 'leagues', notice: noticeOf(request, NOTICES) } as const
      return sendPage(request, reply, 'leagues', options, { memberships })
    }),
  )
  const back = (notice: Code) => paths.leagues.href({ notice })
  app.post(
    paths.joinLeague.pattern,
    signedIn(async (request, reply, person) => {
      const leagueId = idParam(request, 'leagueId', 'league_not_found')
      return act(reply, () => joinLeague(deps, [person], leagueId), {
        done: () => back('joined'),
        back,
        refusals: REFUSALS,
      })
    }),
  )
  app.post(
    paths.leaveLeague.pattern,
    signedIn(async (request, reply, person) => {
      const leagueId = idParam(request, 'leagueId', 'league_not_found')
      return act(reply, () => leaveLeague(deps, person, leagueId), {
        done: () => back('left'),
        back,
        refusals: REFUSALS,
      })
    }),
  )
}
