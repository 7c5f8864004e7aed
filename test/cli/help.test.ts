import type { Command } from 'commander'
import { describe, expect, it } from 'vitest'
import { buildProgram } from '../../src/cli/program.js'
import { runBin } from '../helpers/cli.js'

// Every command documents every one of its options and arguments, so an operator can work from --help.
const COMMANDS: [string[], string[]][] = [
  [[], ['serve', 'worker', 'migrate', 'keys', 'app', 'mcp', 'DATABASE_URL', 'LOG_LEVEL', '--version']],
  [['serve'], ['--port', '--host', '--database', '--no-worker', 'SIGTERM', '/healthz']],
  [['worker'], ['--database', 'REFDESK_WEBHOOK_RETRY_SCHEDULE', 'REFDESK_WEBHOOK_ALLOW_PRIVATE']],
  [['mcp'], ['--stdio', '--base-url', 'REFDESK_API_KEY']],
  [['migrate'], ['--database']],
  [['keys'], ['issue', 'list', 'revoke', 'grant', 'ungrant']],
  [
    ['keys', 'issue'],
    ['--source', '--name', '--organizer-email', '--organizer-external-id', '--database', 'last line'],
  ],
  [
    ['keys', 'list'],
    ['--database', 'JSON'],
  ],
  [
    ['keys', 'revoke'],
    ['<keyId>', '--database', '401'],
  ],
  [
    ['keys', 'grant'],
    ['<keyId>', '<leagueId>', '--database'],
  ],
  [
    ['keys', 'ungrant'],
    ['<keyId>', '<leagueId>', '--database'],
  ],
  [['app'], ['claim', 'withdraw', 'complete', 'no-show', 'pay', 'charge', 'deny', '{"error":"<code>"}']],
  [
    ['app', 'claim'],
    ['<gameId>', '<userId>', '--position', '--database', 'position.claimed'],
  ],
  [
    ['app', 'withdraw'],
    ['<positionId>', '--database'],
  ],
  [
    ['app', 'complete'],
    ['<gameId>', '--database', 'game.completed'],
  ],
  [
    ['app', 'no-show'],
    ['<positionId>', '--database', 'official.no_show'],
  ],
  [
    ['app', 'pay'],
    ['<paymentId>', '--database', 'payment.paid'],
  ],
  [
    ['app', 'charge'],
    ['<paymentId>', '--outcome', 'requires_card', '--database', 'payment.failed'],
  ],
  [
    ['app', 'deny'],
    ['<leagueId>', '<userId>', '--database', 'denied'],
  ],
]

// Help text is read in process (one spawn per command would cost seconds); the bin itself is spawned once
// to prove `--help` reaches the same text.
function helpOf(path: readonly string[]): string {
  let command: Command = buildProgram()
  for (const name of path) {
    const next = command.commands.find((c) => c.name() === name)
    if (!next) throw new Error(`no command ${path.join(' ')}`)
    command = next
  }
  let text = ''
  command.configureOutput({ writeOut: (chunk) => (text += chunk) })
  command.outputHelp()
  return text
}

describe('refdesk --help', () => {
  it.each(COMMANDS)('refdesk %j --help explains %j', (command, mentions) => {
    const help = helpOf(command)
    for (const mention of mentions) expect(help).toContain(mention)
  })

  it('the bin prints the same help and exits 0', async () => {
    const res = await runBin(['keys', 'issue', '--help'])
    expect(res.code).toBe(0)
    expect(res.stdout).toBe(helpOf(['keys', 'issue']))
  })

  it('rejects an unknown command with a hint and exit 1', async () => {
    const res = await runBin(['frobnicate'])
    expect(res.code).toBe(1)
    expect(res.stderr).toContain("unknown command 'frobnicate'")
    expect(res.stderr).toContain('--help')
  })
})
