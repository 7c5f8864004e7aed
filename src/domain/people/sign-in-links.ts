// Sign-in by single-use email link. A link lives 15 minutes and is redeemed once, for a session. Asking for
// one answers alike whether or not the address has an account: the caller counts the request against the
// client's limit and answers, and only then makes the link (rate-limited per address) and mails it. The
// counters live in the database, so every serving process shares them.
import { isoNow } from '../../clock.js'
import { isEmailAddress } from '../../schemas/common.js'
import * as people from '../../store/people.js'
import * as sessions from '../../store/sessions.js'
import * as links from '../../store/sign-in-links.js'
import { removeMailStop } from '../../store/mail-permissions.js'
import type { Deps } from '../core/deps.js'
import { fail } from '../core/errors.js'
import { hashSecret, isSecretToken, newSecretToken } from '../core/secret-tokens.js'
import { iso, MINUTE_MS } from '../../time.js'

export const SIGN_IN_LINK_TTL_MS = 15 * MINUTE_MS

export interface SignInLimits {
  /** Link requests allowed per address, and per client address, within one window. */
  readonly perAddress: number
  readonly perClient: number
  readonly windowMs: number
}

/** Trimmed and lowercased, as partners' user emails are stored; undefined for anything not an address. */
export function normalizeEmail(raw: unknown): string | undefined {
  if (typeof raw !== 'string') return undefined
  const email = raw.trim().toLowerCase()
  return email.length <= 255 && isEmailAddress(email) ? email : undefined
}

// RefDesk's placeholder addresses (`…@placeholder.refdesk.invalid`, `…@partners.refdesk.invalid`) use the
// reserved .invalid domain: no mail can reach them, so no link is made for them.
const canReceiveMail = (email: string): boolean => !email.endsWith('.invalid')

/**
 * Counts a request for a link against its client's limit, whatever the address: false when over it. The
 * caller answers before any account is looked up (makeSignInLink runs after the answer), so the answer and
 * its timing are the same for every address.
 */
export async function admitSignInRequest(
  deps: Deps,
  input: { client: string; limits: SignInLimits },
): Promise<boolean> {
  const { limits } = input
  const now = deps.clock.now()
  const windowStartedAfter = iso(now - limits.windowMs)
  return deps.db.transaction().execute(async (trx) => {
    await links.deleteLimitsStartedBefore(trx, windowStartedAfter)
    const at = iso(now)
    const hits = await links.countHit(trx, `client:${hashSecret(input.client)}`, at, windowStartedAfter)
    return hits <= limits.perClient
  })
}

/**
 * A link for an address that has an account and can receive mail, or undefined. The per-address limit counts
 * only the links made here, for real accounts: asking for an unknown address costs nobody anything, and a
 * stranger asking for someone's address can only fill their inbox with links that sign *them* in, each live
 * for as long as the window that limits them (15 minutes): a nuisance, capped, never a lockout.
 */
export async function makeSignInLink(
  deps: Deps,
  input: { email: string; limits: SignInLimits },
): Promise<string | undefined> {
  const { email, limits } = input
  const now = deps.clock.now()
  const at = iso(now)
  const windowStartedAfter = iso(now - limits.windowMs)
  return deps.db.transaction().execute(async (trx) => {
    if (!canReceiveMail(email) || !(await people.hasUserWithEmail(trx, email))) return undefined
    const made = await links.countHit(trx, `address:${hashSecret(email)}`, at, windowStartedAfter)
    if (made > limits.perAddress) return undefined
    await links.deleteLinksExpiredBefore(trx, at)
    return insertLink(trx, email, now)
  })
}

/** The operator's link (`refdesk app sign-in-link`): no rate limit, any address an account carries. */
export async function issueSignInLink(deps: Deps, rawEmail: string): Promise<string> {
  const email = normalizeEmail(rawEmail) ?? fail('invalid_email')
  return deps.db.transaction().execute(async (trx) => {
    if (!(await people.hasUserWithEmail(trx, email))) fail('account_not_found')
    return insertLink(trx, email, deps.clock.now())
  })
}

async function insertLink(db: Deps['db'], email: string, now: number): Promise<string> {
  const token = newSecretToken()
  await links.insertLink(db, {
    token_hash: hashSecret(token),
    email,
    created_at: iso(now),
    expires_at: iso(now + SIGN_IN_LINK_TTL_MS),
  })
  return token
}

/** Whether the link would still sign in now; reading it does not use it up. */
export async function isLiveSignInLink(deps: Deps, token: unknown): Promise<boolean> {
  if (!isSecretToken(token)) return false
  return (await links.findLiveLink(deps.db, hashSecret(token), isoNow(deps.clock))) !== undefined
}

export interface NewSession {
  readonly token: string
  readonly expiresAt: Date
}

/** Uses the link up and opens a session for its address; undefined for an unknown, used or expired link. */
export async function redeemSignInLink(
  deps: Deps,
  token: unknown,
  input: { sessionTtlMs: number },
): Promise<NewSession | undefined> {
  if (!isSecretToken(token)) return undefined
  const now = deps.clock.now()
  const at = iso(now)
  return deps.db.transaction().execute(async (trx) => {
    const email = await links.consumeLink(trx, hashSecret(token), at)
    if (email === undefined) return undefined
    // Signing in proves the address is its owner's: a "Stop all mail" pressed for it ends.
    await removeMailStop(trx, email)
    await sessions.deleteSessionsExpiredBefore(trx, at)
    const session = { token: newSecretToken(), expiresAt: new Date(now + input.sessionTtlMs) }
    await sessions.insertSession(trx, {
      token_hash: hashSecret(session.token),
      email,
      created_at: at,
      expires_at: session.expiresAt.toISOString(),
    })
    return session
  })
}
