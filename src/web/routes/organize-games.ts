// The organizer's My leagues and a league's games (filtered, a page at a time), with the Complete and No-show
// confirmations and actions. A league, game or position the person does not organize answers the one Not
// found page, before and after a form is posted.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { isDay } from '../../domain/days.js'
import { ApiError } from '../../domain/errors.js'
import {
  completionBlocker,
  findLeagueGame,
  GAME_STATUSES,
  listLeagueGames,
  noShowPaymentEffect,
  type GameQuery,
} from '../../domain/league-games.js'
import { listOrganizedLeagues } from '../../domain/organized-leagues.js'
import { completeGame, markNoShow } from '../../domain/payments.js'
import type { WebContext } from '../context.js'
import { pageNumber, queryString } from '../forms.js'
import { byDay, formatters } from '../format.js'
import { idParam, signedIn } from '../guards.js'
import { act, noticeOf, type Notices, type Refusals } from '../notices.js'
import { paths } from '../paths.js'

type Code = 'completed' | 'already_completed' | 'not_claimed' | 'not_started' | 'no_show' | 'not_worked'

const NOTICES: Notices<Code> = {
  completed: { kind: 'success', text: 'Game completed. Each worked position now has a pending payment.' },
  already_completed: { kind: 'error', text: 'This game is already completed: someone completed it first.' },
  not_claimed: { kind: 'error', text: 'This game cannot be completed now: see why below.' },
  not_started: { kind: 'error', text: 'This game has not started yet: complete it once it has been played.' },
  no_show: { kind: 'success', text: 'No-show recorded. The position is cancelled, unpaid.' },
  not_worked: { kind: 'error', text: 'A no-show can no longer be recorded for that position.' },
}

/** A refusal of an organizer's action → the notice shown where they came from. 404s are not refusals. */
const REFUSALS: Refusals<Code> = {
  game_already_completed: 'already_completed',
  game_not_claimed: 'not_claimed',
  game_not_started: 'not_started',
  game_not_completed: 'not_worked',
  position_not_claimed: 'not_worked',
}

const WHEN = ['upcoming', 'past', 'all'] as const

/** The games filter from the query string; a value that is not one of the choices reads as no filter. */
function gameQuery(request: FastifyRequest): GameQuery & { when: (typeof WHEN)[number]; page: number } {
  const status = GAME_STATUSES.find((s) => s === queryString(request, 'status'))
  const when = WHEN.find((w) => w === queryString(request, 'when')) ?? 'all'
  const day = (name: string) => {
    const value = queryString(request, name)
    return value !== undefined && isDay(value) ? value : undefined
  }
  return { status, when, from: day('from'), to: day('to'), page: pageNumber(request) }
}

export function organizeGameRoutes(app: FastifyInstance, { deps, sendPage }: WebContext): void {
  app.get(
    paths.organize.pattern,
    signedIn(async (request, reply, person) => {
      const leagues = await listOrganizedLeagues(deps, person)
      if (leagues.length === 0) throw new ApiError('not_found')
      return sendPage(request, reply, 'organize', { title: 'My leagues', nav: 'organize' }, { leagues })
    }),
  )

  app.get(
    paths.league.pattern,
    signedIn(async (request, reply, person) => {
      const query = gameQuery(request)
      const leagueId = idParam(request, 'leagueId', 'league_not_found')
      const { league, games, more } = await listLeagueGames(deps, person, leagueId, query)
      const { status, when, from, to } = query
      const options = { title: league.name, nav: 'organize', notice: noticeOf(request, NOTICES) } as const
      return sendPage(request, reply, 'organize-games', options, {
        league,
        tab: 'games',
        days: byDay(games, formatters(person.timeZone)),
        query,
        statuses: GAME_STATUSES,
        more,
        pageHref: (page: number) =>
          paths.league.href({ leagueId: league.id }, { status, when, from, to, page }),
      })
    }),
  )

  app.get(
    paths.completeGame.pattern,
    signedIn(async (request, reply, person) => {
      const gameId = idParam(request, 'gameId', 'game_not_found')
      const { league, game } = await findLeagueGame(deps, person, { gameId })
      const options = { title: 'Complete game', nav: 'organize', notice: noticeOf(request, NOTICES) } as const
      return sendPage(request, reply, 'organize-complete', options, {
        league,
        game,
        blocker: completionBlocker(game),
      })
    }),
  )

  app.post(
    paths.completeGame.pattern,
    signedIn(async (request, reply, person) => {
      const gameId = idParam(request, 'gameId', 'game_not_found')
      return act(reply, () => completeGame(deps, person, gameId), {
        done: (game) => paths.league.href({ leagueId: game.leagueId }, { notice: 'completed' }),
        back: (notice) => paths.completeGame.href({ gameId }, { notice }),
        refusals: REFUSALS,
      })
    }),
  )

  app.get(
    paths.noShow.pattern,
    signedIn(async (request, reply, person) => {
      const positionId = idParam(request, 'positionId', 'position_not_found')
      const { league, game } = await findLeagueGame(deps, person, { positionId })
      const position = game.positions.find((p) => p.id === positionId)
      if (!position) throw new ApiError('position_not_found')
      const options = {
        title: 'Record a no-show',
        nav: 'organize',
        notice: noticeOf(request, NOTICES),
      } as const
      const effect = noShowPaymentEffect(position)
      return sendPage(request, reply, 'organize-no-show', options, { league, game, position, effect })
    }),
  )

  app.post(
    paths.noShow.pattern,
    signedIn(async (request, reply, person) => {
      const positionId = idParam(request, 'positionId', 'position_not_found')
      return act(reply, () => markNoShow(deps, person, positionId), {
        done: (game) => paths.league.href({ leagueId: game.leagueId }, { notice: 'no_show' }),
        back: (notice) => paths.noShow.href({ positionId }, { notice }),
        refusals: REFUSALS,
      })
    }),
  )
}
