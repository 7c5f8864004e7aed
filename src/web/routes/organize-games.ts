// A league's games for its organizer (filtered, a page at a time) and Complete selected, with the Complete
// and No-show confirmations and actions. A league, game or position the person does not organize answers the
// one Not found page, before and after a form is posted.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { isDay } from '../../time.js'
import { ApiError, type ErrorCode } from '../../domain/core/errors.js'
import {
  completionBlocker,
  findLeagueGame,
  listLeagueGames,
  noShowPaymentEffect,
  type GameQuery,
} from '../../domain/pages/organize-games.js'
import { completeGame, markNoShow } from '../../domain/payments/payments.js'
import { completeSelected, MAX_SELECTED, previewCompletion } from '../../domain/payments/season-close.js'
import type { Deps } from '../../domain/core/deps.js'
import { requireOrganizedLeague } from '../../domain/pages/organize.js'
import type { Person } from '../../domain/people/sessions.js'
import { Status } from '../../schemas/common.js'
import { batchOf, batchQuery } from '../batch.js'
import { confirmed, sendBatchConfirmation } from '../confirm-batch.js'
import type { WebContext } from '../context.js'
import { field, idList, pageNumber, queryString } from '../forms.js'
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

/** The status filter's extra choice: past games whose positions are all filled, waiting to be completed. */
const NEEDS_COMPLETION = 'needs_completion'

interface ListQuery {
  /** A game status, `needs_completion`, or '' (any). */
  readonly filter: string
  readonly when: (typeof WHEN)[number]
  readonly from: string | undefined
  readonly to: string | undefined
  readonly page: number
}

/**
 * The games list's filters and page, from the address or from a form that carries them back; a value that
 * is not one of the choices reads as no filter.
 */
function listQuery(read: (name: string) => string | undefined, page: number): ListQuery {
  const value = read('status')
  const filter = value === NEEDS_COMPLETION || Status.options.some((s) => s === value) ? (value ?? '') : ''
  const day = (name: string) => {
    const v = read(name)
    return v !== undefined && isDay(v) ? v : undefined
  }
  return {
    filter,
    when: WHEN.find((w) => w === read('when')) ?? 'all',
    from: day('from'),
    to: day('to'),
    page,
  }
}

/** What the domain is asked: Needs completion is claimed games that have started. */
function gameQuery(list: ListQuery): GameQuery & { when: (typeof WHEN)[number]; page: number } {
  const needs = list.filter === NEEDS_COMPLETION
  const status = Status.options.find((s) => s === list.filter) ?? (needs ? 'claimed' : undefined)
  return { ...list, status, when: needs ? 'past' : list.when }
}

/** The list's address parameters, for links, the pager and redirects back to it. */
const listParams = (list: ListQuery) => ({
  status: list.filter === '' ? undefined : list.filter,
  when: list.when === 'all' ? undefined : list.when,
  from: list.from,
  to: list.to,
  page: list.page === 1 ? undefined : list.page,
})

/** The list's filters and page as a form posted them back. */
const postedList = (request: FastifyRequest): ListQuery =>
  listQuery((name) => field(request, name) || undefined, pageOf(field(request, 'page')))

const pageOf = (value: string): number => {
  const page = Number(value)
  return Number.isInteger(page) && page >= 1 && page <= 10_000 ? page : 1
}

/** The list's parameters as hidden fields, and the way back to the list as it was. */
function carried(leagueId: string, params: ReturnType<typeof listParams>) {
  return {
    listFields: Object.fromEntries(
      Object.entries(params).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]])),
    ),
    backHref: paths.league.href({ leagueId }, params),
  }
}

/** Why a game of Complete selected was not completed, as the list says it. */
const NOT_COMPLETED: Partial<Record<ErrorCode, string>> = {
  game_not_started: 'it has not started yet',
  game_not_claimed: 'it has open positions, or was cancelled',
  game_already_completed: 'it was already completed',
}

/** Complete selected's outcome, from its redirect (batch.ts): the refused games named, in the person's scope. */
async function completionOutcome(deps: Deps, request: FastifyRequest, person: Person) {
  const batch = batchOf(request, ['completed'])
  if (!batch) return undefined
  const refused = []
  for (const { id, code } of batch.refused.slice(0, MAX_SELECTED)) {
    const reason = NOT_COMPLETED[code]
    if (reason === undefined) continue
    const { league, game } = await findLeagueGame(deps, person, { gameId: id })
    refused.push({
      name: `${game.sport || 'Game'}, ${formatters(league.timeZone).dateTime(game.startsAt)}`,
      reason,
    })
  }
  return { completed: batch.done.completed, refused }
}

