import { z } from 'zod'
import {
  DateTime,
  extension,
  Id,
  isEmailAddress,
  isStorableText,
  MAX_LENGTH,
  PathId,
  SourceInput,
  text,
} from './common.js'
import { Level, LevelInput } from './schedule.js'

export const MembershipStatus = z.enum(['pending', 'approved', 'denied'])

export const Official = z
  .object({
    userId: Id,
    leagueId: Id,
    status: MembershipStatus,
    name: z.string(),
    email: z.string(),
    externalId: z.string().nullable(),
    source: z.string(),
    createdAt: DateTime,
    level: extension(Level, 'The official’s level in this league; null: none (extension).'),
    confirmed: extension(
      z.boolean(),
      'Whether the person joined the league (extension). Until they do, the league sees only its own games of theirs: no availability, home point or games elsewhere.',
    ),
  })
  .meta({ id: 'Official' })

/** The claim view embedded in positions, assignments and events. `id` is the user id. */
export const ClaimOfficial = z
  .object({
    id: Id,
    name: z.string(),
    email: z.string(),
    claimStatus: z.literal('confirmed'),
  })
  .meta({ id: 'ClaimOfficial' })

export const UpsertOfficialBody = z.object({
  externalId: z
    .string({ error: (issue) => (issue.input === undefined ? 'externalId_required' : 'invalid_externalId') })
    .min(1, { error: 'externalId_required' })
    .max(MAX_LENGTH.externalId, { error: 'invalid_externalId' })
    .refine(isStorableText, { error: 'invalid_externalId' }),
  source: SourceInput.optional(),
  // Bounded after trimming and lowercasing, which is what is stored (lowercasing can lengthen a string).
  email: z
    .string({ error: 'invalid_email' })
    .trim()
    .toLowerCase()
    .max(MAX_LENGTH.email, { error: 'invalid_email' })
    .refine(isStorableText, { error: 'invalid_email' })
    // An empty one is none given, as before.
    .refine((email) => email === '' || isEmailAddress(email), { error: 'invalid_email' })
    .optional()
    .meta({
      description:
        'One address, trimmed and lowercased (a list of addresses is refused); a placeholder is synthesized for a new user without one.',
    }),
  name: text('name', MAX_LENGTH.name).optional(),
  status: z
    .unknown()
    .transform((s): 'pending' | 'approved' => (s === 'pending' ? 'pending' : 'approved'))
    .optional()
    .meta({
      type: 'string',
      enum: ['approved', 'pending'],
      description: 'Only `pending` is honored; anything else → approved.',
    }),
  level: LevelInput.optional(),
})

export const OfficialParams = z.object({
  leagueId: PathId('league_not_found'),
  userId: PathId('not_a_member'),
})

export type Official = z.infer<typeof Official>
export type ClaimOfficial = z.infer<typeof ClaimOfficial>
export type UpsertOfficialInput = z.output<typeof UpsertOfficialBody>
