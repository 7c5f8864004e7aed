// Shared by the one-shot commands (migrate, keys, app): open the database named by --database or
// DATABASE_URL, apply pending migrations, run, and always close so the process can exit.
import { Option } from 'commander'
import { openRuntime, type Runtime } from '../app.js'
import { databaseUrlFrom, flagHelp, SETTING } from '../config.js'
import type { PaymentProcessor } from '../domain/core/payment-processor.js'

export interface DatabaseFlags {
  database?: string
}

export function databaseOption(): Option {
  return new Option('--database <url>', flagHelp(SETTING.databaseUrl))
}

/**
 * Opens the database for one command. Only `migrate` passes `create`: any other command pointed at a
 * SQLite file that does not exist (run from another directory, a typo) fails naming the path, instead of
 * starting an empty database whose keys the running server never sees.
 */
export async function withRuntime<T>(
  flags: DatabaseFlags,
  run: (runtime: Runtime) => Promise<T>,
  options: { paymentProcessor?: PaymentProcessor; create?: boolean } = {},
): Promise<T> {
  const runtime = await openRuntime(databaseUrlFrom(flags), { ...options, create: options.create ?? false })
  try {
    return await run(runtime)
  } finally {
    await runtime.close()
  }
}