export function organizeGamesRoutes(app: FastifyInstance, { deps, sendPage }: WebContext): void {
  app.get(
    paths.league.pattern,
    signedIn(async (request, reply, person) => {
      const list = listQuery((name) => queryString(request, name), pageNumber(request))
      const query = gameQuery(list)
      const leagueId = idParam(request, 'leagueId', 'league_not_found')
      const { league, games, more } = await listLeagueGames(deps, person, leagueId, query)
      const options = {
        title: league.name,
        nav: 'organize',
        timeZone: league.timeZone,
        notice: noticeOf(request, NOTICES),
      } as const
      const params = listParams(list)
      return sendPage(request, reply, 'organize-games', options, {
        league,
        tab: 'games',
        days: byDay(games, formatters(league.timeZone)),
        query: { ...query, when: list.when },
        filter: list.filter,
        listFields: carried(league.id, params).listFields,
        outcome: await completionOutcome(deps, request, person),
        selectAll: queryString(request, 'select') === 'all',
        selectAllHref: paths.league.href({ leagueId: league.id }, { ...params, select: 'all' }),
        clearHref: paths.league.href({ leagueId: league.id }, params),
        statuses: Status.options,
        more,
        pageHref: (page: number) => paths.league.href({ leagueId: league.id }, { ...params, page }),
      })
    }),
  )

  app.post(
    paths.completeSelected.pattern,
    signedIn(async (request, reply, person) => {
      const leagueId = idParam(request, 'leagueId', 'league_not_found')
      const list = postedList(request)
      const ids = idList(request, 'gameId')
      // Asked first: what it will do, acted on at the second press (an empty selection says so at once).
      if (!confirmed(request) && ids.length > 0) {
        const preview = await previewCompletion(deps, person, leagueId, ids)
        const league = await requireOrganizedLeague(deps.db, person, leagueId)
        return sendBatchConfirmation(sendPage, request, reply, league, preview, {
          verb: 'Complete',
          noun: { one: 'game', many: 'games' },
          done: 'completed',
          effect:
            'Each is completed as Complete does: its officials get pending payments of that total, and partners’ systems receive game.completed. This cannot be undone.',
          action: paths.completeSelected.href({ leagueId }),
          idField: 'gameId',
          ...carried(leagueId, listParams(list)),
        })
      }
      const { completed, refused } = await completeSelected(deps, person, leagueId, ids)
      const batch = batchQuery({
        done: { completed: completed.length },
        refused: refused.map((r) => ({ id: r.gameId, code: r.code })),
      })
      return reply.redirect(paths.league.href({ leagueId }, { ...listParams(list), ...batch }), 303)
    }),
  )

  confirmationRoutes(app, { deps, sendPage })
}

/** Complete and No-show, each behind its confirmation, back to the list as it was. */
function confirmationRoutes(
  app: FastifyInstance,
  { deps, sendPage }: Pick<WebContext, 'deps' | 'sendPage'>,
): void {
  app.get(
    paths.completeGame.pattern,
    signedIn(async (request, reply, person) => {
      const gameId = idParam(request, 'gameId', 'game_not_found')
      const { league, game } = await findLeagueGame(deps, person, { gameId })
      const options = {
        title: 'Complete game',
        nav: 'organize',
        timeZone: league.timeZone,
        notice: noticeOf(request, NOTICES),
      } as const
      const list = listParams(listQuery((name) => queryString(request, name), pageNumber(request)))
      return sendPage(request, reply, 'organize-complete', options, {
        league,
        game,
        blocker: completionBlocker(game),
        ...carried(league.id, list),
      })
    }),
  )

  app.post(
    paths.completeGame.pattern,
    signedIn(async (request, reply, person) => {
      const gameId = idParam(request, 'gameId', 'game_not_found')
      const list = listParams(postedList(request))
      return act(reply, () => completeGame(deps, person, gameId), {
        done: (game) => paths.league.href({ leagueId: game.leagueId }, { ...list, notice: 'completed' }),
        back: (notice) => paths.completeGame.href({ gameId }, { ...list, notice }),
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
        timeZone: league.timeZone,
        notice: noticeOf(request, NOTICES),
      } as const
      const effect = noShowPaymentEffect(position)
      const list = listParams(listQuery((name) => queryString(request, name), pageNumber(request)))
      return sendPage(request, reply, 'organize-no-show', options, {
        league,
        game,
        position,
        effect,
        ...carried(league.id, list),
      })
    }),
  )

  app.post(
    paths.noShow.pattern,
    signedIn(async (request, reply, person) => {
      const positionId = idParam(request, 'positionId', 'position_not_found')
      const list = listParams(postedList(request))
      return act(reply, () => markNoShow(deps, person, positionId), {
        done: (game) => paths.league.href({ leagueId: game.leagueId }, { ...list, notice: 'no_show' }),
        back: (notice) => paths.noShow.href({ positionId }, { ...list, notice }),
        refusals: REFUSALS,
      })
    }),
  )
}
