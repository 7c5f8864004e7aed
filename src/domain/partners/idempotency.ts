// Idempotency-Key, as Stripe has it, for the POSTs the spec calls non-idempotent (assign, webhook
// registration, the games batch): the first request with a key acts and its answer is kept for 24 h; a
// retry with the same key and the same request replays that answer (status and body) without acting. Keys
// belong to the API key that sent them. The reservation is a row of its own, committed before the request
// acts, so of two identical requests at once one acts and the other answers idempotency_key_in_use.
import { createHash } from 'node:crypto'
import type { Kysely } from 'kysely'
import * as idempotencyKeys from '../../store/idempotency-keys.js'
import type { Db } from '../../store/tables.js'
import type { PartnerCaller } from '../core/caller.js'
import type { Deps } from '../core/deps.js'
import { fail } from '../core/errors.js'
import { iso } from '../../time.js'

const REPLAY_WINDOW_MS = 24 * 60 * 60 * 1000
/**
 * A reservation still running after this long belongs to a process that died mid-request (no request
 * runs for minutes); a retry may then take the key over and act.
 */
export const STALE_RESERVATION_MS = 5 * 60 * 1000

/** An answer as sent: status and the JSON text of the body, replayed byte for byte. */
export interface KeptAnswer {
  status: number
  body: string
}

/** The operation and its validated input: what must match for a retry to replay. */
export interface IdempotentRequest {
  operationId: string
  params: unknown
  query: unknown
  body: unknown
}

/**
 * What a replay re-checks. A kept answer is about something (a game, a league, an endpoint) the caller
 * could reach when it was made; a replay answers only while that still holds, else the same error a
 * request without a key would get now (a withdrawn grant: the 404 of any other key). Secrets the answer
 * carried are not stored: `seal` takes them out and `replay` puts them back from the live row.
 */
export interface ReplayGuard {
  /** On the replay's transaction: throws the caller's current error, or answers the kept answer, restored. */
  replay(trx: Kysely<Db>, caller: PartnerCaller, kept: KeptAnswer): Promise<KeptAnswer>
  /** The answer as stored; as sent when absent. */
  seal?(answer: KeptAnswer): KeptAnswer
}

/** A guard that re-checks access only (the answer holds no secret): `check` throws the current error. */
export function recheck(check: (trx: Kysely<Db>, caller: PartnerCaller) => Promise<unknown>): ReplayGuard {
  return {
    async replay(trx, caller, kept) {
      await check(trx, caller)
      return kept
    },
  }
}

/**
 * Runs `act` once per (API key, Idempotency-Key): the first request acts and its answer is kept; a retry
 * of the same request gets that answer with `replayed: true`, once `guard` has re-checked it. `act` answers refusals (4xx) itself, which
 * are kept like successes; a fault it throws gives the key back, so a retry acts again.
 */
export async function runOnce(
  deps: Deps,
  caller: PartnerCaller,
  key: string,
  request: IdempotentRequest,
  guard: ReplayGuard,
  act: () => Promise<KeptAnswer>,
): Promise<KeptAnswer & { replayed: boolean }> {
  const ref = { apiKeyId: caller.keyId, key }
  const fingerprint = fingerprintOf(request)
  const now = deps.clock.now()
  type Reserved = { seq: number } | { replay: KeptAnswer }
  const reserved = await deps.db.transaction().execute(async (trx): Promise<Reserved> => {
    await idempotencyKeys.purgeExpired(trx, ref, iso(now - REPLAY_WINDOW_MS), iso(now - STALE_RESERVATION_MS))
    const seq = await idempotencyKeys.reserve(trx, { ...ref, fingerprint, createdAt: iso(now) })
    if (seq !== undefined) return { seq }
    const kept = await idempotencyKeys.findKey(trx, ref)
    if (kept && kept.fingerprint !== fingerprint) fail('idempotency_key_reused')
    if (kept?.status !== 'completed') fail('idempotency_key_in_use')
    return {
      replay: await guard.replay(trx, caller, { status: kept.response_status!, body: kept.response_body! }),
    }
  })
  if ('replay' in reserved) return { ...reserved.replay, replayed: true }
  let answer: KeptAnswer
  try {
    answer = await act()
  } catch (error) {
    await idempotencyKeys.release(deps.db, reserved.seq)
    throw error
  }
  await idempotencyKeys.complete(deps.db, reserved.seq, guard.seal ? guard.seal(answer) : answer)
  return { ...answer, replayed: false }
}

function fingerprintOf(request: IdempotentRequest): string {
  return createHash('sha256').update(canonicalJson(request)).digest('hex')
}

/** JSON with object keys sorted, so the same request always hashes the same. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}
