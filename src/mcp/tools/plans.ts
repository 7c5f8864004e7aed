// The assignor's tools (issue 26): what an agent needs to staff a game day. Suggest officials for one
// position, plan a window as a draft, read it again, publish it after showing the user the preview.
import { z } from 'zod'
import {
  createPlanOperation,
  getPlanOperation,
  listCandidatesOperation,
  publishPlanOperation,
} from '../../operations/plans.js'
import { PlanProposal, type AssignmentPlan } from '../../schemas/plans.js'
import { DESTRUCTIVE, NEXT_STEP, READ, WRITE, read, refuse, segment, type ToolSpec } from '../tool.js'

const PublishPreview = z.object({
  planId: z.string(),
  leagueId: z.string(),
  from: z.string(),
  to: z.string(),
  wouldAssign: z.array(PlanProposal),
  unfilled: z.number().int().meta({ description: 'Positions the plan leaves open.' }),
  next: z.string(),
})

export const planTools: ToolSpec[] = [
  {
    name: 'suggest_officials',
    title: 'Suggest officials for a position',
    description:
      'Ranks the league’s approved officials for one position of a game: eligible ones first, best first (level above the position’s minimum, distance from home, games already held that week), each excluded one with the rule codes that exclude them. Use it to replace an official who turned back, or to pick by hand; then assign with refdesk_assign_position. Needs gameId (from refdesk_list_games); positionId from refdesk_get_game (default: the first open one).',
    annotations: READ,
    operation: listCandidatesOperation,
  },
  {
    name: 'plan_assignments',
    title: 'Plan the assigning of a window',
    description:
      'Computes a draft plan for the open positions of a league’s games starting in [from, to) (ISO 8601; default the next 14 days; for “fill Saturday” send that day’s local midnight to the next). It fills as many positions as any rule-abiding assignment could, then prefers level margin, short travel and an even spread. Nothing is assigned: show the user the proposals (each with `why`) and the unfilled positions (each with the rules that excluded which officials), then call refdesk_publish_plan with the plan’s id. Needs leagueId (from refdesk_list_leagues).',
    annotations: WRITE,
    operation: createPlanOperation,
  },
  {
    name: 'get_plan',
    title: 'Read an assignment plan again',
    description:
      'Reads a plan made by refdesk_plan_assignments: its proposals (each with its game’s time, place, venue, sport and the position’s label, and `why`), the positions left open with the rules that excluded whom, its stats, and once published what was assigned and skipped. Use it to show the user a plan again before refdesk_publish_plan, or to see how a publish went. Needs planId.',
    annotations: READ,
    operation: getPlanOperation,
  },
  {
    name: 'publish_plan',
    title: 'Publish an assignment plan',
    description: [
      'Assigns every proposal of a draft plan (from refdesk_plan_assignments), or only those whose positions positionIds names, soonest first, each through the race-safe assign: a proposal no longer valid (position taken meanwhile, official now in conflict, game started) is skipped with its error, never forced. A plan publishes once, also when positionIds named only some of its proposals (the others are not assigned).',
      'Without confirm: true nothing changes and the result is a preview listing what would be assigned. Show it to the user, then repeat with confirm: true.',
    ].join('\n'),
    annotations: DESTRUCTIVE,
    operation: publishPlanOperation,
    preview: {
      schema: PublishPreview,
      async build(args, forward) {
        const plan = await read<AssignmentPlan>(forward, {
          operation: getPlanOperation,
          params: { planId: segment(args.planId) },
        })
        if (plan.status !== 'draft') refuse('plan_already_published')
        const chosen = Array.isArray(args.positionIds) ? new Set(args.positionIds as string[]) : null
        if (chosen && [...chosen].some((id) => !plan.proposals.some((p) => p.positionId === id)))
          refuse('invalid_positionIds')
        return {
          planId: plan.id,
          leagueId: plan.leagueId,
          from: plan.from,
          to: plan.to,
          wouldAssign: chosen ? plan.proposals.filter((p) => chosen.has(p.positionId)) : plan.proposals,
          unfilled: plan.unfilled.length,
          next: NEXT_STEP,
        }
      },
    },
  },
]
