// The organizer's pages: My leagues, a league's games (filtered, a page at a time), the Complete and No-show
// confirmations and actions, and the officials with Approve and Deny. A league, game or position the person
// does not organize answers the one Not found page, before and after a form is posted.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { ApiError, type ErrorCode } from '../../domain/errors.js'
import {
  approveLeagueOfficial,
  completeLeagueGame,
  denyLeagueOfficial,
  recordNoShow,
} from '../../domain/organizer-actions.js'
import {
  completionBlocker,
  findLeagueGame,
  GAME_STATUSES,
  isDay,
  listLeagueGames,
  listLeagueOfficials,
  listOrganizedLeagues,
  noShowPaymentEffect,
  type GameQuery,
} from '../../domain/organizer.js'
import type { Person } from '../../domain/sessions.js'
import type { WebContext } from '../context.js'
import { byDay, formatters } from '../format.js'
import type { Notice } from '../pages.js'
import { isId, pageNumber, queryString } from './forms.js'
import { requirePerson } from './official.js'

export const ORGANIZER_NOTICES: Record<string, Notice> = {
  completed: { kind: 'success', text: 'Game completed. Each worked position now has a pending payment.' },
  already_completed: { kind: 'error', text: 'This game is already completed: someone completed it first.' },
  not_claimed: { kind: 'error', text: 'This game cannot be completed now: see why below.' },
  no_show: { kind: 'success', text: 'No-show recorded. The position is cancelled, unpaid.' },
  not_worked: { kind: 'error', text: 'A no-show can no longer be recorded for that position.' },
  approved: { kind: 'success', text: 'Official approved: they can claim this league’s games.' },
  denied: { kind: 'success', text: 'Official denied: they can no longer claim this league’s games.' },
  not_a_member: { kind: 'error', text: 'That person is no longer an official of this league.' },
}

/** A refusal of an organizer's action → the notice shown where they came from. 404s are not refusals. */
export const ORGANIZER_REFUSALS: Partial<Record<ErrorCode, string>> = {
  game_already_completed: 'already_completed',
  game_not_claimed: 'not_claimed',
  game_not_completed: 'not_worked',
  position_not_claimed: 'not_worked',
  not_a_member: 'not_a_member',
  not_an_official: 'not_a_member',
}

/** The code of an organizer's refusal, or the error rethrown (a 404 then renders Not found). */
export function refusalOf(error: unknown): string {
  const refusal = error instanceof ApiError ? ORGANIZER_REFUSALS[error.code] : undefined
  if (refusal === undefined) throw error
  return refusal
}

const WHEN = ['upcoming', 'past', 'all'] as const

/** The games filter from the query string; a value that is not one of the choices reads as no filter. */
function gameQuery(request: FastifyRequest): GameQuery & { when: (typeof WHEN)[number] } {
  const status = GAME_STATUSES.find((s) => s === queryString(request, 'status'))
  const when = WHEN.find((w) => w === queryString(request, 'when')) ?? 'all'
  const day = (name: string) => {
    const value = queryString(request, name)
    return value !== undefined && isDay(value) ? value : undefined
  }
  return { status, when, from: day('from'), to: day('to'), page: pageNumber(request) }
}

const organizing = { preHandler: requirePerson }

