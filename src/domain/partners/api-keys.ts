// Partner API keys: `key_` + 48 hex, stored only as SHA-256 (the spec's rule: no part of the plaintext is
// kept), shown once at issuance. Operators tell keys apart by id and name; when a key was last used is
// kept too.
import { hash as digest, randomBytes, timingSafeEqual } from 'node:crypto'
import * as apiKeys from '../../store/api-keys.js'
import * as leagues from '../../store/leagues.js'
import * as users from '../../store/users.js'
import { CONSOLE_CALLER, RESERVED_SOURCE, type PartnerCaller } from '../core/caller.js'
import { isoNow, newId } from '../../clock.js'
import type { Deps } from '../core/deps.js'
import { MAX_SOURCE_LENGTH } from '../../schemas/common.js'
import { iso, MINUTE_MS } from '../../time.js'

// The scheme is case-insensitive (RFC 9110 §11.1), and one or more spaces may follow it (RFC 6750); the key
// itself is exact.
const BEARER = /^[Bb][Ee][Aa][Rr][Ee][Rr] +(key_[0-9a-f]{48})$/

export class KeyCommandError extends Error {}

export interface IssuedKey {
  id: string
  source: string
  name: string
  organizerId: string
  key: string
}

export interface KeySummary {
  id: string
  source: string
  name: string
  organizerId: string
  createdAt: string
  /** To the minute: see LAST_USED_RESOLUTION_MS. */
  lastUsedAt: string | null
  revokedAt: string | null
  grantedLeagueIds: string[]
}

/**
 * Last use is written at most once a minute per key: a write on every request would double the writes
 * of a read-heavy partner and serialize them on SQLite's one writer, for a figure an operator reads to
 * the day.
 */
const LAST_USED_RESOLUTION_MS = MINUTE_MS

// One-shot `hash` costs about half of a `createHash` object per request.
const hashKey = (key: string): string => digest('sha256', key, 'hex')

function validateSource(source: string): void {
  if (!/^[A-Za-z0-9._-]+$/.test(source) || source.length > MAX_SOURCE_LENGTH) {
    throw new KeyCommandError(`source must be 1-${MAX_SOURCE_LENGTH} characters of A-Z a-z 0-9 . _ -`)
  }
  if (source === RESERVED_SOURCE)
    throw new KeyCommandError(`source "${RESERVED_SOURCE}" is reserved for the application`)
}

export async function issueKey(
  deps: Deps,
  input: { source: string; name?: string; organizerEmail?: string; organizerExternalId?: string },
): Promise<IssuedKey> {
  validateSource(input.source)
  const key = `key_${randomBytes(24).toString('hex')}`
  const email = (input.organizerEmail ?? `${input.source}@partners.refdesk.invalid`).trim().toLowerCase()
  return deps.db.transaction().execute(async (trx) => {
    const at = isoNow(deps.clock)
    const fresh = { id: newId(), source: input.source, email, name: email, created_at: at, updated_at: at }
    const organizer =
      input.organizerExternalId !== undefined
        ? await users.upsertUserByExternalId(
            trx,
            { ...fresh, external_id: input.organizerExternalId },
            { email },
          )
        : ((await users.findUserByEmail(trx, input.source, email)) ??
          (await users.insertUser(trx, { ...fresh, external_id: null })))
    const row = await apiKeys.insertKey(trx, {
      id: newId(),
      source: input.source,
      name: input.name ?? '',
      key_hash: hashKey(key),
      organizer_id: organizer.id,
      created_at: at,
      revoked_at: null,
      last_used_at: null,
    })
    return { id: row.id, source: row.source, name: row.name, organizerId: organizer.id, key }
  })
}

/** The caller behind an `Authorization` header, or undefined for any missing, malformed, unknown or revoked key. */
export async function authenticate(
  deps: Deps,
  authorization: string | undefined,
): Promise<PartnerCaller | undefined> {
  const key = authorization === undefined ? undefined : BEARER.exec(authorization)?.[1]
  if (key === undefined) return undefined
  const hash = hashKey(key)
  const row = await apiKeys.findKeyByHash(deps.db, hash)
  if (!row || row.revoked_at !== null) return undefined
  if (!timingSafeEqual(Buffer.from(row.key_hash, 'hex'), Buffer.from(hash, 'hex'))) return undefined
  await noteUse(deps, row)
  return {
    kind: 'partner',
    keyId: row.id,
    source: row.source,
    organizerId: row.organizer_id,
    grantedLeagueIds: row.grantedLeagueIds,
  }
}

async function noteUse(deps: Deps, row: { id: string; last_used_at: string | null }): Promise<void> {
  const now = deps.clock.now()
  if (row.last_used_at !== null && now - Date.parse(row.last_used_at) < LAST_USED_RESOLUTION_MS) return
  const at = new Date(now)
  await apiKeys.noteUse(deps.db, row.id, at.toISOString(), iso(now - LAST_USED_RESOLUTION_MS))
}

export async function listKeys(deps: Deps): Promise<KeySummary[]> {
  const [rows, grants] = await Promise.all([apiKeys.listKeys(deps.db), apiKeys.listGrants(deps.db)])
  return rows.map((r) => ({
    id: r.id,
    source: r.source,
    name: r.name,
    organizerId: r.organizer_id,
    createdAt: r.created_at,
    lastUsedAt: r.last_used_at,
    revokedAt: r.revoked_at,
    grantedLeagueIds: grants.filter((g) => g.key_id === r.id).map((g) => g.league_id),
  }))
}

async function requireKey(deps: Deps, keyId: string) {
  const row = await apiKeys.findKey(deps.db, keyId)
  if (!row) throw new KeyCommandError(`no key ${keyId}`)
  return row
}

export async function revokeKey(deps: Deps, keyId: string): Promise<void> {
  await requireKey(deps, keyId)
  await apiKeys.revokeKey(deps.db, keyId, isoNow(deps.clock))
}

export async function grantLeague(deps: Deps, keyId: string, leagueId: string): Promise<void> {
  await requireKey(deps, keyId)
  if (!(await leagues.findLeagueInScope(deps.db, CONSOLE_CALLER, leagueId))) {
    throw new KeyCommandError(`no league ${leagueId}`)
  }
  await apiKeys.insertGrant(deps.db, keyId, leagueId, isoNow(deps.clock))
}

export async function ungrantLeague(deps: Deps, keyId: string, leagueId: string): Promise<void> {
  await requireKey(deps, keyId)
  if (!(await apiKeys.deleteGrant(deps.db, keyId, leagueId))) {
    throw new KeyCommandError(`key ${keyId} has no grant on league ${leagueId}`)
  }
}
