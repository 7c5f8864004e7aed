// The assignor (issue 26, docs/assignor.md): plans written as drafts, edited, and
// publishing a plan through the race-safe claim, proposal by proposal, skipping what changed meanwhile.
import type { Kysely } from 'kysely'
import type {
  AssignmentPlan,
  CreatePlanInput,
  EditPlanInput,
  PlanProposal,
  PlanUnfilled,
  PublishOutcome,
  PublishPlanInput,
} from '../../schemas/plans.js'
import * as plans from '../../store/plans.js'
import type { Db, LeagueRow } from '../../store/tables.js'
import type { AssignmentPlanRow } from '../../store/app-tables.js'
import * as users from '../../store/users.js'
import { isoNow, newId } from '../../clock.js'
import { requireGame, requireLeague } from '../core/access.js'
import { claimFor } from '../assignments/assignments.js'
import { planAssignments } from '../assignor/index.js'
import type { Caller } from '../core/caller.js'
import type { Deps } from '../core/deps.js'
import { ApiError, fail } from '../core/errors.js'
import { tellerFor } from './candidates.js'
import { chosenWhy, explainPlan, gameOf } from './plan-explain.js'
import { ruleSettings } from '../availability/conflicts.js'
import {
  distanceKm,
  gamesHeldIn,
  levelMargin,
  loadFacts,
  pairReasons,
  slotFact,
  toProblem,
  type SlotFact,
} from './plan-window.js'
import { DAY_MS, dayAt, dayStart, isDay, iso, nextDay, weekdayOf } from '../../time.js'

const DEFAULT_WINDOW_DAYS = 14
const MAX_WINDOW_DAYS = 31
/**
 * The solver's budget for one plan. Past it the greedy plan answers with `optimal: false`; a weekend of
 * 1,000 positions takes about 5 s of CPU (docs/assignor.md), so a loaded machine still gets the optimum.
 */
const PLAN_DEADLINE_MS = 20_000

/**
 * Leagues with a plan being made in this process: one at a time per league; a second answers 409
 * plan_in_progress (docs/decisions.md). The solver threads are shared by all leagues (SOLVER_WORKERS).
 */
const planning = new Set<string>()

function planWindow(input: CreatePlanInput, now: string): { from: string; to: string } {
  const from = input.from ?? now
  const to = input.to ?? iso(Date.parse(from) + DEFAULT_WINDOW_DAYS * DAY_MS)
  if (to <= from || Date.parse(to) - Date.parse(from) > MAX_WINDOW_DAYS * DAY_MS) fail('invalid_to')
  return { from, to }
}

/**
 * Plans the open positions of the league's games in the window that have not started. The facts are
 * read and the solver runs outside any transaction (a solve takes seconds; a write lock held that long
 * would stall every writer): the plan is a draft, and publishing checks every proposal again.
 */
export async function createPlan(
  deps: Deps,
  caller: Caller,
  leagueId: string,
  input: CreatePlanInput,
): Promise<AssignmentPlan> {
  const now = isoNow(deps.clock)
  const window = planWindow(input, now)
  const league = await requireLeague(deps.db, caller, leagueId)
  // Checked and taken in one turn after the scope check: only a caller who sees the league learns that
  // a plan is being made for it.
  if (planning.has(league.id)) fail('plan_in_progress')
  planning.add(league.id)
  try {
    return await makePlan(deps, caller, league, window, now)
  } finally {
    planning.delete(league.id)
  }
}

/**
 * The app's Fill automatically: a plan of the league's local days `from` to `to`, both included, each
 * a `YYYY-MM-DD` (refused with invalid_from / invalid_to otherwise).
 */
export async function createPlanForDays(
  deps: Deps,
  caller: Caller,
  leagueId: string,
  days: { from: string; to: string },
): Promise<AssignmentPlan> {
  const league = await requireLeague(deps.db, caller, leagueId)
  if (!isDay(days.from)) fail('invalid_from')
  if (!isDay(days.to)) fail('invalid_to')
  const zone = ruleSettings(league).timeZone
  const window = { from: dayStart(days.from, zone), to: dayStart(nextDay(days.to), zone) }
  return createPlan(deps, caller, leagueId, window)
}

