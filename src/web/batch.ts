// What a batch action (Complete selected, Charge selected) did, carried by the address of the page it returns
// to in one encoding: `done=<outcome>.<count>,…` counts the items by what became of them, and
// `refused=<id>.<code>,…` names each item the domain refused with its error code. Read back, anything
// malformed is dropped; the ids are only what the address says, so a page that names a refused item looks
// it up in the person's scope first.
import type { FastifyRequest } from 'fastify'
import { isErrorCode, type ErrorCode } from '../domain/core/errors.js'
import { isId, queryString } from './forms.js'

export interface BatchOutcome<K extends string> {
  readonly done: Readonly<Record<K, number>>
  readonly refused: readonly { readonly id: string; readonly code: ErrorCode }[]
}

/** The most refused items read back: the longest selection a batch takes (a page of the ledger). */
const MAX_REFUSED = 100

/** The outcome as query parameters, every outcome counted, for `paths.x.href(…, { ...filters, ...batch })`. */
export function batchQuery<K extends string>(
  outcome: BatchOutcome<K>,
): { done: string; refused: string | undefined } {
  const refused = outcome.refused.map((r) => `${r.id}.${r.code}`).join(',')
  return {
    done: Object.entries<number>(outcome.done)
      .map(([kind, count]) => `${kind}.${count}`)
      .join(','),
    refused: refused === '' ? undefined : refused,
  }
}

/** The outcome the address carries, counting only the given outcomes; undefined when it carries none. */
export function batchOf<K extends string>(
  request: FastifyRequest,
  outcomes: readonly K[],
): BatchOutcome<K> | undefined {
  const done = queryString(request, 'done')
  if (done === undefined) return undefined
  const counts = Object.fromEntries(outcomes.map((kind) => [kind, 0])) as Record<K, number>
  for (const item of done.split(',')) {
    const [, kind, count] = /^(\w+)\.(\d{1,6})$/.exec(item) ?? []
    const known = outcomes.find((k) => k === kind)
    if (known === undefined) return undefined
    counts[known] = Number(count)
  }
  const refused = (queryString(request, 'refused') ?? '')
    .split(',')
    .slice(0, MAX_REFUSED)
    .flatMap((item) => {
      const [, id = '', code = ''] = /^(\w+)\.(\w+)$/.exec(item) ?? []
      return isId(id) && isErrorCode(code) ? [{ id, code }] : []
    })
  return { done: counts, refused }
}
