// The assignor's shapes (issue 26): candidates for a position, plans, and a publish's outcome.
import { z } from 'zod'
import { DateTime, extension, Id, isStorableText, MAX_LENGTH, PathId } from './common.js'
import { InstantInput } from './games.js'

/** Why an official cannot take a position: a conflict rule's code, or the plan's own reason. */
const ReasonCode = z.string().meta({
  description:
    'A rule that excludes the official: schedule_conflict, official_unavailable, daily_limit_reached, level_too_low; withdrew (they gave this game back: never proposed for it again, though an organizer may still assign them); in a plan also planned_elsewhere (eligible, but every such official fills another position of the plan). Towards a partner, what the person’s time outside the league excludes is one `unavailable`. `unconfirmed` alone: the person has not joined the league, so nothing else about them is told; `eligible` then says whether the league’s own games and rules let them take it.',
  example: 'schedule_conflict',
})

export const Candidate = z
  .object({
    userId: Id,
    name: z.string(),
    level: z.number().int().nullable(),
    eligible: z.boolean(),
    reasons: z.array(ReasonCode),
    gamesInWindow: z
      .number()
      .int()
      .meta({ description: 'Positions they hold in this league within 7 days either side of the game.' }),
    distanceKm: z.number().nullable().meta({
      description:
        'Great-circle km from their home point to the game, to the whole km; null when either is unknown or the person has not joined the league.',
    }),
  })
  .meta({ id: 'Candidate' })

export const CandidatesQuery = z.object({
  positionId: z
    .string({ error: 'position_not_found' })
    .max(MAX_LENGTH.id, { error: 'position_not_found' })
    .refine(isStorableText, { error: 'position_not_found' })
    .optional()
    .meta({ description: 'The position; default: the game’s first open one, else its first.' }),
})

/** What decided a proposal, as numbers an agent can weigh. */
const ProposalTerms = z
  .object({
    levelMargin: z.number().int(),
    distanceKm: z.number().nullable(),
    gamesHeld: z.number().int(),
    gamesPlanned: z.number().int(),
    eligibleOfficials: z.number().int(),
    onlyEligible: z.boolean(),
  })
  .meta({ id: 'ProposalTerms' })

export const PlanProposal = z
  .object({
    gameId: Id,
    positionId: Id,
    userId: Id,
    name: z.string(),
    startsAt: DateTime,
    label: z.string(),
    why: z.string().meta({ description: 'The deciding terms, in words.' }),
    terms: ProposalTerms,
  })
  .meta({ id: 'PlanProposal' })

/** Officials named per reason of an unfilled position: the answer stays bounded whatever the pool. */
export const REASON_IDS = 20

const UnfilledReason = z
  .object({
    code: ReasonCode,
    count: extension(z.number().int(), 'How many of the league’s officials this rule excluded (extension).'),
    userIds: extension(
      z.array(Id),
      `The officials this rule excluded: the first ${REASON_IDS} of them in the league’s order of membership (bounded by ${REASON_IDS}, extension); \`count\` says how many there are.`,
    ),
  })
  .meta({ id: 'UnfilledReason' })

export const PlanUnfilled = z
  .object({
    gameId: Id,
    positionId: Id,
    startsAt: DateTime,
    label: z.string(),
    reasons: z.array(UnfilledReason),
  })
  .meta({ id: 'PlanUnfilled' })

const PlanStats = z
  .object({
    positions: z.number().int(),
    filled: z.number().int(),
    leads: z.number().int().meta({
      description:
        "Positions planned that are their game's lead (its first position, in creation order, that is not cancelled).",
    }),
    leadsFilled: z.number().int().meta({
      description:
        'Leads the plan fills: among plans that fill the most positions, the plan fills the most leads.',
    }),
    optimal: z.boolean(),
    solveMs: z.number().int(),
  })
  .meta({ id: 'PlanStats' })

export const PublishOutcome = z
  .object({
    assigned: z.array(Id),
    skipped: z.array(z.object({ positionId: Id, error: z.string() })),
  })
  .meta({ id: 'PublishOutcome' })

export const AssignmentPlan = z
  .object({
    id: Id,
    leagueId: Id,
    status: z.enum(['draft', 'published']),
    from: DateTime,
    to: DateTime,
    proposals: z.array(PlanProposal),
    unfilled: z.array(PlanUnfilled),
    stats: PlanStats,
    createdAt: DateTime,
    publishedAt: DateTime.nullable(),
    outcome: PublishOutcome.nullable(),
  })
  .meta({ id: 'AssignmentPlan' })

export const CreatePlanBody = z.object({
  from: InstantInput('from')
    .optional()
    .meta({ description: 'Start of the window (default: now). Only games that have not started count.' }),
  to: InstantInput('to')
    .optional()
    .meta({ description: 'End of the window (default: 14 days after from); at most 31 days after from.' }),
})

export const PlanParams = z.object({ planId: PathId('plan_not_found') })

export type Candidate = z.infer<typeof Candidate>
export type AssignmentPlan = z.infer<typeof AssignmentPlan>
export type PlanProposal = z.infer<typeof PlanProposal>
export type PlanUnfilled = z.infer<typeof PlanUnfilled>
export type PublishOutcome = z.infer<typeof PublishOutcome>
export type CreatePlanInput = z.infer<typeof CreatePlanBody>