/**
 * The weekend not yet over in the zone: the coming Saturday and Sunday, or this one while it lasts
 * (on a Sunday, yesterday and today: games that have started are never planned).
 */
export function comingWeekend(now: number, timeZone: string): { from: string; to: string } {
  let day = dayAt(now, timeZone)
  if (weekdayOf(day) === 7) day = iso(Date.parse(`${day}T00:00:00.000Z`) - DAY_MS).slice(0, 10)
  while (weekdayOf(day) !== 6) day = nextDay(day)
  return { from: day, to: nextDay(day) }
}

async function makePlan(
  deps: Deps,
  caller: Caller,
  league: LeagueRow,
  window: { from: string; to: string },
  now: string,
): Promise<AssignmentPlan> {
  const rules = ruleSettings(league)
  const open = await plans.listOpenSlots(deps.db, league.id, {
    from: window.from > now ? window.from : now,
    to: window.to,
  })
  const pool = await plans.listPool(deps.db, league.id)
  if (open.length * pool.length > deps.limits.planPairs) fail('plan_too_large')
  const slots = open.map((row) => slotFact(row, rules))
  const facts = await loadFacts(deps.db, league, slots, rules, pool)
  const span = { from: Date.parse(window.from), to: Date.parse(window.to) }
  const solved = await planAssignments(await toProblem(facts, span), { deadlineMs: PLAN_DEADLINE_MS })
  const { proposals, unfilled } = await explainPlan(facts, solved, tellerFor(caller, facts))
  const row: Omit<AssignmentPlanRow, 'seq'> = {
    id: newId(),
    league_id: league.id,
    status: 'draft',
    from_at: window.from,
    to_at: window.to,
    proposals: JSON.stringify(proposals),
    unfilled: JSON.stringify(unfilled),
    stats: JSON.stringify(solved.stats),
    outcome: null,
    created_at: isoNow(deps.clock),
    published_at: null,
  }
  await deps.db.transaction().execute(async (trx) => {
    await requireLeague(trx, caller, league.id)
    await plans.insertPlan(trx, row)
    await plans.pruneDrafts(trx, league.id, deps.limits.draftsKept)
  })
  return toPlan(row)
}

/** An unfilled position as stored: plans written before issue 36 have reasons without `count`. */
type StoredUnfilled = Omit<AssignmentPlan['unfilled'][number], 'reasons'> & {
  reasons: { code: string; count?: number; userIds: string[] }[]
}

function toPlan(row: Omit<AssignmentPlanRow, 'seq'>): AssignmentPlan {
  const unfilled = (JSON.parse(row.unfilled) as StoredUnfilled[]).map((u) => ({
    ...u,
    reasons: u.reasons.map((r) => ({ ...r, count: r.count ?? r.userIds.length })),
  }))
  return {
    id: row.id,
    leagueId: row.league_id,
    status: row.status,
    from: row.from_at,
    to: row.to_at,
    proposals: JSON.parse(row.proposals) as AssignmentPlan['proposals'],
    unfilled,
    // A plan made before leads were weighed counts none.
    stats: {
      leads: 0,
      leadsFilled: 0,
      ...(JSON.parse(row.stats) as Partial<AssignmentPlan['stats']>),
    } as AssignmentPlan['stats'],
    createdAt: row.created_at,
    publishedAt: row.published_at,
    outcome: row.outcome === null ? null : (JSON.parse(row.outcome) as PublishOutcome),
  }
}

/** A plan of a league in the caller's scope; any other reads as one that does not exist. */
async function requirePlan(db: Kysely<Db>, caller: Caller, planId: string) {
  const row = (await plans.findPlan(db, planId)) ?? fail('plan_not_found')
  try {
    return { row, league: await requireLeague(db, caller, row.league_id) }
  } catch (error) {
    if (error instanceof ApiError && error.code === 'league_not_found') fail('plan_not_found')
    throw error
  }
}

export async function getPlan(deps: Deps, caller: Caller, planId: string): Promise<AssignmentPlan> {
  const { row, league } = await requirePlan(deps.db, caller, planId)
  return withGames(deps.db, league, toPlan(row))
}

