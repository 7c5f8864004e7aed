import { z } from 'zod'
import {
  DateTime,
  ExternalIdInput,
  extension,
  Id,
  isStorableText,
  MAX_LENGTH,
  PathId,
  PayDollarsInput,
  SourceInput,
  Status,
  text,
} from './common.js'
import { ClaimOfficial } from './officials.js'
import { DurationMinutesInput, GAME_MINUTES, Level, MinLevelInput } from './schedule.js'
import { Payment } from './payments.js'
import { MINUTE_MS, parseInstant } from '../time.js'

export const MAX_GAMES_PER_BATCH = 500
const MAX_ECHOED_VALUE = 200

function echo(value: unknown): string {
  if (typeof value === 'string') return value.slice(0, MAX_ECHOED_VALUE)
  try {
    return (JSON.stringify(value) ?? '').slice(0, MAX_ECHOED_VALUE)
  } catch {
    // Nesting deep enough to overflow the stack (a 1 MiB body allows ~500,000 levels) echoes nothing.
    return ''
  }
}

/** `startsAt` and the other instants of the API, strictly ISO 8601 (time.ts `parseInstant`). */
export function parseStartsAt(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > MAX_LENGTH.startsAt) return undefined
  return parseInstant(value)
}

/** An instant of a window (`from`, `to`), as `startsAt` is read; anything else is `invalid_<name>`. */
export const InstantInput = (name: 'from' | 'to') =>
  z
    .unknown()
    .transform((value, ctx) => {
      const iso = parseStartsAt(value)
      if (iso === undefined) {
        ctx.addIssue({ code: 'custom', message: `invalid_${name}`, input: value })
        return z.NEVER
      }
      return iso
    })
    .meta({ type: 'string', format: 'date-time', maxLength: MAX_LENGTH.startsAt })

/** The last instant a stored timestamp can name. */
const LAST_INSTANT = Date.parse('9999-12-31T23:59:59.999Z')

/**
 * A game's start leaves room for its end (`endsAt`, up to GAME_MINUTES.max later) to be a stored timestamp
 * too: a game starting in the last hours of 9999 has none.
 */
const leavesRoomForItsEnd = (iso: string) => Date.parse(iso) + GAME_MINUTES.max * MINUTE_MS <= LAST_INSTANT

const StartsAtInput = z
  .unknown()
  .transform((value, ctx) => {
    const iso = parseStartsAt(value)
    if (iso === undefined || !leavesRoomForItsEnd(iso)) {
      ctx.addIssue({ code: 'custom', message: `invalid_startsAt:${echo(value)}`, input: value })
      return z.NEVER
    }
    return iso
  })
  .meta({
    type: 'string',
    format: 'date-time',
    maxLength: MAX_LENGTH.startsAt,
    description:
      'ISO 8601 with an offset (`Z`, `±HH:MM`), or a day alone (its midnight UTC); a date-time without an offset is refused.',
  })

const Coordinate = (name: 'latitude' | 'longitude', bound: number) =>
  z
    .number({ error: `invalid_${name}` })
    .min(-bound, { error: `invalid_${name}` })
    .max(bound, { error: `invalid_${name}` })
    .nullable()

export const Position = z
  .object({
    id: Id,
    label: z.string(),
    payCents: z.number().int(),
    payDollars: z.number(),
    status: Status,
    minLevel: extension(Level, 'The least level that may take it; null: anyone (extension).'),
  })
  .meta({ id: 'Position' })

export const PositionDetail = Position.extend({
  official: ClaimOfficial.nullable(),
  payment: Payment.nullable(),
}).meta({ id: 'PositionDetail' })

const gameFields = {
  id: Id,
  leagueId: Id,
  sport: z.string(),
  startsAt: DateTime,
  durationMinutes: extension(
    z.number().int(),
    "The game's own length, else its league's gameMinutes (extension).",
  ),
  endsAt: extension(DateTime, 'startsAt + durationMinutes (extension).'),
  location: z.string(),
  venue: extension(
    z.string().nullable(),
    'The complex the game is played at; games with the same venue are one place, so no travel buffer applies between them, only that they do not overlap. Null when not given (extension).',
  ),
  status: Status,
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  source: z.string(),
  externalId: z.string().nullable(),
}

export const GameSummary = z.object(gameFields).meta({ id: 'GameSummary' })
export const Game = z.object({ ...gameFields, positions: z.array(Position) }).meta({ id: 'Game' })
export const GameDetail = z
  .object({ ...gameFields, positions: z.array(PositionDetail) })
  .meta({ id: 'GameDetail' })

export const MAX_POSITIONS_PER_GAME = 10

/** One position of a crew: on an imported game's `positions`, or added to a game later. */
export const PositionInput = z.object({
  label: text('label', MAX_LENGTH.label).default('Official'),
  payDollars: PayDollarsInput.default(0),
  minLevel: MinLevelInput.optional(),
})

