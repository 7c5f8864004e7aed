// The conflict rules (domain/availability/conflicts.ts) as the app says them to the official: a plain sentence naming
// the rule, never the game, league or partner that caused it. Open games shows them on a refused claim and
// beside each game the official cannot take.
import type { Refusal } from '../domain/availability/conflicts.js'
import type { Notice } from './pages.js'

export const CONFLICT_SENTENCES: Readonly<Record<Refusal, string>> = {
  schedule_conflict: 'You already have a game at that time, or too close to it to travel between them.',
  official_unavailable: 'You marked yourself unavailable at that time.',
  daily_limit_reached: 'You already have as many games that day as this league allows.',
  level_too_low: 'That position needs a higher level than yours in this league.',
}

export const CONFLICT_NOTICES: Readonly<Record<Refusal, Notice>> = {
  schedule_conflict: { kind: 'error', text: CONFLICT_SENTENCES.schedule_conflict },
  official_unavailable: { kind: 'error', text: CONFLICT_SENTENCES.official_unavailable },
  daily_limit_reached: { kind: 'error', text: CONFLICT_SENTENCES.daily_limit_reached },
  level_too_low: { kind: 'error', text: CONFLICT_SENTENCES.level_too_low },
}
