import { z } from 'zod'
import { DateTime, Id, PaymentMode } from './common.js'

export const PaymentStatus = z.enum(['pending', 'processing', 'paid', 'requires_card', 'failed'])

export const Payment = z
  .object({
    id: Id,
    positionId: Id,
    officialId: Id,
    amountCents: z.number().int(),
    amountDollars: z.number(),
    currency: z.string(),
    mode: PaymentMode,
    status: PaymentStatus,
    paidAt: DateTime.nullable(),
    failureCode: z.string().nullable(),
    failureMessage: z.string().nullable(),
    createdAt: DateTime,
  })
  .meta({ id: 'Payment' })

export type Payment = z.infer<typeof Payment>
