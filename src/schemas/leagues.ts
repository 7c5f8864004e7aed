import { z } from 'zod'
import {
  Currency,
  DateTime,
  ExternalIdInput,
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

export const LeagueName = z
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

export const UpsertLeagueBody = z.object({
  name: LeagueName,
  paymentMode: PaymentModeInput.optional(),
  currency: Currency.optional(),
  source: SourceInput.optional(),
  externalId: ExternalIdInput.nullable().optional(),
})

export const UpdateLeagueBody = z.object({
  name: LeagueName.optional(),
  paymentMode: PaymentModeInput.optional(),
  currency: Currency.optional(),
  source: SourceInput.optional(),
})

export const LeagueParams = z.object({ leagueId: PathId('league_not_found') })

export type League = z.infer<typeof League>
export type LeagueListItem = z.infer<typeof LeagueListItem>
export type LeagueDetail = z.infer<typeof LeagueDetail>
export type UpsertLeagueInput = z.output<typeof UpsertLeagueBody>
export type UpdateLeagueInput = z.output<typeof UpdateLeagueBody>
