import { z } from 'zod'
import { listPayments } from '../domain/payments/payments.js'
import { LeagueParams } from '../schemas/leagues.js'
import { Payment } from '../schemas/payments.js'
import { defineOperation } from './operation.js'

export const listPaymentsOperation = defineOperation({
  method: 'GET',
  path: '/leagues/{leagueId}/payments',
  operationId: 'listPayments',
  unbounded: true,
  tags: ['payments'],
  summary: 'The league’s payout ledger, newest first (read-only)',
  description:
    'One payment per worked position, created when the organizer completes a game. No operation creates or settles payments.',
  responseDescription: 'The payments, newest first.',
  params: LeagueParams,
  data: z.array(Payment),
  errors: ['league_not_found'],
  handle: (deps, { caller, params }) => listPayments(deps, caller, params.leagueId),
})

export const paymentOperations = [listPaymentsOperation]
