// The organizer's payouts: the league's ledger (filtered by status, a page at a time) with its totals, Mark
// paid one at a time or for a selection at once, Charge behind a page that says what it will do, Charge
// selected, Select all (a link: the page works without script), totals per official, and the ledger as CSV.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Person } from '../../domain/people/sessions.js'
import { ApiError } from '../../domain/core/errors.js'
import {
  exportLedger,
  findLedgerLine,
  listLedger,
  type LedgerLine,
} from '../../domain/pages/organize-payouts.js'
import { CHARGE_STATUSES } from '../../domain/core/payment-processor.js'
import {
  chargePayment,
  markPaid,
  markPaymentsPaid,
  withSimulatedOutcome,
} from '../../domain/payments/payments.js'
import { chargeSelected, previewPayments } from '../../domain/payments/season-close.js'
import { requireOrganizedLeague } from '../../domain/pages/organize.js'
import { PaymentStatus } from '../../schemas/payments.js'
import { batchOf, batchQuery } from '../batch.js'
import { confirmed, sendBatchConfirmation } from '../confirm-batch.js'
import type { WebContext } from '../context.js'
import { defuseFormulas } from '../csv.js'
import { field, idList, pageNumber, queryString } from '../forms.js'
import { idParam, signedIn } from '../guards.js'
import { act, noticeOf, type Notices, type Refusals } from '../notices.js'
import { paths } from '../paths.js'

type Code =
  | 'paid'
  | 'paid_many'
  | 'none_selected'
  | 'charged_paid'
  | 'charged_failed'
  | 'charged_requires_card'
  | 'not_pending'
  | 'not_offline'
  | 'not_chargeable'
  | 'none_charged'

const NOTICES: Notices<Code> = {
  paid: { kind: 'success', text: 'Payment marked paid.' },
  paid_many: { kind: 'success', text: 'The selected payments are marked paid.' },
  none_selected: { kind: 'error', text: 'Select at least one pending offline payment to mark paid.' },
  charged_paid: { kind: 'success', text: 'Charged: the payment is paid.' },
  charged_failed: {
    kind: 'error',
    text: 'The charge failed. The payment is marked failed, with the reason; you can charge it again.',
  },
  charged_requires_card: {
    kind: 'info',
    text: 'Not charged: your card needs authentication first. The payment waits as “needs card”; charge it again once the card is confirmed.',
  },
  not_pending: {
    kind: 'error',
    text: 'Nothing was marked paid: a selected payment is not pending any more.',
  },
  not_offline: {
    kind: 'error',
    text: 'Nothing was marked paid: a selected payment is paid through RefDesk.',
  },
  not_chargeable: { kind: 'error', text: 'That payment cannot be charged now: it is paid or being charged.' },
  none_charged: { kind: 'error', text: 'Select at least one payment to charge.' },
}

const REFUSALS: Refusals<Code> = {
  payment_not_pending: 'not_pending',
  payment_not_offline: 'not_offline',
  payment_not_platform: 'not_chargeable',
  payment_not_chargeable: 'not_chargeable',
}

/** Charge selected's counts, from its redirect (batch.ts). */
function chargedOutcome(request: FastifyRequest) {
  const batch = batchOf(request, CHARGE_STATUSES)
  if (!batch) return undefined
  const { paid, failed, requires_card: requiresCard } = batch.done
  return { paid, failed, requiresCard, refused: batch.refused.length }
}

const statusOf = (request: FastifyRequest) =>
  PaymentStatus.options.find((s) => s === queryString(request, 'status'))

const backToLedger = (leagueId: string) => (notice: Code) => paths.payouts.href({ leagueId }, { notice })

