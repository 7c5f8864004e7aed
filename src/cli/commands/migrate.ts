// `refdesk migrate`: brings the schema up to date (serve, keys and app do the same on their own start).
import { Command } from 'commander'
import { databaseUrlFrom, describeDatabase } from '../../config.js'
import { printLine } from '../output.js'
import { databaseOption, withRuntime, type DatabaseFlags } from '../runtime.js'

export function migrateCommand(): Command {
  return new Command('migrate')
    .summary('apply pending database migrations')
    .description(
      'Apply every pending schema migration, then exit. Safe to repeat: an up-to-date database is left as ' +
        'it is. `serve`, `keys` and `app` also migrate on start; run this before rolling out new versions ' +
        'of several processes that share one PostgreSQL database.',
    )
    .addOption(databaseOption())
    .action(async (flags: DatabaseFlags) => {
      const applied = await withRuntime(flags, async (runtime) => runtime.migrated, { create: true })
      const database = describeDatabase(databaseUrlFrom(flags))
      for (const name of applied) printLine(`applied ${name}`)
      printLine(
        applied.length === 0
          ? `${database} was already up to date`
          : `${database} is up to date (${applied.length} migration${applied.length === 1 ? '' : 's'} applied)`,
      )
    })
}
