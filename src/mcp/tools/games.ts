import {
  listGamesOperation,
  upsertGamesOperation,
  getGameOperation,
  updateGameOperation,
  cancelGameOperation,
} from '../../operations/games.js'
import { z } from 'zod'
import {
  PositionDetail,
  UpsertGamesEnvelope,
  type Game as GameShape,
  type GameDetail as GameDetailShape,
} from '../../schemas/games.js'
import { parseWith } from '../../domain/core/parse.js'
import { DESTRUCTIVE, NEXT_STEP, READ, WRITE, read, segment, type ToolSpec } from '../tool.js'

const UpsertGamesPreview = z.object({
  leagueId: z.string(),
  create: z.array(z.object({ index: z.number().int(), externalId: z.string().nullable() })),
  update: z.array(
    z.object({ index: z.number().int(), externalId: z.string(), gameId: z.string(), startsAt: z.string() }),
  ),
  next: z.string(),
})

const CancelGamePreview = z.object({
  gameId: z.string(),
  status: z.string(),
  alreadyCancelled: z.boolean(),
  positionsCancelled: z.array(PositionDetail),
  positionsKept: z.array(PositionDetail),
  next: z.string(),
})

function externalIdOf(item: unknown): string | null {
  const value = (item as { externalId?: unknown } | null)?.externalId
  return typeof value === 'string' && value !== '' ? value : null
}

export const gameTools: ToolSpec[] = [
  {
    name: 'list_games',
    title: 'List a league’s games',
    description:
      'Lists a league’s games by startsAt ascending, each with its positions (id, label, pay, status). Needs leagueId (from refdesk_list_leagues).',
    annotations: READ,
    operation: listGamesOperation,
  },
  {
    name: 'upsert_games',
    title: 'Import games (batch, 1 to 500)',
    description: [
      'Creates games in a league, each with its crew when the item names `positions` (1 to 10, each with label, payDollars and minLevel), else with one open position (the item’s label and payDollars); `durationMinutes` sets a game’s own length (default: the league’s gameMinutes). A game with an externalId is upserted on (source, externalId): an existing game gets its startsAt and the sport, location, latitude, longitude and durationMinutes the item carries overwritten; its positions stay as they are. Needs leagueId (from refdesk_list_leagues).',
      'Bulk write: without confirm: true nothing is written and the result is a preview listing which items would create a game and which would update which existing game. Show it to the user, then repeat with confirm: true.',
      'Games are written in order; the first failing item is the error and the items before it stay written. Re-sending the corrected batch is safe when every item has an externalId.',
    ].join('\n'),
    annotations: { ...DESTRUCTIVE, idempotentHint: true },
    operation: upsertGamesOperation,
    preview: {
      schema: UpsertGamesPreview,
      async build(args, forward) {
        const { games: items } = parseWith(UpsertGamesEnvelope, { source: args.source, games: args.games })
        const existing = await read<GameShape[]>(forward, {
          operation: listGamesOperation,
          params: { leagueId: segment(args.leagueId) },
        })
        const byExternalId = new Map(existing.filter((g) => g.externalId).map((g) => [g.externalId, g]))
        const preview: z.infer<typeof UpsertGamesPreview> = {
          leagueId: String(args.leagueId),
          create: [],
          update: [],
          next: NEXT_STEP,
        }
        items.forEach((item, index) => {
          const externalId = externalIdOf(item)
          const game = externalId === null ? undefined : byExternalId.get(externalId)
          if (game && externalId !== null)
            preview.update.push({ index, externalId, gameId: game.id, startsAt: game.startsAt })
          else preview.create.push({ index, externalId })
        })
        return preview
      },
    },
  },
  {
    name: 'get_game',
    title: 'Get a game',
    description:
      'Returns one game with each position’s official and payment. Needs gameId (from refdesk_list_games or refdesk_get_league).',
    annotations: READ,
    operation: getGameOperation,
  },
  {
    name: 'update_game',
    title: 'Update a game',
    description:
      'Changes a game’s sport, startsAt, location or durationMinutes (its own length, 15 to 600 minutes); only the keys given apply. The status cannot be set here (use refdesk_cancel_game to cancel). Needs gameId (from refdesk_list_games).',
    annotations: WRITE,
    operation: updateGameOperation,
  },
  {
    name: 'cancel_game',
    title: 'Cancel a game',
    description: [
      'Cancels a game: its open positions become cancelled; claimed positions keep their officials and payments. Cancelling a cancelled game changes nothing. Needs gameId (from refdesk_list_games).',
      'Destructive: without confirm: true nothing changes and the result is a preview listing the positions that would be cancelled and those kept. Show it to the user, then repeat with confirm: true.',
    ].join('\n'),
    annotations: DESTRUCTIVE,
    operation: cancelGameOperation,
    preview: {
      schema: CancelGamePreview,
      async build(args, forward) {
        const game = await read<GameDetailShape>(forward, {
          operation: getGameOperation,
          params: { gameId: segment(args.gameId) },
        })
        const alreadyCancelled = game.status === 'cancelled'
        const cancels = (status: string) => !alreadyCancelled && status === 'open'
        return {
          gameId: game.id,
          status: game.status,
          alreadyCancelled,
          positionsCancelled: game.positions.filter((p) => cancels(p.status)),
          positionsKept: game.positions.filter((p) => !cancels(p.status)),
          next: NEXT_STEP,
        }
      },
    },
  },
]