export function organizePayoutsRoutes(app: FastifyInstance, context: WebContext): void {
  const { deps, sendPage } = context
  app.get(
    paths.payouts.pattern,
    signedIn(async (request, reply, person) => {
      const leagueId = idParam(request, 'leagueId', 'league_not_found')
      const status = statusOf(request)
      const page = pageNumber(request)
      const ledger = await listLedger(deps, person, leagueId, { status, page })
      const at = { leagueId: ledger.league.id }
      const title = `${ledger.league.name}: payouts`
      const options = {
        title,
        nav: 'organize',
        timeZone: ledger.league.timeZone,
        notice: noticeOf(request, NOTICES),
      } as const
      return sendPage(request, reply, 'organize-payouts', options, {
        ...ledger,
        tab: 'payouts',
        status,
        statuses: PaymentStatus.options,
        page,
        pageHref: (n: number) => paths.payouts.href(at, { status, page: n }),
        csvHref: paths.payoutsCsv.href(at, { status }),
        selectable: ledger.payments.some((p) => p.payable),
        chargeable: ledger.payments.some((p) => p.chargeable),
        selectAll: queryString(request, 'select') === 'all',
        selectAllHref: paths.payouts.href(at, { status, page, select: 'all' }),
        clearHref: paths.payouts.href(at, { status, page }),
        charged: chargedOutcome(request),
      })
    }),
  )

  app.get(
    paths.payoutsCsv.pattern,
    signedIn(async (request, reply, person) => {
      const leagueId = idParam(request, 'leagueId', 'league_not_found')
      const { league, payments } = await exportLedger(deps, person, leagueId, statusOf(request))
      return reply
        .header('cache-control', 'no-store')
        .header('content-disposition', `attachment; filename="payouts-${league.id}.csv"`)
        .type('text/csv; charset=utf-8')
        .send(toCsv(payments))
    }),
  )

  app.post(
    paths.markPaid.pattern,
    signedIn(async (request, reply, person) => {
      const paymentId = idParam(request, 'paymentId', 'payment_not_found')
      const { league } = await findLedgerLine(deps, person, paymentId)
      return act(reply, () => markPaid(deps, person, paymentId), {
        done: () => backToLedger(league.id)('paid'),
        back: backToLedger(league.id),
        refusals: REFUSALS,
      })
    }),
  )

  markSelectedPaidRoute(app, context)
  chargeSelectedRoute(app, context)

  app.get(
    paths.charge.pattern,
    signedIn(async (request, reply, person) => {
      const paymentId = idParam(request, 'paymentId', 'payment_not_found')
      const { league, payment } = await findLedgerLine(deps, person, paymentId)
      if (payment.mode !== 'platform') throw new ApiError('payment_not_found')
      const outcomes = deps.paymentProcessor.simulated ? CHARGE_STATUSES : []
      const options = { title: 'Charge a payment', nav: 'organize', timeZone: league.timeZone } as const
      return sendPage(request, reply, 'organize-charge', options, { league, payment, outcomes })
    }),
  )

  // With the simulated processor the organizer picks the charge's outcome (withSimulatedOutcome).
  app.post(
    paths.charge.pattern,
    signedIn(async (request, reply, person) => {
      const paymentId = idParam(request, 'paymentId', 'payment_not_found')
      const { league } = await findLedgerLine(deps, person, paymentId)
      const outcome = CHARGE_STATUSES.find((o) => o === field(request, 'outcome'))
      return act(reply, () => chargePayment(withSimulatedOutcome(deps, outcome), person, paymentId), {
        done: (payment) =>
          paths.payouts.href({ leagueId: league.id }, { notice: `charged_${payment.status}` }),
        back: backToLedger(league.id),
        refusals: REFUSALS,
      })
    }),
  )
}

/** What Mark selected paid and Charge selected say before they act. */
const PAYMENT_BATCHES = {
  mark_paid: {
    verb: 'Mark paid',
    done: 'marked paid',
    effect:
      'Each is recorded as paid offline today: its official is emailed, and partners’ systems receive payment.paid.',
    action: paths.markSelectedPaid,
  },
  charge: {
    verb: 'Charge',
    done: 'charged',
    effect:
      'Each is charged to the league’s card through RefDesk now, one charge per payment, and its official is emailed once it is paid.',
    action: paths.chargeSelected,
  },
} as const

