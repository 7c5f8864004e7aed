// The official's Earnings: their payments, newest first, with the totals per currency.
import type { FastifyInstance } from 'fastify'
import { listEarnings } from '../../domain/pages/earnings.js'
import type { WebContext } from '../context.js'
import { signedIn } from '../guards.js'
import { paths } from '../paths.js'

export function earningsRoutes(app: FastifyInstance, { deps, sendPage }: WebContext): void {
  app.get(
    paths.earnings.pattern,
    signedIn(async (request, reply, person) => {
      const earnings = await listEarnings(deps, person)
      return sendPage(request, reply, 'earnings', { title: 'Earnings', nav: 'earnings' }, earnings)
    }),
  )
}
