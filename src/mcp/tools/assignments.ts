import {
  assignPositionOperation,
  listAssignmentsOperation,
  unassignPositionOperation,
} from '../../operations/assignments.js'
import { getGameOperation } from '../../operations/games.js'
import { z } from 'zod'
import type { GameDetail } from '../../schemas/games.js'
import { PositionDetail } from '../../schemas/games.js'
import { ClaimOfficial } from '../../schemas/officials.js'
import { DESTRUCTIVE, NEXT_STEP, READ, WRITE, read, refuse, segment, type ToolSpec } from '../tool.js'

const UnassignPreview = z.object({
  gameId: z.string(),
  position: PositionDetail,
  official: ClaimOfficial,
  becomes: z.enum(['open', 'cancelled']).meta({ description: 'cancelled when the game is cancelled' }),
  next: z.string(),
})

export const assignmentTools: ToolSpec[] = [
  {
    name: 'list_assignments',
    title: 'List a league’s assignments',
    description:
      'Lists every position of a league that holds a claim (claimed, completed, or cancelled after a no-show), by game start, each with its game, official and payment. Needs leagueId (from refdesk_list_leagues).',
    annotations: READ,
    operation: listAssignmentsOperation,
  },
  {
    name: 'assign_position',
    title: 'Assign an official to a position',
    description:
      'Assigns an approved official of the game’s league to a position: the given positionId, else the first open one whose minLevel the official’s level meets (else the first open one, refused with level_too_low). Name the official by userId (from refdesk_list_officials) or by your externalId. Needs gameId (from refdesk_list_games). Not idempotent: after an unclear failure, check refdesk_get_game before retrying.',
    annotations: WRITE,
    operation: assignPositionOperation,
  },
  {
    name: 'unassign_position',
    title: 'Unassign a position',
    description: [
      'Releases a claimed position: the claim is deleted and the position reopens (or becomes cancelled in a cancelled game). Needs gameId (from refdesk_list_games) and positionId (from refdesk_get_game or refdesk_list_assignments).',
      'Destructive: without confirm: true nothing changes and the result is a preview naming the position and the official who would be released. Show it to the user, then repeat with confirm: true.',
    ].join('\n'),
    annotations: DESTRUCTIVE,
    operation: unassignPositionOperation,
    preview: {
      schema: UnassignPreview,
      async build(args, forward) {
        if (typeof args.positionId !== 'string' || args.positionId === '') refuse('positionId_required')
        const game = await read<GameDetail>(forward, {
          operation: getGameOperation,
          params: { gameId: segment(args.gameId) },
        })
        const position = game.positions.find((p) => p.id === args.positionId) ?? refuse('position_not_found')
        const official =
          (position.status === 'claimed' && position.official) || refuse('position_not_claimed')
        return {
          gameId: game.id,
          position,
          official,
          becomes: game.status === 'cancelled' ? ('cancelled' as const) : ('open' as const),
          next: NEXT_STEP,
        }
      },
    },
  },
]
