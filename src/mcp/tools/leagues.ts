import {
  listLeaguesOperation,
  upsertLeagueOperation,
  getLeagueOperation,
  updateLeagueOperation,
} from '../../operations/leagues.js'
import { READ, UPSERT, WRITE, type ToolSpec } from '../tool.js'

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
    description:
      'Creates a league owned by this key’s source. With an externalId it is an upsert on (source, externalId): repeating the call updates the same league instead of creating another, so it is safe to retry.',
    annotations: UPSERT,
    operation: upsertLeagueOperation,
  },
  {
    name: 'get_league',
    title: 'Get a league',
    description:
      'Returns one league with its games (by startsAt, each with positions) and its officials. Needs leagueId (from refdesk_list_leagues).',
    annotations: READ,
    operation: getLeagueOperation,
  },
  {
    name: 'update_league',
    title: 'Update a league',
    description:
      'Changes a league’s name, paymentMode, currency or assigning settings (timeZone, gameMinutes, travelBufferMinutes, maxGamesPerDay, conflictPolicy); only the keys given apply. Needs leagueId (from refdesk_list_leagues).',
    annotations: WRITE,
    operation: updateLeagueOperation,
  },
]