/** A plan stored before proposals carried their game gets it from the games as they are now. */
async function withGames(db: Kysely<Db>, league: LeagueRow, plan: AssignmentPlan): Promise<AssignmentPlan> {
  const missing = plan.proposals.filter((p) => (p as Partial<PlanProposal>).game === undefined)
  if (missing.length === 0) return plan
  const rules = ruleSettings(league)
  const found = await plans.listPlanSlots(
    db,
    league.id,
    missing.map((p) => p.positionId),
  )
  const slots = new Map(found.map((row) => [row.position_id, slotFact(row, rules)]))
  const proposals = plan.proposals.map((p) => {
    if ((p as Partial<PlanProposal>).game !== undefined) return p
    const slot = slots.get(p.positionId)
    const game = slot
      ? gameOf(slot)
      : { startsAt: p.startsAt, location: '', venue: null, sport: '', label: p.label }
    return { ...p, game }
  })
  return { ...plan, proposals }
}

/**
 * Publishes a draft once: each proposal (or only those `positionIds` names), soonest first, through the
 * race-safe claim in its own transaction, where the conflict rules are checked again against what the
 * official holds now. A proposal that is no longer valid (taken, closed, started, now in conflict) is
 * skipped with its code, never forced. The plan is published either way: the proposals not named stay
 * unassigned, and a new plan proposes for their positions again (docs/decisions.md).
 */
export async function publishPlan(
  deps: Deps,
  caller: Caller,
  planId: string,
  input: PublishPlanInput = {},
): Promise<PublishOutcome> {
  const { row, league } = await deps.db.transaction().execute(async (trx) => {
    const found = await requirePlan(trx, caller, planId)
    const proposed = new Set(toPlan(found.row).proposals.map((p) => p.positionId))
    if (input.positionIds?.some((id) => !proposed.has(id))) fail('invalid_positionIds')
    if (!(await plans.markPublished(trx, planId, isoNow(deps.clock)))) fail('plan_already_published')
    return found
  })
  const chosen = input.positionIds && new Set(input.positionIds)
  const outcome: PublishOutcome = { assigned: [], skipped: [] }
  for (const proposal of toPlan(row).proposals) {
    if (chosen && !chosen.has(proposal.positionId)) continue
    try {
      await publishProposal(deps, caller, league, proposal)
      outcome.assigned.push(proposal.positionId)
    } catch (error) {
      if (!(error instanceof ApiError)) throw error
      outcome.skipped.push({ positionId: proposal.positionId, error: error.code })
    }
  }
  await plans.setOutcome(deps.db, planId, JSON.stringify(outcome))
  return outcome
}

/**
 * Edits a draft: the removals, then each `set` in order, checked as the solver's pairs are (every
 * conflict rule with the league's settings, the official's turnback of the game) and against the
 * official's other proposals of the plan as if they held them (one position a game, the travel buffer,
 * the daily limit). The first refusal answers its code and nothing is changed. Publishing checks every
 * proposal again against what is held then.
 */