export function organizerRoutes(app: FastifyInstance, context: WebContext): void {
  const { deps, sendPage } = context
  const notice = (request: FastifyRequest) => ORGANIZER_NOTICES[queryString(request, 'notice') ?? '']
  const person = (request: FastifyRequest) => request.person as Person

  app.get('/organize', organizing, async (request, reply) => {
    const leagues = await listOrganizedLeagues(deps, person(request))
    if (leagues.length === 0) throw new ApiError('not_found')
    return sendPage(request, reply, 'organize', { title: 'My leagues', nav: 'organize' }, { leagues })
  })

  app.get('/organize/leagues/:leagueId', organizing, async (request, reply) => {
    const leagueId = idParam(request, 'leagueId', 'league_not_found')
    const query = gameQuery(request)
    const { league, games, more } = await listLeagueGames(
      deps,
      person(request),
      leagueId,
      query,
      context.now(),
    )
    const params = new URLSearchParams({
      ...(query.status && { status: query.status }),
      when: query.when,
      ...(query.from && { from: query.from }),
      ...(query.to && { to: query.to }),
    })
    return sendPage(
      request,
      reply,
      'organize-games',
      { title: league.name, nav: 'organize', notice: notice(request) },
      {
        league,
        tab: 'games',
        days: byDay(games, formatters(person(request).timeZone)),
        query,
        statuses: GAME_STATUSES,
        more,
        pageHref: (page: number) => `/app/organize/leagues/${league.id}?${params}&page=${page}`,
      },
    )
  })

  app.get('/organize/games/:gameId/complete', organizing, async (request, reply) => {
    const gameId = idParam(request, 'gameId', 'game_not_found')
    const { league, game } = await findLeagueGame(deps, person(request), { gameId })
    return sendPage(
      request,
      reply,
      'organize-complete',
      { title: 'Complete game', nav: 'organize', notice: notice(request) },
      { league, game, blocker: completionBlocker(game) },
    )
  })

  app.post('/organize/games/:gameId/complete', organizing, async (request, reply) => {
    const gameId = idParam(request, 'gameId', 'game_not_found')
    try {
      const game = await completeLeagueGame(deps, person(request), gameId)
      return reply.redirect(`/app/organize/leagues/${game.leagueId}?notice=completed`, 303)
    } catch (error) {
      return reply.redirect(`/app/organize/games/${gameId}/complete?notice=${refusalOf(error)}`, 303)
    }
  })

  app.get('/organize/positions/:positionId/no-show', organizing, async (request, reply) => {
    const positionId = idParam(request, 'positionId', 'position_not_found')
    const { league, game } = await findLeagueGame(deps, person(request), { positionId })
    const position = game.positions.find((p) => p.id === positionId)
    if (!position) throw new ApiError('position_not_found')
    return sendPage(
      request,
      reply,
      'organize-no-show',
      { title: 'Record a no-show', nav: 'organize', notice: notice(request) },
      { league, game, position, effect: noShowPaymentEffect(position) },
    )
  })

  app.post('/organize/positions/:positionId/no-show', organizing, async (request, reply) => {
    const positionId = idParam(request, 'positionId', 'position_not_found')
    try {
      const game = await recordNoShow(deps, person(request), positionId)
      return reply.redirect(`/app/organize/leagues/${game.leagueId}?notice=no_show`, 303)
    } catch (error) {
      return reply.redirect(`/app/organize/positions/${positionId}/no-show?notice=${refusalOf(error)}`, 303)
    }
  })

  officialsRoutes(app, context)
}

/** The league's officials, with Approve and Deny. */
function officialsRoutes(app: FastifyInstance, context: WebContext): void {
  const { deps, sendPage } = context
  const person = (request: FastifyRequest) => request.person as Person

  app.get('/organize/leagues/:leagueId/officials', organizing, async (request, reply) => {
    const leagueId = idParam(request, 'leagueId', 'league_not_found')
    const { league, officials } = await listLeagueOfficials(deps, person(request), leagueId)
    return sendPage(
      request,
      reply,
      'organize-officials',
      {
        title: `${league.name}: officials`,
        nav: 'organize',
        notice: ORGANIZER_NOTICES[queryString(request, 'notice') ?? ''],
      },
      { league, tab: 'officials', officials },
    )
  })

  for (const [action, decide] of [
    ['approve', approveLeagueOfficial],
    ['deny', denyLeagueOfficial],
  ] as const) {
    app.post(
      `/organize/leagues/:leagueId/officials/:userId/${action}`,
      organizing,
      async (request, reply) => {
        const leagueId = idParam(request, 'leagueId', 'league_not_found')
        const userId = idParam(request, 'userId', 'not_a_member')
        const back = `/app/organize/leagues/${leagueId}/officials`
        try {
          await decide(deps, person(request), leagueId, userId)
        } catch (error) {
          return reply.redirect(`${back}?notice=${refusalOf(error)}`, 303)
        }
        return reply.redirect(`${back}?notice=${action === 'approve' ? 'approved' : 'denied'}`, 303)
      },
    )
  }
}

/** An id path parameter; anything not id-shaped is the given 404 before any query runs. */
export function idParam(request: FastifyRequest, name: string, missing: ErrorCode): string {
  const value = (request.params as Record<string, string>)[name] ?? ''
  if (!isId(value)) throw new ApiError(missing)
  return value
}
