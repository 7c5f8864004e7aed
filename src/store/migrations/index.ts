// Numbered migrations, registered statically so the compiled package needs no directory scan.
import type { Migration, MigrationProvider } from 'kysely'
import * as m0001 from './0001_initial.js'
import * as m0002 from './0002_webhooks.js'

const migrations: Record<string, Migration> = {
  '0001_initial': m0001,
  '0002_webhooks': m0002,
}

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
}
