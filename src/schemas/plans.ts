// The assignor's shapes (issue 26): candidates for a position, plans, and a publish's outcome.
import { z } from 'zod'
import { DateTime, extension, Id, isStorableText, MAX_LENGTH, optionalBody, PathId } from './common.js'
import { InstantInput } from './games.js'

/** Why an official cannot take a position: a conflict rule's code, or the plan's own reason. */
const ReasonCode = z.string().meta({
  description:
    'A rule that excludes the official: schedule_conflict, official_unavailable, daily_limit_reached, level_too_low; withdrew (they gave this game back: never proposed for it again, though an organizer may still assign them); in a plan also planned_elsewhere (eligible, but every such official fills another position of the plan) and removed (the organizer removed the proposal in an edit). Towards a partner, what the person’s time outside the league excludes is one `unavailable`. `unconfirmed` alone: the person has not joined the league, so nothing else about them is told; `eligible` then says whether the league’s own games and rules let them take it.',
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

/** Where and when the proposal's position is played (issue 36): a plan reads without a game lookup. */
const ProposalGame = z
  .object({
    startsAt: DateTime,
    location: z.string(),
    venue: z.string().nullable(),
    sport: z.string(),
    label: z.string().meta({ description: 'The position’s label (Referee, AR 1, …).' }),
  })
  .meta({ id: 'ProposalGame' })

export const PlanProposal = z
  .object({
    gameId: Id,
    positionId: Id,
    userId: Id,
    name: z.string(),
    startsAt: DateTime,
    label: z.string(),
    game: extension(
      ProposalGame,
      'When and where the position is played, and its label (extension; RefDesk games have no division).',
    ),
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

/** The most positions one publish or edit names: a plan's positions are bounded by plan_too_large. */
const MAX_PLAN_EDITS = 5000

/** An id in a plan's edit or publish: a wrong type or unstorable text answers `code`. */
const IdAnswering = (code: string) =>
  z.string({ error: code }).max(MAX_LENGTH.id, { error: code }).refine(isStorableText, { error: code })

/** A list of a plan's position ids, at most MAX_PLAN_EDITS, refused whole with `code`. */
const PositionIdList = (code: string) =>
  z.array(IdAnswering(code), { error: code }).max(MAX_PLAN_EDITS, { error: code })

export const PublishPlanBody = optionalBody(
  z.object({
    positionIds: extension(
      PositionIdList('invalid_positionIds').min(1, { error: 'invalid_positionIds' }).optional(),
      'Publish only these proposals (their positions’ ids; extension). Default: every proposal. Each must be a proposal of the plan (400 invalid_positionIds); the plan is published either way, and the proposals not named are not assigned.',
    ),
  }),
)

const PlanSet = z.object(
  {
    positionId: IdAnswering('invalid_set').meta({
      description: 'A position of the plan: proposed or unfilled.',
    }),
    userId: IdAnswering('invalid_set').meta({ description: 'One of the league’s approved officials.' }),
  },
  { error: 'invalid_set' },
)

export const EditPlanBody = z.object({
  remove: extension(
    PositionIdList('invalid_remove').optional(),
    'Proposals to drop (their positions’ ids): each becomes unfilled with reason `removed`. Each must be a proposal of the plan (400 invalid_remove).',
  ),
  set: extension(
    z.array(PlanSet, { error: 'invalid_set' }).max(MAX_PLAN_EDITS, { error: 'invalid_set' }).optional(),
    'Officials to propose, in order, after the removals: each checked against every conflict rule, the official’s turnback of the game, and their other proposals of the plan (one position a game, the travel buffer, the daily limit). A refusal answers the rule’s code and changes nothing.',
  ),
})

export type Candidate = z.infer<typeof Candidate>
export type AssignmentPlan = z.infer<typeof AssignmentPlan>
export type PlanProposal = z.infer<typeof PlanProposal>
export type PlanUnfilled = z.infer<typeof PlanUnfilled>
export type PublishOutcome = z.infer<typeof PublishOutcome>
export type CreatePlanInput = z.infer<typeof CreatePlanBody>
export type PublishPlanInput = z.infer<typeof PublishPlanBody>
export type EditPlanInput = z.infer<typeof EditPlanBody>
