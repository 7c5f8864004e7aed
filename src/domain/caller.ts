// Who is acting. A partner key sees its source's leagues plus leagues granted to that key; the in-app
// operator console (`refdesk app`) acts for the application itself and sees everything.
import type { PartnerScope } from '../store/scope.js'
import { fail } from './errors.js'

export const RESERVED_SOURCE = 'app'

export type PartnerCaller = PartnerScope & {
  readonly keyId: string
  readonly organizerId: string
}

export interface AppCaller {
  readonly kind: 'app'
}

export type Caller = PartnerCaller | AppCaller

export const APP_CALLER: AppCaller = { kind: 'app' }

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
