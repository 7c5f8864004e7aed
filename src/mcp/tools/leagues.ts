import {
  listLeaguesOperation,
  upsertLeagueOperation,
  getLeagueOperation,
  updateLeagueOperation,
} from '../../http/routes/leagues.js'
import { READ, UPSERT, WRITE, type ToolSpec } from '../tool.js'

const NOT_FOUND =
  'league_not_found: the id is unknown or outside this key’s scope; call refdesk_list_leagues for valid ids.'

export const leagueTools: ToolSpec[] = [
  {
    name: 'list_leagues',
    title: 'List leagues',
    description:
      'Lists every league this key can see, newest first, with gameCount and memberCount. Start here: it gives the leagueId every other league tool needs. Takes no arguments.',
    annotations: READ,
    operation: listLeaguesOperation,
  },
  {
    name: 'upsert_league',
    title: 'Create or upsert a league',
    description: [
      'Creates a league owned by this key’s source. With an externalId it is an upsert on (source, externalId): repeating the call updates the same league instead of creating another, so it is safe to retry.',
      'Errors: name_required (give a non-empty name); invalid_name, invalid_currency (3-letter ISO 4217 code), invalid_externalId, invalid_source (fix the argument); source_reserved / source_mismatch (omit source, or send this key’s own source).',
    ].join('\n'),
    annotations: UPSERT,
    operation: upsertLeagueOperation,
  },
  {
    name: 'get_league',
    title: 'Get a league',
    description: `Returns one league with its games (by startsAt, each with positions) and its officials. Needs leagueId (from refdesk_list_leagues). Errors: ${NOT_FOUND}`,
    annotations: READ,
    operation: getLeagueOperation,
  },
  {
    name: 'update_league',
    title: 'Update a league',
    description: [
      'Changes a league’s name, paymentMode or currency; only the keys given apply. Needs leagueId (from refdesk_list_leagues).',
      `Errors: name_required / invalid_name (give a non-empty string), invalid_currency (3-letter ISO 4217 code), ${NOT_FOUND}`,
    ].join('\n'),
    annotations: WRITE,
    operation: updateLeagueOperation,
  },
]
