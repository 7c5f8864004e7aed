// `refdesk migrate`: brings the schema up to date (serve, keys and app do the same on their own start).
import { Command } from 'commander'
import { databaseUrlFrom } from '../../config.js'
import { describeDatabase, printLine } from '../output.js'
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
      await withRuntime(flags, async () => {})
      printLine(`migrations applied: ${describeDatabase(databaseUrlFrom(process.env, flags))} is up to date`)
    })
}
