// The one encoding of a batch action's outcome in the address it redirects to: what it writes reads back the
// same, and what a hand-edited address adds is dropped rather than shown.
import type { FastifyRequest } from 'fastify'
import { describe, expect, it } from 'vitest'
import { batchOf, batchQuery } from '../../src/web/batch.js'

const OUTCOMES = ['paid', 'failed', 'requires_card'] as const
const GAME = 'a'.repeat(24)
const OTHER = 'b'.repeat(24)

/** The request a browser sends for the address: the query parsed as Fastify parses it. */
function requestFor(query: Record<string, string | undefined>): FastifyRequest {
  const search = new URLSearchParams()
  for (const [name, value] of Object.entries(query)) if (value !== undefined) search.set(name, value)
  return { query: Object.fromEntries(new URLSearchParams(search.toString())) } as unknown as FastifyRequest
}

describe('a batch outcome in the address', () => {
  it('reads back what was written: every count, each refused item with its code', () => {
    const outcome = {
      done: { paid: 2, failed: 0, requires_card: 1 },
      refused: [
        { id: GAME, code: 'payment_not_chargeable' as const },
        { id: OTHER, code: 'payment_not_platform' as const },
      ],
    }
    expect(batchQuery(outcome)).toEqual({
      done: 'paid.2,failed.0,requires_card.1',
      refused: `${GAME}.payment_not_chargeable,${OTHER}.payment_not_platform`,
    })
    expect(batchOf(requestFor(batchQuery(outcome)), OUTCOMES)).toEqual(outcome)
  })

  it('leaves refused out when nothing was, and reads a batch that did nothing as one', () => {
    const query = batchQuery({ done: { completed: 0 }, refused: [] })
    expect(query).toEqual({ done: 'completed.0', refused: undefined })
    expect(batchOf(requestFor(query), ['completed'])).toEqual({ done: { completed: 0 }, refused: [] })
  })

  it('is no outcome without done, or with a count that is not one of the outcomes', () => {
    expect(batchOf(requestFor({ refused: `${GAME}.game_not_started` }), ['completed'])).toBeUndefined()
    for (const done of ['', 'completed', 'completed.-1', 'completed.1.5', 'started.1', 'completed.x']) {
      expect(batchOf(requestFor({ done }), ['completed'])).toBeUndefined()
    }
  })

  it('drops a refused item whose id or code is not one', () => {
    const refused = [
      `${GAME}.game_not_started`,
      'Robert);.game_not_started',
      `${OTHER}.no_such_code`,
      '',
    ].join(',')
    expect(batchOf(requestFor({ done: 'completed.1', refused }), ['completed'])).toEqual({
      done: { completed: 1 },
      refused: [{ id: GAME, code: 'game_not_started' }],
    })
  })
})
