// The official's pages: Schedule (home), Open games, Earnings, Leagues and Profile, with the Claim and
// Withdraw actions. Refusals come back as a plain notice on the page, never an error page: a lost race says
// someone else took the game, and an id of another league's game reads exactly like a missing one.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { listEarnings } from '../../domain/earnings.js'
import { ApiError, type ErrorCode } from '../../domain/errors.js'
import { listMemberships } from '../../domain/memberships.js'
import { claimOpenGame, listOpenGames } from '../../domain/open-games.js'
import { setTimeZone, TIME_ZONES } from '../../domain/profiles.js'
import { findHeldGame, listSchedule, withdrawFromGame } from '../../domain/schedule.js'
import type { Person } from '../../domain/sessions.js'
import { byDay, formatters, heldStatus } from '../format.js'
import type { Notice } from '../pages.js'
import type { WebContext } from '../context.js'
import { field, idField, isId, pageNumber, queryString } from './forms.js'

const NOTICES: Record<string, Notice> = {
  claimed: { kind: 'success', text: 'You claimed the game. It is on your schedule.' },
  withdrawn: { kind: 'success', text: 'You withdrew from the game. It is open for other officials again.' },
  taken: { kind: 'error', text: 'Someone else took this game.' },
  gone: { kind: 'error', text: 'That game is not open any more.' },
  not_allowed: { kind: 'error', text: 'You cannot claim games in that league.' },
  started: { kind: 'error', text: 'That game has started: it can no longer be withdrawn.' },
  not_held: { kind: 'error', text: 'You do not hold that game.' },
  saved: { kind: 'success', text: 'Saved.' },
}

type NoticeCode = keyof typeof NOTICES

/** Every refusal a claim can meet, as the notice it shows: a missing game and another league's read alike. */
const CLAIM_REFUSALS: Partial<Record<ErrorCode, NoticeCode>> = {
  position_taken: 'taken',
  game_not_found: 'gone',
  position_not_found: 'gone',
  no_open_position: 'gone',
  position_not_open: 'gone',
  not_a_league_official: 'not_allowed',
}

/** Every refusal a withdrawal can meet: someone else's position reads like a missing one. */
const WITHDRAW_REFUSALS: Partial<Record<ErrorCode, NoticeCode>> = {
  position_not_found: 'not_held',
  position_not_claimed: 'not_held',
  game_started: 'started',
}

const notice = (request: FastifyRequest) => NOTICES[queryString(request, 'notice') ?? '']

/** Runs an action; a business refusal redirects to `back` with its notice instead of failing. */
async function act(
  reply: FastifyReply,
  action: () => Promise<void>,
  refusals: Partial<Record<ErrorCode, NoticeCode>>,
  done: string,
  back: string,
) {
  try {
    await action()
  } catch (error) {
    const refusal = error instanceof ApiError ? refusals[error.code] : undefined
    if (refusal === undefined) throw error
    return reply.redirect(`${back}?notice=${refusal}`, 303)
  }
  return reply.redirect(done, 303)
}

const signedIn = { preHandler: requirePerson }

export function officialRoutes(app: FastifyInstance, context: WebContext): void {
  gameRoutes(app, context)
  accountRoutes(app, context)
}

/** Schedule (the home page), Open games, and the Claim and Withdraw actions. */
function gameRoutes(app: FastifyInstance, context: WebContext): void {
  const { deps, sendPage } = context
  app.get('/', async (request, reply) => {
    const person = request.person
    if (!person) {
      return sendPage(
        request,
        reply,
        'sign-in',
        { title: 'Sign in' },
        { email: '', mailEnabled: context.mailer !== undefined },
      )
    }
    const page = pageNumber(request)
    const schedule = await listSchedule(deps, person, context.now(), page)
    return sendPage(
      request,
      reply,
      'schedule',
      { title: 'Schedule', nav: 'schedule', notice: notice(request) },
      {
        ...schedule,
        page,
        status: heldStatus,
      },
    )
  })

  app.get('/open', signedIn, async (request, reply) => {
    const page = pageNumber(request)
    const person = request.person as Person
    const { games, more } = await listOpenGames(deps, person, context.now(), page)
    return sendPage(
      request,
      reply,
      'open-games',
      { title: 'Open games', nav: 'open', notice: notice(request) },
      {
        days: byDay(games, formatters(person.timeZone)),
        more,
        page,
      },
    )
  })

  app.post('/claim', signedIn, async (request, reply) =>
    act(
      reply,
      () =>
        claimOpenGame(deps, request.person as Person, {
          gameId: idField(request, 'gameId'),
          positionId: idField(request, 'positionId'),
        }),
      CLAIM_REFUSALS,
      '/app/?notice=claimed',
      '/app/open',
    ),
  )

  app.get('/withdraw/:positionId', signedIn, async (request, reply) => {
    const { positionId } = request.params as { positionId: string }
    if (!isId(positionId)) throw new ApiError('position_not_found')
    const game = await findHeldGame(deps, request.person as Person, positionId, context.now())
    return sendPage(request, reply, 'withdraw', { title: 'Withdraw', nav: 'schedule' }, { game })
  })

  app.post('/withdraw', signedIn, async (request, reply) =>
    act(
      reply,
      () => withdrawFromGame(deps, request.person as Person, idField(request, 'positionId'), context.now()),
      WITHDRAW_REFUSALS,
      '/app/?notice=withdrawn',
      '/app/',
    ),
  )
}

/** Earnings, Leagues and Profile. */
function accountRoutes(app: FastifyInstance, context: WebContext): void {
  const { deps, sendPage } = context

  app.get('/earnings', signedIn, async (request, reply) => {
    const earnings = await listEarnings(deps, request.person as Person)
    return sendPage(request, reply, 'earnings', { title: 'Earnings', nav: 'earnings' }, earnings)
  })

  app.get('/leagues', signedIn, async (request, reply) => {
    const memberships = await listMemberships(deps, request.person as Person)
    return sendPage(request, reply, 'leagues', { title: 'Leagues', nav: 'leagues' }, { memberships })
  })

  app.get('/profile', signedIn, async (request, reply) =>
    sendPage(
      request,
      reply,
      'profile',
      { title: 'Profile', nav: 'profile', notice: notice(request) },
      {
        timeZones: TIME_ZONES,
      },
    ),
  )

  app.post('/profile', signedIn, async (request, reply) => {
    try {
      await setTimeZone(deps, request.person as Person, field(request, 'timeZone'), context.now())
    } catch (error) {
      if (!(error instanceof ApiError)) throw error
      return sendPage(
        request,
        reply,
        'profile',
        {
          title: 'Profile',
          nav: 'profile',
          status: 400,
          notice: { kind: 'error', text: 'Choose a time zone from the list.' },
        },
        { timeZones: TIME_ZONES },
      )
    }
    return reply.redirect('/app/profile?notice=saved', 303)
  })
}

/** Pages and actions of a signed-in person; anyone else is sent to the sign-in page. */
export async function requirePerson(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (!request.person) await reply.redirect('/app/', 303)
}
