// `refdesk app`: the in-app actions of organizers and officials, which have no partner endpoint. They run
// through the same domain services as the API, so they emit the same webhook events.
import { Command, Option } from 'commander'
import { assignOfficial, assignPosition, withdrawClaim } from '../../domain/assignments/assignments.js'
import { createPlan, publishPlan } from '../../domain/plans/assignment-plans.js'
import { addBlackout, getAvailability, ownerByEmail } from '../../domain/availability/availability.js'
import { CONSOLE_CALLER } from '../../domain/core/caller.js'
import {
  CHARGE_STATUSES,
  simulatedProcessor,
  type SimulatedOutcome,
} from '../../domain/core/payment-processor.js'
import { joinersByEmail, joinLeague } from '../../domain/leagues/consent.js'
import { approveOfficial, denyOfficial } from '../../domain/leagues/officials.js'
import { chargePayment, completeGame, markNoShow, markPaid } from '../../domain/payments/payments.js'
import type { Deps } from '../../domain/core/deps.js'
import { issueSignInLink } from '../../domain/people/sign-in-links.js'
import { loadConfig } from '../../config.js'
import { fail } from '../../domain/core/errors.js'
import { parseStartsAt } from '../../schemas/games.js'
import { printJson, printLine } from '../output.js'
import { databaseOption, withRuntime, type DatabaseFlags } from '../runtime.js'

/** Runs one action and prints its record; a refusal surfaces as `{"error":"<code>"}` on stderr. */
function act(flags: DatabaseFlags, action: (deps: Deps) => Promise<unknown>, runtime = {}): Promise<void> {
  return withRuntime(flags, async ({ deps }) => printJson(await action(deps)), runtime)
}

export function appCommand(): Command {
  const app = new Command('app')
    .summary(
      'in-app actions: claim, withdraw, assign, complete, no-show, pay, charge, approve, deny, join, sign-in-link, blackout, availability',
    )
    .description(
      'Perform the actions of organizers and officials that the partner API does not expose. Each prints ' +
        'the resulting record as JSON on stdout and emits the same webhook events as the application. ' +
        'An action the current state forbids prints {"error":"<code>"} on stderr and exits with status 1.',
    )
  addOfficialActions(app)
  addOrganizerActions(app)
  addAssignorActions(app)
  addSignInLink(app)
  addAvailability(app)
  addJoin(app)
  return app
}

/** What an official does: claim an open position, withdraw from one. */
function addOfficialActions(app: Command): void {
  app
    .command('claim')
    .summary('an approved official claims an open position (event position.claimed)')
    .description(
      'An approved official of the game’s league claims a position: the given one, else the first open ' +
        'one their level qualifies for (else the first open one, refused with level_too_low). Prints the GameDetail. Emits position.claimed.',
    )
    .argument('<gameId>', 'the game')
    .argument('<userId>', 'the official’s user id')
    .option(
      '--position <positionId>',
      'the position to claim (default: the first open one the official qualifies for)',
    )
    .addOption(databaseOption())
    .action((gameId: string, userId: string, flags: DatabaseFlags & { position?: string }) =>
      act(flags, (deps) =>
        assignPosition(deps, CONSOLE_CALLER, gameId, {
          userId,
          ...(flags.position !== undefined && { positionId: flags.position }),
        }),
      ),
    )

  app
    .command('assign')
    .summary('the organizer assigns an approved official to a position (event position.claimed)')
    .description(
      'The league’s organizer gives a position to an approved official: the given one, else the first open ' +
        'one their level qualifies for. The official is mailed (assigned). The conflict rules refuse as in the app; --force assigns ' +
        'anyway (never past level_too_low). Prints the GameDetail. Emits position.claimed.',
    )
    .argument('<gameId>', 'the game')
    .argument('<userId>', 'the official’s user id')
    .option(
      '--position <positionId>',
      'the position to fill (default: the first open one the official qualifies for)',
    )
    .option('--force', 'assign despite a schedule, availability or daily-limit conflict')
    .addOption(databaseOption())
    .action((gameId: string, userId: string, flags: DatabaseFlags & { position?: string; force?: boolean }) =>
      act(flags, (deps) =>
        assignOfficial(deps, CONSOLE_CALLER, gameId, {
          userId,
          positionId: flags.position,
          force: flags.force === true,
        }),
      ),
    )

  app
    .command('withdraw')
    .summary('the official withdraws a claim; the position reopens (event position.withdrawn)')
    .description(
      'The official withdraws from a claimed position: the claim is deleted and the position reopens. Prints the GameDetail. Emits position.withdrawn; the organizer gets a turnback mail.',
    )
    .argument('<positionId>', 'the claimed position')
    .addOption(databaseOption())
    .action((positionId: string, flags: DatabaseFlags) =>
      act(flags, (deps) => withdrawClaim(deps, CONSOLE_CALLER, positionId)),
    )
}

