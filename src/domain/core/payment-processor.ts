// The seam where a real payment processor plugs in (see docs/payments.md). `charge` is called with the
// payment id as idempotency key, outside any transaction, after the payment was marked `processing`.

export type ChargeOutcome =
  | { status: 'paid' }
  | { status: 'requires_card' }
  | { status: 'failed'; failureCode: string; failureMessage: string }

export interface ChargeRequest {
  paymentId: string
  amountCents: number
  currency: string
  officialId: string
}

export interface PaymentProcessor {
  charge(request: ChargeRequest): Promise<ChargeOutcome>
  /** Set by the simulator only: no money moves, so the app may let the organizer pick the outcome. */
  readonly simulated?: true
}

export type SimulatedOutcome = ChargeOutcome['status']

/**
 * Every status a charge ends in: what Charge selected counts, and the outcomes the simulator can be told, in
 * the order the app and `refdesk app charge --outcome` offer them.
 */
export const CHARGE_STATUSES = [
  'paid',
  'failed',
  'requires_card',
] as const satisfies readonly SimulatedOutcome[]

/** Built-in processor: settles every charge with the outcome it was told, no money moves. */
export function simulatedProcessor(outcome: SimulatedOutcome = 'paid'): PaymentProcessor {
  return {
    simulated: true,
    async charge() {
      if (outcome === 'failed') {
        return {
          status: 'failed',
          failureCode: 'card_declined',
          failureMessage: 'The card was declined (simulated).',
        }
      }
      return { status: outcome }
    },
  }
}
