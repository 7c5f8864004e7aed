// The organizer's Assign tab: open positions of upcoming games with their best candidates and an Assign
// button each (the game page's organizer assign, back to this tab), and Fill automatically: the assignor's
// plan as a draft on its own page, then Publish. Another league's ids answer Not found.
import type { FastifyInstance } from 'fastify'
import { findPlanPage, listAssignBoard } from '../../domain/pages/organize-assign.js'
import {
  comingWeekend,
  createPlan,
  createPlanForDays,
  editPlan,
  getPlan,
  publishPlan,
} from '../../domain/plans/assignment-plans.js'
import type { WebContext } from '../context.js'
import { field, idList } from '../forms.js'
import { idParam, signedIn } from '../guards.js'
import { act, noticeOf, type Notices, type Refusals } from '../notices.js'
import { paths } from '../paths.js'

/** The assignor's reason codes, as the organizer reads them. */
const REASONS: Readonly<Record<string, string>> = {
  schedule_conflict: 'has another game at this time, or too close to it',
  official_unavailable: 'is unavailable at this time',
  daily_limit_reached: 'already has the most games this league allows that day',
  level_too_low: 'has a level below this position’s minimum',
  unconfirmed: 'has not joined the league yet: nothing but its own games of theirs is known',
  unavailable: 'is unavailable at this time',
  planned_elsewhere: 'is planned for another position',
  withdrew: 'turned this game back',
  position_taken: 'someone took the position meanwhile',
  position_not_open: 'the position is not open any more',
  game_started: 'the game has started',
  not_a_league_official: 'is no longer an approved official',
}

type Code =
  | 'assigned'
  | 'published'
  | 'already_published'
  | 'plan_in_progress'
  | 'plan_too_large'
  | 'none_selected'
  | 'removed'
  | 'invalid_window'

const NOTICES: Notices<Code> = {
  assigned: { kind: 'success', text: 'Assigned. The official is emailed the game.' },
  published: { kind: 'success', text: 'Plan published: each official assigned is emailed their games.' },
  already_published: { kind: 'error', text: 'This plan was already published.' },
  none_selected: { kind: 'error', text: 'Select at least one proposal to publish.' },
  invalid_window: {
    kind: 'error',
    text: 'Choose the first and last day of the games to plan, at most 31 days.',
  },
  removed: { kind: 'success', text: 'Proposal removed: its position is left open in this plan.' },
  plan_in_progress: {
    kind: 'error',
    text: 'A plan for this league is being made right now: open it from here in a moment, or try again.',
  },
  plan_too_large: {
    kind: 'error',
    text: 'Too many open positions and officials for one plan: plan a shorter window.',
  },
}

const REFUSALS: Refusals<Code> = {
  plan_already_published: 'already_published',
  plan_in_progress: 'plan_in_progress',
  plan_too_large: 'plan_too_large',
  // A form naming a position the plan does not propose (an old page, a tampered form).
  invalid_positionIds: 'none_selected',
  invalid_remove: 'none_selected',
  invalid_from: 'invalid_window',
  invalid_to: 'invalid_window',
}

export function organizeAssignRoutes(app: FastifyInstance, { deps, sendPage }: WebContext): void {
  app.get(
    paths.leagueAssign.pattern,
    signedIn(async (request, reply, person) => {
      const leagueId = idParam(request, 'leagueId', 'league_not_found')
      const board = await listAssignBoard(deps, person, leagueId)
      const title = `${board.league.name}: assign`
      const options = {
        title,
        nav: 'organize',
        timeZone: board.league.timeZone,
        notice: noticeOf(request, NOTICES),
      } as const
      return sendPage(request, reply, 'organize-assign', options, {
        ...board,
        tab: 'assign',
        reasons: REASONS,
        weekend: comingWeekend(deps.clock.now(), board.league.timeZone),
      })
    }),
  )

  app.post(
    paths.fillAutomatically.pattern,
    signedIn(async (request, reply, person) => {
      const leagueId = idParam(request, 'leagueId', 'league_not_found')
      // The window's local days from the form (the coming weekend by default); a form without them (an
      // older page) plans the next 14 days.
      const days = { from: field(request, 'from'), to: field(request, 'to') }
      const make = () =>
        days.from === '' && days.to === ''
          ? createPlan(deps, person, leagueId, {})
          : createPlanForDays(deps, person, leagueId, days)
      return act(reply, make, {
        done: (plan) => paths.plan.href({ planId: plan.id }),
        back: (notice) => paths.leagueAssign.href({ leagueId }, { notice }),
        refusals: REFUSALS,
      })
    }),
  )

  app.get(
    paths.plan.pattern,
    signedIn(async (request, reply, person) => {
      const planId = idParam(request, 'planId', 'plan_not_found')
      const { league, plan } = await findPlanPage(deps, person, planId)
      const options = {
        title: 'Plan',
        nav: 'organize',
        timeZone: league.timeZone,
        notice: noticeOf(request, NOTICES),
      } as const
      return sendPage(request, reply, 'organize-plan', options, {
        league,
        tab: 'assign',
        plan,
        reasons: REASONS,
      })
    }),
  )

  app.post(
    paths.publishPlan.pattern,
    signedIn(async (request, reply, person) => {
      const planId = idParam(request, 'planId', 'plan_not_found')
      const back = (notice: Code) => paths.plan.href({ planId }, { notice })
      // Publish selected: the proposals ticked (each checked by default); none ticked is a notice.
      const positionIds = idList(request, 'positionId')
      const publish = async (): Promise<Code> => {
        if (positionIds.length > 0) {
          await publishPlan(deps, person, planId, { positionIds })
          return 'published'
        }
        // Read first, so another league's plan still answers Not found.
        await getPlan(deps, person, planId)
        return 'none_selected'
      }
      return act(reply, publish, {
        done: (code) => back(code),
        back,
        refusals: REFUSALS,
      })
    }),
  )

  app.post(
    paths.removeFromPlan.pattern,
    signedIn(async (request, reply, person) => {
      const planId = idParam(request, 'planId', 'plan_not_found')
      const back = (notice: Code) => paths.plan.href({ planId }, { notice })
      // The Remove button of one proposal: its position in `remove`.
      const remove = idList(request, 'remove')
      return act(reply, () => editPlan(deps, person, planId, { remove }), {
        done: () => back('removed'),
        back,
        refusals: REFUSALS,
      })
    }),
  )
}
