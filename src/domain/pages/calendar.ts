// A person's private calendar feed: one unguessable token per person, kept as a hash. Making a new one
// revokes the old at once. The feed lists the positions they hold, from 90 days back.
import { isoNow } from '../../clock.js'
import * as officialGames from '../../store/official-games.js'
import * as people from '../../store/people.js'
import type { Deps } from '../core/deps.js'
import { toHeldGame, type HeldGame } from './schedule.js'
import { hashSecret, isSecretToken, newSecretToken } from '../core/secret-tokens.js'
import type { PersonCaller } from '../core/caller.js'
import { DAY_MS, iso } from '../../time.js'

const FEED_HISTORY_MS = 90 * DAY_MS

/** When the person's current feed address was made, if they have one. */
export async function findCalendarFeed(
  deps: Deps,
  person: PersonCaller,
): Promise<{ createdAt: string } | undefined> {
  const row = await people.findCalendarFeed(deps.db, { email: person.email })
  return row && { createdAt: row.created_at }
}

/** A new feed token, shown once; the previous one stops working. */
export async function renewCalendarFeed(deps: Deps, person: PersonCaller): Promise<string> {
  const token = newSecretToken()
  await people.replaceCalendarFeed(deps.db, person.email, hashSecret(token), isoNow(deps.clock))
  return token
}

/** The games of the feed this token opens, soonest first; undefined for an unknown or revoked token. */
export async function calendarFeedGames(deps: Deps, token: unknown): Promise<HeldGame[] | undefined> {
  if (!isSecretToken(token)) return undefined
  const feed = await people.findCalendarFeed(deps.db, { tokenHash: hashSecret(token) })
  if (!feed) return undefined
  const userIds = await people.listUserIdsByEmail(deps.db, feed.email)
  const now = deps.clock.now()
  const at = iso(now)
  const from = iso(now - FEED_HISTORY_MS)
  return (await officialGames.listUpcomingHeld(deps.db, userIds, from)).map((row) => toHeldGame(row, at))
}
