// A league's officials for its organizer, with Approve and Deny. Another league's id answers Not found.
import type { FastifyInstance } from 'fastify'
import { approveOfficial, denyOfficial } from '../../domain/officials.js'
import { listLeagueOfficials } from '../../domain/organized-leagues.js'
import type { WebContext } from '../context.js'
import { idParam, signedIn } from '../guards.js'
import { act, noticeOf, type Notices, type Refusals } from '../notices.js'
import { paths } from '../paths.js'

type Code = 'approved' | 'denied' | 'not_a_member'

const NOTICES: Notices<Code> = {
  approved: { kind: 'success', text: 'Official approved: they can claim this league’s games.' },
  denied: { kind: 'success', text: 'Official denied: they can no longer claim this league’s games.' },
  not_a_member: { kind: 'error', text: 'That person is no longer an official of this league.' },
}

const REFUSALS: Refusals<Code> = { not_a_member: 'not_a_member', not_an_official: 'not_a_member' }

export function organizeOfficialRoutes(app: FastifyInstance, { deps, sendPage }: WebContext): void {
  app.get(
    paths.leagueOfficials.pattern,
    signedIn(async (request, reply, person) => {
      const leagueId = idParam(request, 'leagueId', 'league_not_found')
      const { league, officials } = await listLeagueOfficials(deps, person, leagueId)
      const title = `${league.name}: officials`
      const options = { title, nav: 'organize', notice: noticeOf(request, NOTICES) } as const
      return sendPage(request, reply, 'organize-officials', options, { league, tab: 'officials', officials })
    }),
  )

  for (const [path, decide, done] of [
    [paths.approveOfficial, approveOfficial, 'approved'],
    [paths.denyOfficial, denyOfficial, 'denied'],
  ] as const) {
    app.post(
      path.pattern,
      signedIn(async (request, reply, person) => {
        const leagueId = idParam(request, 'leagueId', 'league_not_found')
        const userId = idParam(request, 'userId', 'not_a_member')
        const back = (notice: Code) => paths.leagueOfficials.href({ leagueId }, { notice })
        return act(reply, () => decide(deps, person, leagueId, userId), {
          done: () => back(done),
          back,
          refusals: REFUSALS,
        })
      }),
    )
  }
}