export async function editPlan(
  deps: Deps,
  caller: Caller,
  planId: string,
  input: EditPlanInput,
): Promise<AssignmentPlan> {
  const { row, league } = await requirePlan(deps.db, caller, planId)
  if (row.status !== 'draft') fail('plan_already_published')
  const plan = toPlan(row)
  const proposals = new Map(plan.proposals.map((p) => [p.positionId, p]))
  const unfilled = new Map(plan.unfilled.map((u) => [u.positionId, u]))
  const remove = input.remove ?? []
  const set = input.set ?? []
  if (remove.some((id) => !proposals.has(id))) fail('invalid_remove')
  const setIds = set.map((s) => s.positionId)
  if (setIds.some((id) => !proposals.has(id) && !unfilled.has(id)) || new Set(setIds).size < setIds.length)
    fail('invalid_set')
  const rules = ruleSettings(league)
  const rows = await plans.listPlanSlots(deps.db, league.id, [...proposals.keys(), ...unfilled.keys()])
  const slots = new Map(rows.map((r) => [r.position_id, slotFact(r, rules)]))
  const order = new Map(rows.map((r, i) => [r.position_id, i]))
  if (setIds.some((id) => !slots.has(id))) fail('invalid_set')
  const pool = await plans.listPool(deps.db, league.id)
  const officials = new Map(pool.map((o) => [o.user_id, o]))
  if (set.some((s) => !officials.has(s.userId))) fail('not_a_league_official')
  const facts = await loadFacts(deps.db, league, [...slots.values()], rules, pool)
  const span = { from: Date.parse(plan.from), to: Date.parse(plan.to) }

  for (const positionId of remove) {
    const was = proposals.get(positionId)!
    proposals.delete(positionId)
    const reasons = [{ code: 'removed', count: 0, userIds: [] }]
    unfilled.set(positionId, { ...pick(was), reasons })
  }
  for (const { positionId, userId } of set) {
    const slot = slots.get(positionId)!
    const official = facts.officials.find((o) => o.userId === userId)!
    // The official's other proposals of the plan, as if they held them already.
    const planned: SlotFact[] = [...proposals.values()]
      .filter((p) => p.userId === userId && p.positionId !== positionId)
      .flatMap((p) => slots.get(p.positionId) ?? [])
    const held = [...(facts.held.get(official.email) ?? []), ...planned]
    const reason = pairReasons({ ...facts, held: new Map([[official.email, held]]) }, slot, official)[0]
    if (reason) fail(reason)
    const eligible = facts.officials.filter((o) => pairReasons(facts, slot, o).length === 0).length
    const terms = {
      levelMargin: levelMargin(slot, official),
      distanceKm: distanceKm(official.home, slot.point),
      gamesHeld: gamesHeldIn(facts, official, span).length,
      gamesPlanned: planned.filter((p) => p.start >= span.from && p.start < span.to).length + 1,
      eligibleOfficials: eligible,
      onlyEligible: eligible === 1,
    }
    unfilled.delete(positionId)
    proposals.set(positionId, {
      gameId: slot.gameId,
      positionId,
      userId,
      name: official.name,
      startsAt: slot.startsAt,
      label: slot.label,
      game: gameOf(slot),
      why: chosenWhy(terms),
      terms,
    })
  }

  const byOrder = (a: { positionId: string }, b: { positionId: string }) =>
    (order.get(a.positionId) ?? -1) - (order.get(b.positionId) ?? -1)
  const edited = {
    proposals: [...proposals.values()].sort(byOrder),
    unfilled: [...unfilled.values()].sort(byOrder),
    stats: {
      ...plan.stats,
      filled: proposals.size,
      leadsFilled: [...proposals.keys()].filter((id) => slots.get(id)?.lead).length,
    },
  }
  const parts = {
    proposals: JSON.stringify(edited.proposals),
    unfilled: JSON.stringify(edited.unfilled),
    stats: JSON.stringify(edited.stats),
  }
  if (!(await plans.updateDraft(deps.db, planId, row.proposals, parts))) {
    const now = await plans.findPlan(deps.db, planId)
    fail(now?.status === 'published' ? 'plan_already_published' : 'plan_changed')
  }
  return withGames(deps.db, league, toPlan({ ...row, ...parts }))
}

const pick = (p: PlanProposal): Omit<PlanUnfilled, 'reasons'> => ({
  gameId: p.gameId,
  positionId: p.positionId,
  startsAt: p.startsAt,
  label: p.label,
})

async function publishProposal(
  deps: Deps,
  caller: Caller,
  league: LeagueRow,
  proposal: { gameId: string; positionId: string; userId: string },
): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const game = await requireGame(trx, caller, proposal.gameId)
    const at = isoNow(deps.clock)
    const user = (await users.findUser(trx, proposal.userId)) ?? fail('official_not_found')
    // As an in-app claim: a game that has started is refused under the game's lock.
    const claim = { leagueId: league.id, gameId: game.id, positionId: proposal.positionId, user, inApp: true }
    // The organizer's assign, never forced: every conflict rule is checked again against what the official
    // holds now. A published plan gives the official the game: they get their `assigned` mail.
    await claimFor(trx, deps, { ...claim, by: 'organizer', byThemselves: false }, at)
  })
}
