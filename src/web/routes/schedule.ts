// The official's Schedule (the home page; the sign-in page for anyone else) and withdrawal from a held game:
// a page that says what it does, then the action. Someone else's position reads exactly like a missing one.
import type { FastifyInstance } from 'fastify'
import { withdrawClaim } from '../../domain/assignments/assignments.js'
import { findHeldGame, listSchedule } from '../../domain/pages/schedule.js'
import { limitedAction } from '../action-limit.js'
import type { WebContext } from '../context.js'
import { idField, pageNumber } from '../forms.js'
import { changeMark, heldStatus } from '../format.js'
import { idParam, signedIn } from '../guards.js'
import { act, noticeOf, type Notices, type Refusals } from '../notices.js'
import { paths } from '../paths.js'

type Code = 'claimed' | 'withdrawn' | 'started' | 'not_held'

const NOTICES: Notices<Code> = {
  claimed: { kind: 'success', text: 'You claimed the game. It is on your schedule.' },
  withdrawn: { kind: 'success', text: 'You withdrew from the game. It is open for other officials again.' },
  started: { kind: 'error', text: 'That game has started: it can no longer be withdrawn.' },
  not_held: { kind: 'error', text: 'You do not hold that game.' },
}

/** Every refusal a withdrawal can meet: someone else's position reads like a missing one. */
const WITHDRAW_REFUSALS: Refusals<Code> = {
  position_not_found: 'not_held',
  position_not_claimed: 'not_held',
  game_started: 'started',
}

export function scheduleRoutes(app: FastifyInstance, context: WebContext): void {
  const { deps, mailer, sendPage } = context
  app.get(paths.home.pattern, async (request, reply) => {
    const person = request.person
    if (!person) {
      const data = { email: '', mailEnabled: mailer !== undefined }
      return sendPage(request, reply, 'sign-in', { title: 'Sign in' }, data)
    }
    const page = pageNumber(request)
    const schedule = await listSchedule(deps, person, page)
    const options = { title: 'Schedule', nav: 'schedule', notice: noticeOf(request, NOTICES) } as const
    return sendPage(request, reply, 'schedule', options, {
      ...schedule,
      page,
      status: heldStatus,
      changeMark,
    })
  })

  app.get(
    paths.withdrawal.pattern,
    signedIn(async (request, reply, person) => {
      const game = await findHeldGame(deps, person, idParam(request, 'positionId', 'position_not_found'))
      return sendPage(request, reply, 'withdraw', { title: 'Withdraw', nav: 'schedule' }, { game })
    }),
  )

  app.post(
    paths.withdraw.pattern,
    signedIn(
      limitedAction(context, async (request, reply, person) =>
        act(reply, () => withdrawClaim(deps, person, idField(request, 'positionId')), {
          done: () => paths.home.href({ notice: 'withdrawn' }),
          back: (notice) => paths.home.href({ notice }),
          refusals: WITHDRAW_REFUSALS,
        }),
      ),
    ),
  )
}
