// Open games an official can claim, a page at a time, and the Claim action. Refusals come back as a plain
// notice on the page, never an error page: a lost race says someone else took the game, and a game of a
// league the person does not officiate reads exactly like a missing one.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { claimPosition } from '../../domain/assignments/assignments.js'
import { dayStart, isDay, nextDay } from '../../time.js'
import { listOpenGames, officiatedLeagues, type OpenGamesQuery } from '../../domain/pages/open-games.js'
import { limitedAction } from '../action-limit.js'
import { CONFLICT_NOTICES, CONFLICT_SENTENCES } from '../conflict-sentences.js'
import type { WebContext } from '../context.js'
import { idField, isId, pageNumber, queryString } from '../forms.js'
import { byDay, formatters } from '../format.js'
import { signedIn } from '../guards.js'
import { act, noticeOf, type Notices, type Refusals } from '../notices.js'
import { paths } from '../paths.js'
import type { OpenGamesFilters } from '../views.js'

type Code =
  | 'taken'
  | 'yours'
  | 'gone'
  | 'not_allowed'
  | 'started'
  | 'level_too_low'
  | 'schedule_conflict'
  | 'official_unavailable'
  | 'daily_limit_reached'

const NOTICES: Notices<Code> = {
  taken: { kind: 'error', text: 'Someone else took this game.' },
  yours: { kind: 'info', text: 'This game is already yours.' },
  gone: { kind: 'error', text: 'That game is not open any more.' },
  not_allowed: { kind: 'error', text: 'You cannot claim games in that league.' },
  started: { kind: 'error', text: 'That game has already started: it can no longer be claimed.' },
  ...CONFLICT_NOTICES,
}

/** Every refusal a claim can meet, as the notice it shows: a missing game and another league's read alike. */
const CLAIM_REFUSALS: Refusals<Code> = {
  position_taken: 'taken',
  position_already_yours: 'yours',
  game_not_found: 'gone',
  position_not_found: 'gone',
  no_open_position: 'gone',
  position_not_open: 'gone',
  not_a_league_official: 'not_allowed',
  level_too_low: 'level_too_low',
  schedule_conflict: 'schedule_conflict',
  official_unavailable: 'official_unavailable',
  daily_limit_reached: 'daily_limit_reached',
  game_started: 'started',
}

const MAX_FILTER_TEXT = 100

function filtersOf(request: FastifyRequest): OpenGamesFilters {
  const text = (name: string) => {
    const value = queryString(request, name)?.trim()
    return value ? value.slice(0, MAX_FILTER_TEXT) : undefined
  }
  const day = (name: string) => {
    const value = queryString(request, name)
    return value !== undefined && isDay(value) ? value : undefined
  }
  const league = queryString(request, 'league')
  return {
    ...(league !== undefined && isId(league) && { league }),
    ...(day('from') && { from: day('from') }),
    ...(day('to') && { to: day('to') }),
    ...(text('sport') && { sport: text('sport') }),
    ...(text('place') && { place: text('place') }),
    ...(queryString(request, 'all') === '1' && { all: '1' as const }),
  }
}

/** The filters as the domain reads them: days in the person's time zone, the last one included. */
function queryOf(filters: OpenGamesFilters, timeZone: string): OpenGamesQuery {
  return {
    ...(filters.league && { leagueId: filters.league }),
    ...(filters.from && { from: dayStart(filters.from, timeZone) }),
    ...(filters.to && { to: dayStart(nextDay(filters.to), timeZone) }),
    ...(filters.sport && { sport: filters.sport }),
    ...(filters.place && { place: filters.place }),
    showAll: filters.all === '1',
  }
}

export function openGamesRoutes(app: FastifyInstance, context: WebContext): void {
  const { deps, sendPage } = context
  app.get(
    paths.openGames.pattern,
    signedIn(async (request, reply, person) => {
      const page = pageNumber(request)
      const filters = filtersOf(request)
      const [{ games, more }, leagues] = await Promise.all([
        listOpenGames(deps, person, page, queryOf(filters, person.timeZone)),
        officiatedLeagues(deps, person),
      ])
      const options = { title: 'Open games', nav: 'open', notice: noticeOf(request, NOTICES) } as const
      const days = byDay(games, formatters(person.timeZone))
      const data = { days, more, page, filters, leagues, reasons: CONFLICT_SENTENCES }
      return sendPage(request, reply, 'open-games', options, data)
    }),
  )

  app.post(
    paths.claim.pattern,
    signedIn(
      limitedAction(context, async (request, reply, person) => {
        const claim = { gameId: idField(request, 'gameId'), positionId: idField(request, 'positionId') }
        return act(reply, () => claimPosition(deps, person, claim), {
          done: () => paths.home.href({ notice: 'claimed' }),
          back: (notice) => paths.openGames.href({ notice }),
          refusals: CLAIM_REFUSALS,
        })
      }),
    ),
  )
}
