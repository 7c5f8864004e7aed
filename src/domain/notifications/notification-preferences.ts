// Which notification kinds a person gets: every kind unless they turned it off on Profile or with a mail's
// one-click unsubscribe (RFC 8058). A person is an email address, so the choice covers every user row
// carrying it. Unsubscribe tokens are bearer secrets kept as SHA-256, each good for one address and kind.
import { NOTIFICATION_KINDS, type NotificationKindName } from '../../schemas/notifications.js'
import * as permissions from '../../store/mail-permissions.js'
import { isoNow } from '../../clock.js'
import type { Deps } from '../core/deps.js'
import { hashSecret, isSecretToken } from '../core/secret-tokens.js'

/** Every kind, and whether the person gets it. */
export async function listPreferences(
  deps: Deps,
  person: { email: string },
): Promise<{ kind: NotificationKindName; enabled: boolean }[]> {
  const off = new Set((await permissions.listOptouts(deps.db, [person.email])).map((o) => o.kind))
  return NOTIFICATION_KINDS.map((kind) => ({ kind, enabled: !off.has(kind) }))
}

/** The kinds listed are on, every other kind off; anything that is not a kind is ignored. */
export async function setPreferences(
  deps: Deps,
  person: { email: string },
  enabled: readonly string[],
): Promise<void> {
  const on = NOTIFICATION_KINDS.filter((kind) => enabled.includes(kind))
  const off = NOTIFICATION_KINDS.filter((kind) => !enabled.includes(kind))
  const at = isoNow(deps.clock)
  await deps.db.transaction().execute(async (trx) => {
    await permissions.removeOptouts(trx, person.email, on)
    await permissions.addOptouts(trx, person.email, off, at)
  })
}

/** What a link stops: one kind, or `all` (the Invited mail's "Not you? Stop all mail"). */
type Stopped = { email: string; kind: NotificationKindName | 'all' }

/** What an unsubscribe link stops, or undefined for a token never issued. */
export async function findUnsubscribe(deps: Deps, token: unknown): Promise<Stopped | undefined> {
  if (!isSecretToken(token)) return undefined
  return permissions.findUnsubscribeToken(deps.db, hashSecret(token))
}

/**
 * Turns the link's kind off for its address, or with `all` every mail to it until its owner signs in;
 * answers what it stopped (undefined: no such link).
 */
export async function unsubscribe(deps: Deps, token: unknown): Promise<Stopped | undefined> {
  const found = await findUnsubscribe(deps, token)
  const at = isoNow(deps.clock)
  if (found?.kind === 'all') await permissions.addMailStop(deps.db, found.email, at)
  else if (found) await permissions.addOptouts(deps.db, found.email, [found.kind], at)
  return found
}
