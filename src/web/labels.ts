// The words the pages say for each status and mode, said once: templates read them as
// `it.label.<table>[value]`. Each table is keyed by its schema's enum, so a value added there does not
// compile until every table of it has its word.
import type { z } from 'zod'
import type { SimulatedOutcome } from '../domain/core/payment-processor.js'
import type { PaymentMode, Status } from '../schemas/common.js'
import type { MembershipStatus } from '../schemas/officials.js'
import type { PaymentStatus } from '../schemas/payments.js'

type Words<K extends string> = Readonly<Record<K, string>>

const payment: Words<z.infer<typeof PaymentStatus>> = {
  pending: 'Pending',
  processing: 'Processing',
  paid: 'Paid',
  requires_card: 'Needs card',
  failed: 'Failed',
}

export const LABELS = {
  /** A game's or a position's status, in the schema's order (My leagues counts them in it). */
  status: {
    open: 'Open',
    claimed: 'Claimed',
    completed: 'Completed',
    cancelled: 'Cancelled',
  } satisfies Words<z.infer<typeof Status>>,
  /** An official's membership, as their organizer reads it. */
  membership: {
    pending: 'Pending approval',
    approved: 'Approved',
    denied: 'Denied',
  } satisfies Words<z.infer<typeof MembershipStatus>>,
  /** A payment, as the organizer who settles it reads it. */
  payment,
  /** A payment on the official's own Earnings: a charge waiting on the league's card is not theirs to act on. */
  earning: { ...payment, requires_card: 'Waiting on the organizer' } satisfies typeof payment,
  /** How one payment is settled. */
  paymentMode: {
    offline: 'Offline',
    platform: 'Through RefDesk',
  } satisfies Words<z.infer<typeof PaymentMode>>,
  /** How a league pays its officials. */
  leaguePayments: {
    offline: 'Paid offline',
    platform: 'Paid through RefDesk',
  } satisfies Words<z.infer<typeof PaymentMode>>,
  /** The simulated processor's outcomes, offered on Charge. */
  simulatedOutcome: {
    paid: 'Paid',
    failed: 'Failed (card declined)',
    requires_card: 'Needs card',
  } satisfies Words<SimulatedOutcome>,
} as const

export type Labels = typeof LABELS
