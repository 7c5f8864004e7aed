import type { Kysely } from 'kysely'
import type { DialectName } from '../store/database.js'
import type { Db } from '../store/tables.js'
import type { PaymentProcessor } from './payment-processor.js'

/** What every domain service needs; built once by the composition root (`app.ts`). */
export interface Deps {
  readonly db: Kysely<Db>
  readonly dialect: DialectName
  readonly paymentProcessor: PaymentProcessor
}