/** The first press of a payment batch: how many of the selection it applies to, and their sum. */
async function confirmPayments(
  { deps, sendPage }: WebContext,
  request: FastifyRequest,
  reply: FastifyReply,
  person: Person,
  leagueId: string,
  ids: readonly string[],
  kind: keyof typeof PAYMENT_BATCHES,
): Promise<FastifyReply> {
  const { action, ...words } = PAYMENT_BATCHES[kind]
  const preview = await previewPayments(deps, person, leagueId, ids, kind)
  const league = await requireOrganizedLeague(deps.db, person, leagueId)
  return sendBatchConfirmation(sendPage, request, reply, league, preview, {
    ...words,
    noun: { one: 'payment', many: 'payments' },
    action: action.href({ leagueId }),
    idField: 'paymentId',
    listFields: {},
    backHref: paths.payouts.href({ leagueId }),
  })
}

/** Mark selected paid: every offline payment selected, in one transaction, once it is confirmed. */
function markSelectedPaidRoute(app: FastifyInstance, context: WebContext): void {
  const { deps } = context
  app.post(
    paths.markSelectedPaid.pattern,
    signedIn(async (request, reply, person) => {
      const leagueId = idParam(request, 'leagueId', 'league_not_found')
      const ids = idList(request, 'paymentId')
      if (!confirmed(request) && ids.length > 0) {
        return confirmPayments(context, request, reply, person, leagueId, ids, 'mark_paid')
      }
      // Run with an empty selection too: the league is checked before the page says to select one.
      return act(reply, () => markPaymentsPaid(deps, person, leagueId, ids), {
        done: () => backToLedger(leagueId)(ids.length === 0 ? 'none_selected' : 'paid_many'),
        back: backToLedger(leagueId),
        refusals: REFUSALS,
      })
    }),
  )
}

/** Charge selected: each as Charge, then the ledger with what happened. */
function chargeSelectedRoute(app: FastifyInstance, context: WebContext): void {
  const { deps } = context
  app.post(
    paths.chargeSelected.pattern,
    signedIn(async (request, reply, person) => {
      const leagueId = idParam(request, 'leagueId', 'league_not_found')
      const ids = idList(request, 'paymentId')
      if (!confirmed(request) && ids.length > 0) {
        return confirmPayments(context, request, reply, person, leagueId, ids, 'charge')
      }
      const { charged, refused } = await chargeSelected(deps, person, leagueId, ids)
      const done = Object.fromEntries(CHARGE_STATUSES.map((status) => [status, charged[status] ?? 0]))
      const query =
        ids.length === 0
          ? { notice: 'none_charged' }
          : batchQuery({ done, refused: refused.map((r) => ({ id: r.paymentId, code: r.code })) })
      return reply.redirect(paths.payouts.href({ leagueId }, query), 303)
    }),
  )
}

const CSV_COLUMNS: readonly [string, (p: LedgerLine) => string | number | null][] = [
  ['paymentId', (p) => p.id],
  ['status', (p) => p.status],
  ['mode', (p) => p.mode],
  ['amount', (p) => (p.amountCents / 100).toFixed(2)],
  ['currency', (p) => p.currency],
  ['paidAt', (p) => p.paidAt],
  ['failure', (p) => p.failureMessage],
  ['gameId', (p) => p.gameId],
  ['startsAt', (p) => p.startsAt],
  ['sport', (p) => p.sport],
  ['location', (p) => p.location],
  ['position', (p) => p.label],
  ['officialId', (p) => p.officialId],
  ['officialName', (p) => p.officialName],
  ['officialEmail', (p) => p.officialEmail],
  ['createdAt', (p) => p.createdAt],
]

/**
 * RFC 4180, with text that a spreadsheet would run as a formula (names and places come from partners)
 * prefixed by an apostrophe.
 */
function toCsv(payments: readonly LedgerLine[]): string {
  const cell = (value: string | number | null) => {
    let text = value === null ? '' : String(value)
    if (typeof value === 'string') text = defuseFormulas(text)
    return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
  }
  const lines = [CSV_COLUMNS.map(([name]) => name).join(',')]
  for (const payment of payments) lines.push(CSV_COLUMNS.map(([, get]) => cell(get(payment))).join(','))
  return `${lines.join('\r\n')}\r\n`
}
