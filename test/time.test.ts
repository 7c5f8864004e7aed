// The one home of time (src/time.ts): wall times read in a zone, and the strict ISO reader under them.
import { describe, expect, it } from 'vitest'
import { dayAt, dayStart, instantOfWallTime, nextDay, parseInstant, wallTimeAt } from '../src/time.js'

describe('time', () => {
  it('reads a wall time on the zone’s clock, across a change of offset', () => {
    expect(instantOfWallTime('2030-03-09T10:00', 'America/New_York')).toBe('2030-03-09T15:00:00.000Z')
    expect(instantOfWallTime('2030-03-10T10:00', 'America/New_York')).toBe('2030-03-10T14:00:00.000Z')
    expect(instantOfWallTime('2030-03-10T10:00:30.5', 'Europe/Berlin')).toBe('2030-03-10T09:00:30.500Z')
    expect(wallTimeAt(Date.parse('2030-03-10T14:00:00.000Z'), 'America/New_York')).toBe('2030-03-10T10:00')
  })

  it('takes a written offset as the instant it names, and refuses what is not a date-time', () => {
    expect(instantOfWallTime('2030-03-10T10:00+02:00', 'America/New_York')).toBe('2030-03-10T08:00:00.000Z')
    for (const bad of ['2030-02-30T10:00', '2030-03-10T25:00', '2030-03-10T10:60', '2030-03-10', '90', ''])
      expect(instantOfWallTime(bad, 'UTC')).toBeUndefined()
    expect(parseInstant('2030-03-10T10:00')).toBeUndefined()
    expect(parseInstant('2030-03-10')).toBe('2030-03-10T00:00:00.000Z')
  })

  it('says the days of a zone', () => {
    expect(dayStart('2030-05-01', 'America/New_York')).toBe('2030-05-01T04:00:00.000Z')
    expect(dayAt(Date.parse('2030-05-02T03:30:00.000Z'), 'America/New_York')).toBe('2030-05-01')
    expect(nextDay('2030-02-28')).toBe('2030-03-01')
  })
})
