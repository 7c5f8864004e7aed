// The official's Leagues: each membership with what it lets them do.
import type { FastifyInstance } from 'fastify'
import { listMemberships } from '../../domain/pages/leagues.js'
import type { WebContext } from '../context.js'
import { signedIn } from '../guards.js'
import { paths } from '../paths.js'

export function leaguesRoutes(app: FastifyInstance, { deps, sendPage }: WebContext): void {
  app.get(
    paths.leagues.pattern,
    signedIn(async (request, reply, person) => {
      const memberships = await listMemberships(deps, person)
      return sendPage(request, reply, 'leagues', { title: 'Leagues', nav: 'leagues' }, { memberships })
    }),
  )
}
