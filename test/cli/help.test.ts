import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Command } from 'commander'
import { describe, expect, it } from 'vitest'
import { buildProgram } from '../../src/cli/program.js'
import { SETTINGS } from '../../src/config.js'
import { runBin } from '../helpers/cli.js'

// Every command documents every one of its options and arguments, so an operator can work from --help.
const COMMANDS: [string[], string[]][] = [
  [[], ['serve', 'worker', 'migrate', 'keys', 'app', 'mcp', 'DATABASE_URL', 'LOG_LEVEL', '--version']],
  [
    ['serve'],
    ['--port', '--host', '--database', '--no-worker', 'SIGTERM', '/healthz', '/app/', 'REFDESK_SMTP_URL'],
  ],
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
  [
    ['app'],
    [
      'claim',
      'withdraw',
      'assign',
      'complete',
      'no-show',
      'pay',
      'charge',
      'approve',
      'deny',
      'sign-in-link',
      'blackout',
      'availability',
      '{"error":"<code>"}',
    ],
  ],
  [
    ['app', 'claim'],
    ['<gameId>', '<userId>', '--position', '--database', 'position.claimed'],
  ],
  [
    ['app', 'assign'],
    ['<gameId>', '<userId>', '--position', '--force', '--database', 'position.claimed'],
  ],
  [
    ['app', 'withdraw'],
    ['<positionId>', '--database', 'position.withdrawn'],
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
    ['app', 'approve'],
    ['<leagueId>', '<userId>', '--database', 'official.approved'],
  ],
  [
    ['app', 'deny'],
    ['<leagueId>', '<userId>', '--database', 'denied'],
  ],
  [
    ['app', 'sign-in-link'],
    ['--email', '--database', 'last line', 'once', 'REFDESK_PUBLIC_URL'],
  ],
  [
    ['app', 'blackout'],
    ['--email', '--from', '--to', '--database', 'time zone'],
  ],
  [
    ['app', 'availability'],
    ['--email', '--database', '{blackouts, weekly,'],
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

  it('serve --help and worker --help list every REFDESK_* setting that src/ reads', () => {
    const src = new URL('../../src/', import.meta.url).pathname
    const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'))
    const named = new Set(
      files.flatMap((f) => readFileSync(join(src, f), 'utf8').match(/REFDESK_[A-Z_]+/g) ?? []),
    )
    const inTable = new Set(SETTINGS.map((s) => s.name))
    expect([...named].filter((name) => !inTable.has(name))).toEqual([])
    for (const command of ['serve', 'worker'] as const) {
      const help = helpOf([command])
      const applies = SETTINGS.filter((s) => (s.commands as readonly string[]).includes(command))
      for (const setting of applies) expect(help, command).toContain(`${setting.name} `)
    }
    expect(helpOf(['worker'])).toContain('REFDESK_WEBHOOK_ENDPOINT_CONCURRENCY')
    expect(helpOf(['serve'])).toContain('REFDESK_MCP_ALLOWED_ORIGINS')
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