/** What an organizer does: complete games, record no-shows, settle payments, approve or deny officials. */
function addOrganizerActions(app: Command): void {
  app
    .command('complete')
    .summary('the organizer completes a fully claimed game; payments are created (event game.completed)')
    .description(
      'The organizer marks a game complete. The game must be claimed (every slot that is not cancelled ' +
        'is filled). Each claimed position becomes completed and gets one pending payment in the league’s ' +
        'paymentMode and currency, for the position’s pay. Prints the GameDetail. Emits game.completed.',
    )
    .argument('<gameId>', 'the game')
    .addOption(databaseOption())
    .action((gameId: string, flags: DatabaseFlags) =>
      act(flags, (deps) => completeGame(deps, CONSOLE_CALLER, gameId)),
    )

  app
    .command('no-show')
    .summary('the organizer records a no-show on a worked position (event official.no_show)')
    .description(
      'The organizer records that the official did not work a position of a completed game. The position ' +
        'becomes cancelled, unpaid; the claim is kept as the record. Its payment is removed unless it is ' +
        'already processing or paid. Prints the GameDetail. Emits official.no_show.',
    )
    .argument('<positionId>', 'a completed position')
    .addOption(databaseOption())
    .action((positionId: string, flags: DatabaseFlags) =>
      act(flags, (deps) => markNoShow(deps, CONSOLE_CALLER, positionId)),
    )

  app
    .command('pay')
    .summary('the organizer marks an offline payment paid (event payment.paid)')
    .description(
      'The organizer records that an offline payment was settled outside RefDesk: pending → paid, with ' +
        'paidAt set. Prints the Payment. Emits payment.paid.',
    )
    .argument('<paymentId>', 'a pending offline payment')
    .addOption(databaseOption())
    .action((paymentId: string, flags: DatabaseFlags) =>
      act(flags, (deps) => markPaid(deps, CONSOLE_CALLER, paymentId)),
    )

  app
    .command('charge')
    .summary('charge a platform payment through the payment processor (payment.paid / payment.failed)')
    .description(
      'Charge a platform payment (pending, requires_card or failed) through the payment processor: ' +
        'processing, then paid (event payment.paid), failed (event payment.failed) or requires_card (no ' +
        'event). Prints the Payment. A payment left processing by a crash is never charged again; see ' +
        'docs/payments.md.',
    )
    .argument('<paymentId>', 'a platform payment')
    .addOption(
      new Option(
        '--outcome <outcome>',
        'settle through the simulated processor with this outcome, for development and tests (without it: ' +
          'the configured processor, which is the simulator answering paid until a real one is wired in)',
      ).choices(CHARGE_STATUSES),
    )
    .addOption(databaseOption())
    .action((paymentId: string, flags: DatabaseFlags & { outcome?: SimulatedOutcome }) =>
      act(
        flags,
        (deps) => chargePayment(deps, CONSOLE_CALLER, paymentId),
        flags.outcome === undefined ? {} : { paymentProcessor: simulatedProcessor(flags.outcome) },
      ),
    )

  app
    .command('approve')
    .summary('the organizer approves an official’s membership (event official.approved)')
    .description(
      'The organizer approves a pending or denied official of the league: its status becomes approved and ' +
        'the official can claim the league’s games. Prints the Official. Emits official.approved, as a ' +
        'partner’s re-approval does; approving an approved official changes nothing and emits nothing.',
    )
    .argument('<leagueId>', 'the league')
    .argument('<userId>', 'the official’s user id')
    .addOption(databaseOption())
    .action((leagueId: string, userId: string, flags: DatabaseFlags) =>
      act(flags, (deps) => approveOfficial(deps, CONSOLE_CALLER, leagueId, userId)),
    )

  app
    .command('deny')
    .summary('the organizer denies an official’s membership (no event)')
    .description(
      'The organizer denies an official’s league membership: its status becomes denied, and the official ' +
        'can no longer be assigned. Claims already held are kept. Prints the Official. No event.',
    )
    .argument('<leagueId>', 'the league')
    .argument('<userId>', 'the official’s user id')
    .addOption(databaseOption())
    .action((leagueId: string, userId: string, flags: DatabaseFlags) =>
      act(flags, (deps) => denyOfficial(deps, CONSOLE_CALLER, leagueId, userId)),
    )
}

