// Composition root: database → migrations → services → HTTP. close() releases everything in order.
import type { FastifyServerOptions } from 'fastify'
import type { Deps } from './domain/deps.js'
import { simulatedProcessor, type PaymentProcessor } from './domain/payment-processor.js'
import { buildServer, type App } from './http/server.js'
import { openDatabase, type Database } from './store/database.js'

export interface Runtime {
  readonly database: Database
  readonly deps: Deps
  close(): Promise<void>
}

export async function openRuntime(
  databaseUrl: string,
  options: { paymentProcessor?: PaymentProcessor; migrate?: boolean } = {},
): Promise<Runtime> {
  const database = openDatabase(databaseUrl)
  try {
    if (options.migrate !== false) await database.migrate()
  } catch (err) {
    await database.close()
    throw err
  }
  const deps: Deps = {
    db: database.db,
    dialect: database.dialect,
    paymentProcessor: options.paymentProcessor ?? simulatedProcessor(),
  }
  return { database, deps, close: () => database.close() }
}

export async function buildHttp(runtime: Runtime, logger?: FastifyServerOptions['logger']): Promise<App> {
  return buildServer({ deps: runtime.deps, ping: () => runtime.database.ping(), logger })
}
