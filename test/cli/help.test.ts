import { describe, expect, it } from 'vitest'
import { runBin } from '../helpers/cli.js'

// Every command documents every one of its options and arguments, so an operator can work from --help.
const COMMANDS: [string[], string[]][] = [
  [[], ['serve', 'migrate', 'keys', 'app', 'DATABASE_URL', 'LOG_LEVEL', '--version']],
  [['serve'], ['--port', '--host', '--database', '--no-worker', 'SIGTERM', '/healthz']],
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

describe('refdesk --help', () => {
  it.each(COMMANDS)('refdesk %j --help explains %j', async (command, mentions) => {
    const res = await runBin([...command, '--help'])
    expect(res.code).toBe(0)
    for (const mention of mentions) expect(res.stdout).toContain(mention)
  })

  it('rejects an unknown command with a hint and exit 1', async () => {
    const res = await runBin(['frobnicate'])
    expect(res.code).toBe(1)
    expect(res.stderr).toContain("unknown command 'frobnicate'")
    expect(res.stderr).toContain('--help')
  })
})
