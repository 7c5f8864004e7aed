// Who is acting: a partner's key, the operator console (`refdesk app`), or a person signed in to the app.
// What each may touch is one rule (domain/core/access.ts, in SQL in store/scope.ts), checked inside the
// transaction of the action it guards.
import type { PartnerScope } from '../../store/scope.js'
import { fail } from './errors.js'

export const RESERVED_SOURCE = 'app'

export type PartnerCaller = PartnerScope & {
  readonly keyId: string
  readonly organizerId: string
}

/** The operator console: it acts for the application itself and sees every league. */
export interface ConsoleCaller {
  readonly kind: 'console'
}

/**
 * A person signed in to the app: an email address and every user row carrying it, whichever partner made
 * it. They organize the leagues one of those rows organizes and officiate where one is an approved official.
 */
export interface PersonCaller {
  readonly kind: 'person'
  readonly email: string
  /** The user rows with this address, oldest first. */
  readonly userIds: readonly string[]
}

export type Caller = PartnerCaller | ConsoleCaller | PersonCaller

export const CONSOLE_CALLER: ConsoleCaller = { kind: 'console' }

/** The source written on rows a caller creates. */
export function writeSource(caller: Caller): string {
  return caller.kind === 'partner' ? caller.source : RESERVED_SOURCE
}

/** Rule 6 of the spec: a body `source` may be omitted or echo the key's own; `app` is reserved. */
export function checkSource(caller: Caller, source: string | undefined): void {
  if (source === undefined) return
  if (source === RESERVED_SOURCE) fail('source_reserved')
  if (caller.kind === 'partner' && source !== caller.source) fail('source_mismatch')
}
