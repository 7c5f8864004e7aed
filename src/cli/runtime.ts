// Shared by the one-shot commands (migrate, keys, app): open the database named by --database or
// DATABASE_URL, apply pending migrations, run, and always close so the process can exit.
import { Option } from 'commander'
import { openRuntime, type Runtime } from '../app.js'
import { DEFAULT_DATABASE_URL, databaseUrlFrom } from '../config.js'
import type { PaymentProcessor } from '../domain/payment-processor.js'

export interface DatabaseFlags {
  database?: string
}

export function databaseOption(): Option {
  return new Option(
    '--database <url>',
    `file:PATH (SQLite, created if missing) or postgres://user:pass@host/db (default: $DATABASE_URL, else ${DEFAULT_DATABASE_URL})`,
  )
}

export async function withRuntime<T>(
  flags: DatabaseFlags,
  run: (runtime: Runtime) => Promise<T>,
  options: { paymentProcessor?: PaymentProcessor } = {},
): Promise<T> {
  const runtime = await openRuntime(databaseUrlFrom(process.env, flags), options)
  try {
    return await run(runtime)
  } finally {
    await runtime.close()
  }
}
