// The organizer's My leagues: every league they organize, with its games counted per status. Anyone who
// organizes none gets the one Not found page.
import type { FastifyInstance } from 'fastify'
import { ApiError } from '../../domain/core/errors.js'
import { listOrganizedLeagues } from '../../domain/pages/organize.js'
import type { WebContext } from '../context.js'
import { signedIn } from '../guards.js'
import { paths } from '../paths.js'

export function organizeRoutes(app: FastifyInstance, { deps, sendPage }: WebContext): void {
  app.get(
    paths.organize.pattern,
    signedIn(async (request, reply, person) => {
      const leagues = await listOrganizedLeagues(deps, person)
      if (leagues.length === 0) throw new ApiError('not_found')
      return sendPage(request, reply, 'organize', { title: 'My leagues', nav: 'organize' }, { leagues })
    }),
  )
}
