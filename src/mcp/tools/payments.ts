import { listPaymentsOperation } from '../../operations/payments.js'
import { READ, type ToolSpec } from '../tool.js'

export const paymentTools: ToolSpec[] = [
  {
    name: 'list_payments',
    title: 'List a league’s payments',
    description:
      'The league’s payout ledger, newest first: one payment per worked position, amounts in cents and dollars. Read-only; payments are created and settled in the RefDesk app. Needs leagueId (from refdesk_list_leagues).',
    annotations: READ,
    operation: listPaymentsOperation,
  },
]
