// A busy calendar's feed is parsed and expanded in a thread of its own, within a budget of occurrences.
import { describe, expect, it } from 'vitest'
import { busySpans } from '../../../src/domain/availability/ics.js'
import { ics } from '../../helpers/ics-server.js'

const NOW = Date.parse('2027-02-01T12:00:00.000Z')
const horizon = { from: NOW - 86_400_000, to: NOW + 400 * 86_400_000, timeZone: 'UTC', maxEvents: 5000 }

describe('busy-calendar feeds', () => {
  it('refuses a feed recurring every minute since 1990 off the event loop, which turns meanwhile', async () => {
    const feed = ics(['DTSTART:19900101T000000Z', 'DTEND:19900101T000100Z', 'RRULE:FREQ=MINUTELY'])
    let turns = 0
    let parsing = true
    const turn = () => {
      turns++
      if (parsing) setImmediate(turn)
    }
    setImmediate(turn)
    const read = await busySpans(feed, horizon).finally(() => (parsing = false))
    // Every occurrence from 1990 on is visited before the horizon: the budget ends the expansion.
    expect(read).toEqual({ ok: false, error: 'too_many_occurrences' })
    // Expanded on the event loop, not one turn would have come before the answer.
    expect(turns).toBeGreaterThan(100)
  })
})