/** The assignor: plan a window as a draft, publish a plan. */
function addAssignorActions(app: Command): void {
  app
    .command('plan')
    .summary('plan the open positions of a league’s window as a draft (nothing is assigned)')
    .description(
      'The assignor’s plan for the open positions of the league’s games starting in [from, to) (default: ' +
        'now and 14 days later): as many positions filled as any rule-abiding assignment could, each ' +
        'proposal with why, each unfilled position with the rules that left it open. Prints the Plan.',
    )
    .argument('<leagueId>', 'the league')
    .option('--from <iso>', 'start of the window (ISO 8601)')
    .option('--to <iso>', 'end of the window (ISO 8601)')
    .addOption(databaseOption())
    .action((leagueId: string, flags: DatabaseFlags & { from?: string; to?: string }) =>
      act(flags, (deps) =>
        createPlan(deps, CONSOLE_CALLER, leagueId, {
          ...(flags.from !== undefined && { from: parseWindowEnd(flags.from, 'invalid_from') }),
          ...(flags.to !== undefined && { to: parseWindowEnd(flags.to, 'invalid_to') }),
        }),
      ),
    )

  app
    .command('publish')
    .summary('publish a draft plan: each proposal through the race-safe assign (event position.claimed)')
    .description(
      'Assigns each proposal of the plan, soonest first; one no longer valid is skipped with its error, ' +
        'never forced. Prints {assigned, skipped}. Emits position.claimed per assignment.',
    )
    .argument('<planId>', 'the plan')
    .addOption(databaseOption())
    .action((planId: string, flags: DatabaseFlags) =>
      act(flags, (deps) => publishPlan(deps, CONSOLE_CALLER, planId)),
    )
}

function parseWindowEnd(value: string, code: 'invalid_from' | 'invalid_to'): string {
  return parseStartsAt(value) ?? fail(code)
}

/** What an operator does for someone without mail: hand them a sign-in link. */
function addSignInLink(app: Command): void {
  app
    .command('sign-in-link')
    .summary('print a one-time sign-in link to the app for a person (operators without SMTP)')
    .description(
      'Make a sign-in link for the app at /app/ for the person with this email address (every user row ' +
        'carrying it, in any source). The link works once, within 15 minutes; only its hash is stored. It ' +
        'is printed alone on the last line of stdout, built from $REFDESK_PUBLIC_URL (default ' +
        'http://localhost:$PORT). An address no user has prints {"error":"account_not_found"} on stderr.',
    )
    .requiredOption('--email <email>', 'the person’s email address')
    .addOption(databaseOption())
    .action(async (flags: DatabaseFlags & { email: string }) => {
      const config = loadConfig({
        flags: { ...(flags.database !== undefined && { database: flags.database }) },
      })
      const token = await withRuntime(flags, ({ deps }) => issueSignInLink(deps, flags.email))
      const publicUrl = config.app.publicUrl ?? `http://localhost:${config.port}`
      process.stderr.write('Give this link to its owner only: it signs them in, once, within 15 minutes.\n')
      printLine(`${publicUrl}/app/sign-in/link?token=${token}`)
    })
}

/** A person's availability, by address: what the Availability page does, for operators and tests. */
function addAvailability(app: Command): void {
  app
    .command('blackout')
    .summary('add a blackout to a person’s availability (no event)')
    .description(
      'The person with this email address is unavailable from --from to --to: two days (YYYY-MM-DD) block ' +
        'whole days, first to last; date-times block [from, to), read in the person’s time zone when they ' +
        'carry no offset. Prints the blackout. An address no user has prints {"error":"account_not_found"}.',
    )
    .requiredOption('--email <email>', 'the person’s email address')
    .requiredOption('--from <iso>', 'a day (YYYY-MM-DD) or an ISO date-time')
    .requiredOption('--to <iso>', 'a day (YYYY-MM-DD, included) or an ISO date-time (excluded)')
    .addOption(databaseOption())
    .action((flags: DatabaseFlags & { email: string; from: string; to: string }) =>
      act(flags, async (deps) =>
        addBlackout(deps, await ownerByEmail(deps, flags.email), { from: flags.from, to: flags.to }),
      ),
    )

  app
    .command('availability')
    .summary('print a person’s availability: {blackouts, weekly, calendars}')
    .description(
      'Prints the availability of the person with this email address as JSON: {blackouts, weekly, ' +
        'calendars}, as their Availability page shows it.',
    )
    .requiredOption('--email <email>', 'the person’s email address')
    .addOption(databaseOption())
    .action((flags: DatabaseFlags & { email: string }) =>
      act(flags, async (deps) => getAvailability(deps, await ownerByEmail(deps, flags.email))),
    )
}

/** A person joins a league (DESIGN "Consent"): what Join on their Leagues page does, for operators and tests. */
function addJoin(app: Command): void {
  app
    .command('join')
    .summary('persons join a league they were added to: their memberships become confirmed (no event)')
    .description(
      'Each person with an --email address joins the league: their official memberships of it become ' +
        'confirmed, so the league sees their availability, home point and games in other leagues they ' +
        'joined. The membership status is unchanged. Prints the memberships as Officials (JSON). A person ' +
        'with no membership there prints {"error":"league_not_found"}, an unknown address ' +
        '{"error":"account_not_found"}; then nobody joins.',
    )
    .argument('<leagueId>', 'the league')
    .requiredOption(
      '--email <email>',
      'a person’s email address (repeat for several)',
      (value: string, previous: string[]) => [...previous, value],
      [],
    )
    .addOption(databaseOption())
    .action((leagueId: string, flags: DatabaseFlags & { email: string[] }) =>
      act(flags, async (deps) => joinLeague(deps, await joinersByEmail(deps, flags.email), leagueId)),
    )
}
