import { listAssignmentsOperation } from '../../operations/assignments.js'
import {
  listOfficialsOperation,
  removeOfficialOperation,
  upsertOfficialOperation,
} from '../../operations/officials.js'
import { z } from 'zod'
import type { Assignment } from '../../schemas/games.js'
import { Official } from '../../schemas/officials.js'
import { DESTRUCTIVE, NEXT_STEP, READ, UPSERT, read, refuse, segment, type ToolSpec } from '../tool.js'

const RemoveOfficialPreview = z.object({
  official: Official,
  positionsReleased: z.array(
    z.object({
      positionId: z.string(),
      gameId: z.string(),
      label: z.string(),
      startsAt: z.string(),
      becomes: z.enum(['open', 'cancelled']).meta({ description: 'cancelled when the game is cancelled' }),
    }),
  ),
  next: z.string(),
})

export const officialTools: ToolSpec[] = [
  {
    name: 'list_officials',
    title: 'List a league’s officials',
    description:
      'Lists a league’s officials in every membership status (pending, approved, denied), oldest first; their userId is what refdesk_assign_position and refdesk_remove_official take. Needs leagueId (from refdesk_list_leagues).',
    annotations: READ,
    operation: listOfficialsOperation,
  },
  {
    name: 'upsert_official',
    title: 'Add or re-approve an official',
    description:
      'Adds an official to a league, upserting the user on (source, externalId); an existing membership (a denied one included) is approved again unless status "pending" is sent. Safe to repeat. Needs leagueId (from refdesk_list_leagues) and your externalId for the person.',
    annotations: UPSERT,
    operation: upsertOfficialOperation,
  },
  {
    name: 'remove_official',
    title: 'Remove an official from a league',
    description: [
      'Removes an official’s membership; every position they hold in status claimed is released (reopened, or cancelled in a cancelled game). Worked positions keep their claims. Needs leagueId (from refdesk_list_leagues) and userId (from refdesk_list_officials).',
      'Destructive: without confirm: true nothing changes and the result is a preview naming the official and the positions that would be released. Show it to the user, then repeat with confirm: true.',
    ].join('\n'),
    annotations: DESTRUCTIVE,
    operation: removeOfficialOperation,
    preview: {
      schema: RemoveOfficialPreview,
      async build(args, forward) {
        const params = { leagueId: segment(args.leagueId) }
        const officials = await read<Official[]>(forward, { operation: listOfficialsOperation, params })
        const official = officials.find((o) => o.userId === args.userId) ?? refuse('not_a_member')
        const assignments = await read<Assignment[]>(forward, { operation: listAssignmentsOperation, params })
        return {
          official,
          positionsReleased: assignments
            .filter((a) => a.official.id === official.userId && a.status === 'claimed')
            .map((a) => ({
              positionId: a.positionId,
              gameId: a.gameId,
              label: a.label,
              startsAt: a.game.startsAt,
              becomes: a.game.status === 'cancelled' ? ('cancelled' as const) : ('open' as const),
            })),
          next: NEXT_STEP,
        }
      },
    },
  },
]
