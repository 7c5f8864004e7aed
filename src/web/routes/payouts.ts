// The organizer's payouts: the league's ledger (filtered by status, a page at a time) with its totals, Mark
// paid one at a time or for a selection at once, Charge behind a page that says what it will do, and the
// ledger as CSV.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { ApiError, type ErrorCode } from '../../domain/errors.js'
import {
  chargeLeaguePayment,
  markLeaguePaymentPaid,
  markLeaguePaymentsPaid,
} from '../../domain/organizer-actions.js'
import {
  exportLedger,
  findLedgerLine,
  listLedger,
  PAYMENT_STATUSES,
  type LedgerLine,
} from '../../domain/organizer.js'
import type { SimulatedOutcome } from '../../domain/payment-processor.js'
import type { Person } from '../../domain/sessions.js'
import type { WebContext } from '../context.js'
import type { Notice } from '../pages.js'
import { field, idList, pageNumber, queryString } from './forms.js'
import { idParam } from './organizer.js'
import { requirePerson } from './official.js'

const NOTICES: Record<string, Notice> = {
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
    text: 'Not charged: the official has to add a card first. The payment waits as “needs card”.',
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
}

const REFUSALS: Partial<Record<ErrorCode, string>> = {
  payment_not_pending: 'not_pending',
  payment_not_offline: 'not_offline',
  payment_not_platform: 'not_chargeable',
  payment_not_chargeable: 'not_chargeable',
}

const OUTCOMES: readonly SimulatedOutcome[] = ['paid', 'failed', 'requires_card']

function refusalOf(error: unknown): string {
  const refusal = error instanceof ApiError ? REFUSALS[error.code] : undefined
  if (refusal === undefined) throw error
  return refusal
}

const organizing = { preHandler: requirePerson }

export function payoutRoutes(app: FastifyInstance, context: WebContext): void {
  const { deps, sendPage } = context
  const person = (request: FastifyRequest) => request.person as Person
  const ledgerHref = (leagueId: string) => `/app/organize/leagues/${leagueId}/payouts`
  const statusOf = (request: FastifyRequest) =>
    PAYMENT_STATUSES.find((s) => s === queryString(request, 'status'))

  app.get('/organize/leagues/:leagueId/payouts', organizing, async (request, reply) => {
    const leagueId = idParam(request, 'leagueId', 'league_not_found')
    const status = statusOf(request)
    const page = pageNumber(request)
    const ledger = await listLedger(deps, person(request), leagueId, { status, page })
    const base = `${ledgerHref(ledger.league.id)}?${status ? `status=${status}&` : ''}`
    return sendPage(
      request,
      reply,
      'organize-payouts',
      {
        title: `${ledger.league.name}: payouts`,
        nav: 'organize',
        notice: NOTICES[queryString(request, 'notice') ?? ''],
      },
      {
        ...ledger,
        tab: 'payouts',
        status,
        statuses: PAYMENT_STATUSES,
        page,
        pageHref: (n: number) => `${base}page=${n}`,
        csvHref: `${ledgerHref(ledger.league.id)}.csv${status ? `?status=${status}` : ''}`,
        selectable: ledger.payments.some((p) => p.payable),
      },
    )
  })

  app.get('/organize/leagues/:leagueId/payouts.csv', organizing, async (request, reply) => {
    const leagueId = idParam(request, 'leagueId', 'league_not_found')
    const { league, payments } = await exportLedger(deps, person(request), leagueId, statusOf(request))
    return reply
      .header('cache-control', 'no-store')
      .header('content-disposition', `attachment; filename="payouts-${league.id}.csv"`)
      .type('text/csv; charset=utf-8')
      .send(toCsv(payments))
  })

  app.post('/organize/payments/:paymentId/mark-paid', organizing, async (request, reply) => {
    const paymentId = idParam(request, 'paymentId', 'payment_not_found')
    const { league } = await findLedgerLine(deps, person(request), paymentId)
    try {
      await markLeaguePaymentPaid(deps, person(request), paymentId)
    } catch (error) {
      return reply.redirect(`${ledgerHref(league.id)}?notice=${refusalOf(error)}`, 303)
    }
    return reply.redirect(`${ledgerHref(league.id)}?notice=paid`, 303)
  })

  app.post('/organize/leagues/:leagueId/payouts/mark-paid', organizing, async (request, reply) => {
    const leagueId = idParam(request, 'leagueId', 'league_not_found')
    const ids = idList(request, 'paymentId')
    try {
      // Called with an empty selection too: the league is checked before the page says to select one.
      await markLeaguePaymentsPaid(deps, person(request), leagueId, ids)
    } catch (error) {
      return reply.redirect(`${ledgerHref(leagueId)}?notice=${refusalOf(error)}`, 303)
    }
    return reply.redirect(
      `${ledgerHref(leagueId)}?notice=${ids.length === 0 ? 'none_selected' : 'paid_many'}`,
      303,
    )
  })

  app.get('/organize/payments/:paymentId/charge', organizing, async (request, reply) => {
    const paymentId = idParam(request, 'paymentId', 'payment_not_found')
    const { league, payment } = await findLedgerLine(deps, person(request), paymentId)
    if (payment.mode !== 'platform') throw new ApiError('payment_not_found')
    return sendPage(
      request,
      reply,
      'organize-charge',
      { title: 'Charge a payment', nav: 'organize' },
      {
        league,
        payment,
        outcomes: deps.paymentProcessor.simulated ? OUTCOMES : [],
      },
    )
  })

  app.post('/organize/payments/:paymentId/charge', organizing, async (request, reply) => {
    const paymentId = idParam(request, 'paymentId', 'payment_not_found')
    const { league } = await findLedgerLine(deps, person(request), paymentId)
    const outcome = OUTCOMES.find((o) => o === field(request, 'outcome'))
    try {
      const payment = await chargeLeaguePayment(deps, person(request), paymentId, outcome)
      return reply.redirect(`${ledgerHref(league.id)}?notice=charged_${payment.status}`, 303)
    } catch (error) {
      return reply.redirect(`${ledgerHref(league.id)}?notice=${refusalOf(error)}`, 303)
    }
  })
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
export function toCsv(payments: readonly LedgerLine[]): string {
  const cell = (value: string | number | null) => {
    let text = value === null ? '' : String(value)
    if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`
    return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
  }
  const lines = [CSV_COLUMNS.map(([name]) => name).join(',')]
  for (const payment of payments) lines.push(CSV_COLUMNS.map(([, get]) => cell(get(payment))).join(','))
  return `${lines.join('\r\n')}\r\n`
}
