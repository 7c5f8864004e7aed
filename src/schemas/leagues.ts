import { z } from 'zod'
import {
  Currency,
  DateTime,
  ExternalIdInput,
  extension,
  Id,
  PathId,
  PaymentMode,
  MAX_LENGTH,
  PaymentModeInput,
  SourceInput,
  isStorableText,
} from './common.js'
import { Game } from './games.js'
import { Official } from './officials.js'
import {
  CONFLICT_POLICIES,
  GAME_MINUTES,
  integerIn,
  MAX_GAMES_PER_DAY,
  TimeZoneInput,
  TRAVEL_BUFFER_MINUTES,
} from './schedule.js'

const LeagueName = z
  .string({ error: (issue) => (issue.input === undefined ? 'name_required' : 'invalid_name') })
  .trim()
  .min(1, { error: 'name_required' })
  .max(MAX_LENGTH.name, { error: 'invalid_name' })
  .refine(isStorableText, { error: 'invalid_name' })

export const League = z
  .object({
    id: Id,
    name: z.string(),
    paymentMode: PaymentMode,
    currency: z.string(),
    source: z.string(),
    externalId: z.string().nullable(),
    createdAt: DateTime,
    timeZone: extension(z.string(), 'IANA name; the league’s local time (extension).'),
    gameMinutes: extension(z.number().int(), 'Length of a game without its own (extension).'),
    travelBufferMinutes: extension(z.number().int(), 'Least gap between an official’s games (extension).'),
    maxGamesPerDay: extension(
      z.number().int().nullable(),
      'Per official and local day; null: no limit (extension).',
    ),
    conflictPolicy: extension(
      z.enum(CONFLICT_POLICIES),
      'Whether a partner’s assign refuses conflicts (extension).',
    ),
  })
  .meta({ id: 'League' })

export const LeagueListItem = League.extend({
  gameCount: z.number().int(),
  memberCount: z.number().int().meta({ description: 'Memberships of every role, the organizer included.' }),
}).meta({ id: 'LeagueListItem' })

export const LeagueDetail = League.extend({
  games: z.array(Game),
  officials: z.array(Official),
}).meta({ id: 'LeagueDetail' })

/** The assigning settings, each optional on create, upsert and PATCH; an upsert keeps those it omits. */
const leagueSettings = {
  timeZone: extension(
    TimeZoneInput.optional(),
    'IANA time zone name, e.g. `America/Los_Angeles`, stored as its canonical name; default `UTC`.',
  ),
  gameMinutes: extension(
    integerIn('gameMinutes', GAME_MINUTES.min, GAME_MINUTES.max).optional(),
    `Minutes, ${GAME_MINUTES.min}–${GAME_MINUTES.max}; default ${GAME_MINUTES.default}.`,
  ),
  travelBufferMinutes: extension(
    integerIn('travelBufferMinutes', TRAVEL_BUFFER_MINUTES.min, TRAVEL_BUFFER_MINUTES.max).optional(),
    `Minutes, ${TRAVEL_BUFFER_MINUTES.min}–${TRAVEL_BUFFER_MINUTES.max}; default ${TRAVEL_BUFFER_MINUTES.default}.`,
  ),
  maxGamesPerDay: extension(
    integerIn('maxGamesPerDay', MAX_GAMES_PER_DAY.min, MAX_GAMES_PER_DAY.max).nullable().optional(),
    `${MAX_GAMES_PER_DAY.min}–${MAX_GAMES_PER_DAY.max}, or null (no limit, the default).`,
  ),
  conflictPolicy: extension(
    z.enum(CONFLICT_POLICIES, { error: 'invalid_conflictPolicy' }).optional(),
    '`allow` (default): a partner’s assign ignores conflicts; `refuse`: 409 with the rule.',
  ),
}

export const UpsertLeagueBody = z.object({
  name: LeagueName,
  paymentMode: PaymentModeInput.optional(),
  currency: Currency.optional(),
  source: SourceInput.optional(),
  externalId: ExternalIdInput.nullable().optional(),
  ...leagueSettings,
})

export const UpdateLeagueBody = z.object({
  name: LeagueName.optional(),
  paymentMode: PaymentModeInput.optional(),
  currency: Currency.optional(),
  source: SourceInput.optional(),
  ...leagueSettings,
})

export const LeagueParams = z.object({ leagueId: PathId('league_not_found') })

export type League = z.infer<typeof League>
export type LeagueListItem = z.infer<typeof LeagueListItem>
export type LeagueDetail = z.infer<typeof LeagueDetail>
export type UpsertLeagueInput = z.output<typeof UpsertLeagueBody>
export type UpdateLeagueInput = z.output<typeof UpdateLeagueBody>
