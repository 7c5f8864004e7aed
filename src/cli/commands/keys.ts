// `refdesk keys`: the operator's console for partner API keys. The plaintext key exists only in the
// output of `keys issue`; the database keeps its SHA-256.
import { Command } from 'commander'
import { grantLeague, issueKey, listKeys, revokeKey, ungrantLeague } from '../../domain/partners/api-keys.js'
import { printJson, printLine } from '../output.js'
import { databaseOption, withRuntime, type DatabaseFlags } from '../runtime.js'

interface IssueFlags extends DatabaseFlags {
  source: string
  name?: string
  organizerEmail?: string
  organizerExternalId?: string
}

export function keysCommand(): Command {
  const keys = new Command('keys')
    .summary('issue, list and revoke partner API keys; grant or ungrant leagues')
    .description(
      'Manage partner API keys. A key is bound to a source namespace: it reads and writes only leagues of ' +
        'its source plus leagues granted to it. Keys are shown once, at issuance; only a hash is stored.',
    )

  keys
    .command('issue')
    .summary('issue a new key; the plaintext key is the last line of output')
    .description(
      'Issue a new API key for a partner source. Prints the key id, source, name and organizer id, then ' +
        'the plaintext key (key_ + 48 hex) alone on the last line of stdout. It is never shown again. ' +
        'Leagues the key creates are organized by the key’s organizer user, found or created by email ' +
        '(or by --organizer-external-id) within the source.',
    )
    .requiredOption('--source <source>', 'partner namespace: 1-40 of A-Z a-z 0-9 . _ - ("app" is reserved)')
    .option('--name <name>', 'label for the operator, e.g. the partner and environment')
    .option(
      '--organizer-email <email>',
      'organizer account email (default: <source>@partners.refdesk.invalid)',
    )
    .option(
      '--organizer-external-id <id>',
      'the partner’s own id for the organizer account; the user is upserted on (source, id)',
    )
    .addOption(databaseOption())
    .action(async (flags: IssueFlags) => {
      const issued = await withRuntime(flags, ({ deps }) =>
        issueKey(deps, {
          source: flags.source,
          ...(flags.name !== undefined && { name: flags.name }),
          ...(flags.organizerEmail !== undefined && { organizerEmail: flags.organizerEmail }),
          ...(flags.organizerExternalId !== undefined && { organizerExternalId: flags.organizerExternalId }),
        }),
      )
      printLine(`id: ${issued.id}`)
      printLine(`source: ${issued.source}`)
      printLine(`name: ${issued.name}`)
      printLine(`organizer: ${issued.organizerId}`)
      process.stderr.write('Store the key below now: it cannot be shown again.\n')
      printLine(issued.key)
    })

  keys
    .command('list')
    .summary('list every key as JSON (never the key or its hash)')
    .description(
      'Print every key as a JSON array: id, source, name (keys are told apart by id and name), ' +
        'organizerId, createdAt, lastUsedAt (to the minute; null if never used), revokedAt (null while ' +
        'active) and grantedLeagueIds. Only a hash of a key is stored, and neither it nor any part of the ' +
        'key is ever printed.',
    )
    .addOption(databaseOption())
    .action(async (flags: DatabaseFlags) => {
      printJson(await withRuntime(flags, ({ deps }) => listKeys(deps)))
    })

  keys
    .command('revoke')
    .summary('revoke a key immediately')
    .description(
      'Revoke a key: every later request with it answers 401 unauthorized. Revoking twice is harmless.',
    )
    .argument('<keyId>', 'the key’s id (from `keys issue` or `keys list`), not the key itself')
    .addOption(databaseOption())
    .action(async (keyId: string, flags: DatabaseFlags) => {
      await withRuntime(flags, ({ deps }) => revokeKey(deps, keyId))
      printLine(`revoked key ${keyId}`)
    })

  keys
    .command('grant')
    .summary('let a key see a league of another source')
    .description(
      'Grant a key access to one league outside its source: the key then reads and writes it like its own ' +
        'leagues, and its webhook endpoints receive the league’s events.',
    )
    .argument('<keyId>', 'the key’s id')
    .argument('<leagueId>', 'the league’s id')
    .addOption(databaseOption())
    .action(async (keyId: string, leagueId: string, flags: DatabaseFlags) => {
      await withRuntime(flags, ({ deps }) => grantLeague(deps, keyId, leagueId))
      printLine(`granted league ${leagueId} to key ${keyId}`)
    })

  keys
    .command('ungrant')
    .summary('withdraw a grant')
    .description('Withdraw a grant: the league answers 404 to the key again, exactly like a nonexistent one.')
    .argument('<keyId>', 'the key’s id')
    .argument('<leagueId>', 'the league’s id')
    .addOption(databaseOption())
    .action(async (keyId: string, leagueId: string, flags: DatabaseFlags) => {
      await withRuntime(flags, ({ deps }) => ungrantLeague(deps, keyId, leagueId))
      printLine(`removed the grant of league ${leagueId} from key ${keyId}`)
    })

  return keys
}
