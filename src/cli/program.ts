// The `refdesk` command tree. Every command and option carries help an operator can read cold.
import { readFileSync } from 'node:fs'
import { Command } from 'commander'
import { appCommand } from './commands/app.js'
import { keysCommand } from './commands/keys.js'
import { mcpCommand } from './commands/mcp.js'
import { migrateCommand } from './commands/migrate.js'
import { serveCommand } from './commands/serve.js'
import { workerCommand } from './commands/worker.js'

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string
}

const EPILOGUE = `
Environment:
  DATABASE_URL  database when --database is not given (file:PATH or postgres://…)
  LOG_LEVEL     log level: fatal, error, warn, info (default), debug, trace
                (debug or trace also print stack traces when a command fails)
  Every setting, REFDESK_* included: \`refdesk serve --help\` (\`refdesk worker --help\` for workers)

Examples:
  refdesk migrate --database file:/var/lib/refdesk/refdesk.sqlite
  refdesk serve --port 8080
  refdesk keys issue --source acme --name "Acme production" --organizer-email ops@acme.example
  refdesk keys grant KEY_ID LEAGUE_ID
  refdesk app complete GAME_ID
  REFDESK_API_KEY=key_… refdesk mcp --stdio --base-url https://refdesk.example.com/api/v1

Run \`refdesk <command> --help\` (or \`refdesk keys <command> --help\`) for each command's options.`

export function buildProgram(): Command {
  const program = new Command('refdesk')
    .version(version)
    .description(
      'RefDesk: the sports-officiating scheduling service (Partner API v1).\n\n' +
        'Every command that touches data takes --database URL: file:PATH for embedded SQLite (created by ' +
        'serve or migrate; the other commands refuse a file that does not exist) or ' +
        'postgres://user:pass@host/db. It overrides $DATABASE_URL; the default is ' +
        'file:./data/refdesk.sqlite, relative to the working directory.',
    )
    .addHelpText('after', EPILOGUE)
    .addCommand(serveCommand())
    .addCommand(workerCommand())
    .addCommand(migrateCommand())
    .addCommand(keysCommand())
    .addCommand(appCommand())
    .addCommand(mcpCommand())
  for (const command of allCommands(program)) command.showHelpAfterError('(run with --help for usage)')
  return program
}

function allCommands(command: Command): Command[] {
  return [command, ...command.commands.flatMap(allCommands)]
}