/** Add position's body: a position, and `source` as every write takes it (omitted or the key's own). */
export const AddPositionBody = PositionInput.extend({ source: SourceInput.optional() })

export const GameItemInput = z.object({
  startsAt: StartsAtInput,
  sport: text('sport', MAX_LENGTH.sport).default(''),
  location: text('location', MAX_LENGTH.location).default(''),
  venue: extension(
    text('venue', MAX_LENGTH.venue).nullable().optional(),
    `The complex the game is played at, at most ${MAX_LENGTH.venue} characters (extension; invalid_venue). Games with the same venue are one place: between them the travel buffer does not apply. An upsert-update that carries it rewrites it; null clears it.`,
  ),
  label: text('label', MAX_LENGTH.label).default('Official'),
  payDollars: PayDollarsInput.default(0),
  latitude: Coordinate('latitude', 90).optional(),
  longitude: Coordinate('longitude', 180).optional(),
  externalId: ExternalIdInput.optional(),
  durationMinutes: DurationMinutesInput.optional(),
  positions: extension(
    z
      .array(PositionInput, { error: 'invalid_positions' })
      .min(1, { error: 'invalid_positions' })
      .max(MAX_POSITIONS_PER_GAME, { error: 'invalid_positions' })
      .optional(),
    `The game's crew, 1–${MAX_POSITIONS_PER_GAME} positions (extension). Only on create: an upsert-update leaves positions alone. Not together with the item's own \`label\` or \`payDollars\` (invalid_positions). Without it a new game gets exactly one position.`,
  ),
})

export const UpsertGamesBody = z.object({
  source: SourceInput.optional(),
  games: z
    .array(GameItemInput, { error: 'no_games' })
    .min(1, { error: 'no_games' })
    .max(MAX_GAMES_PER_BATCH, { error: 'too_many_games' }),
})

/**
 * What the route validates up front: the envelope only. Items are parsed one by one, in order, by the
 * service, because a bad item must not undo the valid items before it.
 */
export const UpsertGamesEnvelope = UpsertGamesBody.extend({
  games: z
    .array(z.unknown(), { error: 'no_games' })
    .min(1, { error: 'no_games' })
    .max(MAX_GAMES_PER_BATCH, { error: 'too_many_games' }),
})

export const UpdateGameBody = z.object({
  status: z
    .unknown()
    .refine((s) => s === undefined, { error: 'status_not_updatable' })
    .optional()
    .meta({ description: 'Refused: supplying it answers status_not_updatable and applies nothing.' }),
  sport: text('sport', MAX_LENGTH.sport).optional(),
  startsAt: StartsAtInput.optional(),
  location: text('location', MAX_LENGTH.location).optional(),
  durationMinutes: DurationMinutesInput.optional(),
  source: SourceInput.optional(),
})

export const GameParams = z.object({ gameId: PathId('game_not_found') })

export const GamePositionParams = z.object({
  gameId: PathId('game_not_found'),
  positionId: PathId('position_not_found'),
})

export const AssignBody = z.object({
  userId: text('userId', MAX_LENGTH.id).optional().meta({ description: 'Takes precedence over externalId.' }),
  externalId: ExternalIdInput.optional(),
  source: SourceInput.optional(),
  positionId: text('positionId', MAX_LENGTH.id).optional().meta({
    description:
      'Default: the first open position the official qualifies for (its minLevel at most the official’s level; an official without a level qualifies only for positions without one); if there is none, the first open position, which answers 409 level_too_low.',
  }),
})

export const UnassignQuery = z.object({
  positionId: z
    .string({ error: 'positionId_required' })
    .min(1, { error: 'positionId_required' })
    .max(MAX_LENGTH.id, { error: 'position_not_found' })
    .refine(isStorableText, { error: 'position_not_found' })
    .optional()
    .meta({ description: 'Required.' }),
})

export const Assignment = z
  .object({
    positionId: Id,
    gameId: Id,
    label: z.string(),
    payCents: z.number().int(),
    payDollars: z.number(),
    status: Status,
    game: GameSummary,
    official: ClaimOfficial,
    payment: Payment.nullable(),
  })
  .meta({ id: 'Assignment' })

export type Position = z.infer<typeof Position>
export type PositionDetail = z.infer<typeof PositionDetail>
export type GameSummary = z.infer<typeof GameSummary>
export type Game = z.infer<typeof Game>
export type GameDetail = z.infer<typeof GameDetail>
export type GameItem = z.output<typeof GameItemInput>
export type PositionInput = z.output<typeof PositionInput>
export type AddPositionInput = z.output<typeof AddPositionBody>
export type UpdateGameInput = z.output<typeof UpdateGameBody>
export type AssignInput = z.output<typeof AssignBody>
export type Assignment = z.infer<typeof Assignment>
