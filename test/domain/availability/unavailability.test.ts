// Rule 2's source of truth: whether a game's [start, end) meets the person's blackouts, weekly windows (in
// their time zone) or busy-calendar events, and the merged busy intervals a partner may read.
import { describe, expect, it } from 'vitest'
import { addBlackout, addWeekly } from '../../../src/domain/availability/availability.js'
import { setTimeZone } from '../../../src/domain/people/profiles.js'
import { busyIntervals, isUnavailable } from '../../../src/domain/availability/unavailability.js'
import { newId } from '../../../src/clock.js'
import { useTestApp } from '../../helpers/app.js'
import { seedUser, uniqueEmail } from '../../helpers/fixtures.js'

describe('unavailability', () => {
  const t = useTestApp()

  async function person(zone?: string) {
    const email = uniqueEmail('un')
    await seedUser(t.deps.db, { email })
    if (zone) await setTimeZone(t.deps, { email }, zone)
    return email
  }

  const span = (startsAt: string, endsAt: string) => ({ startsAt, endsAt })

  it('meets a blackout on overlap only: [start, end) touching it is free', async () => {
    const email = await person()
    await addBlackout(t.deps, { email }, { from: '2030-05-01T10:00Z', to: '2030-05-01T12:00Z' })
    const db = t.deps.db
    expect(await isUnavailable(db, email, span('2030-05-01T11:00:00.000Z', '2030-05-01T13:00:00.000Z'))).toBe(
      true,
    )
    expect(await isUnavailable(db, email, span('2030-05-01T12:00:00.000Z', '2030-05-01T13:00:00.000Z'))).toBe(
      false,
    )
    expect(await isUnavailable(db, email, span('2030-05-01T08:00:00.000Z', '2030-05-01T10:00:00.000Z'))).toBe(
      false,
    )
    expect(
      await isUnavailable(
        db,
        'someone-else@example.com',
        span('2030-05-01T11:00:00.000Z', '2030-05-01T13:00:00.000Z'),
      ),
    ).toBe(false)
  })

  it('reads weekly windows in the person’s time zone, across a change of offset', async () => {
    const email = await person('America/New_York')
    await addWeekly(t.deps, { email }, { dayOfWeek: 2, from: '18:00', to: '21:00' }) // Tuesdays
    const db = t.deps.db
    // Tuesday March 5, 2030 (EST, UTC-5): 18:00–21:00 local is 23:00–02:00 UTC.
    expect(await isUnavailable(db, email, span('2030-03-06T01:00:00.000Z', '2030-03-06T02:30:00.000Z'))).toBe(
      true,
    )
    expect(await isUnavailable(db, email, span('2030-03-06T02:00:00.000Z', '2030-03-06T03:00:00.000Z'))).toBe(
      false,
    )
    // Tuesday March 12, 2030 (EDT since March 10, UTC-4): 22:00–01:00 UTC.
    expect(await isUnavailable(db, email, span('2030-03-12T22:30:00.000Z', '2030-03-12T23:00:00.000Z'))).toBe(
      true,
    )
    expect(await isUnavailable(db, email, span('2030-03-13T01:00:00.000Z', '2030-03-13T02:00:00.000Z'))).toBe(
      false,
    )
    // Wednesday is free.
    expect(await isUnavailable(db, email, span('2030-03-13T22:30:00.000Z', '2030-03-13T23:00:00.000Z'))).toBe(
      false,
    )
  })

  it('counts busy-calendar events, and merges every source into intervals with no detail', async () => {
    const email = await person()
    const calendarId = newId()
    const db = t.deps.db
    await db
      .insertInto('busy_calendars')
      .values({
        id: calendarId,
        email,
        url: 'https://example.com/c.ics',
        created_at: '2030-01-01T00:00:00.000Z',
        fetched_at: null,
        last_error: null,
        next_fetch_at: '2030-01-01T00:00:00.000Z',
      })
      .execute()
    await db
      .insertInto('busy_events')
      .values([
        {
          calendar_id: calendarId,
          email,
          starts_at: '2030-05-01T11:30:00.000Z',
          ends_at: '2030-05-01T14:00:00.000Z',
        },
        {
          calendar_id: calendarId,
          email,
          starts_at: '2030-05-02T09:00:00.000Z',
          ends_at: '2030-05-02T10:00:00.000Z',
        },
      ])
      .execute()
    await addBlackout(t.deps, { email }, { from: '2030-05-01T10:00Z', to: '2030-05-01T12:00Z' })
    await addWeekly(t.deps, { email }, { dayOfWeek: 4, from: '08:00', to: '09:00' }) // Thursday May 2
    expect(await isUnavailable(db, email, span('2030-05-02T09:30:00.000Z', '2030-05-02T09:45:00.000Z'))).toBe(
      true,
    )
    expect(
      await busyIntervals(db, email, span('2030-05-01T00:00:00.000Z', '2030-05-03T00:00:00.000Z')),
    ).toEqual([
      { startsAt: '2030-05-01T10:00:00.000Z', endsAt: '2030-05-01T14:00:00.000Z' },
      { startsAt: '2030-05-02T08:00:00.000Z', endsAt: '2030-05-02T10:00:00.000Z' },
    ])
  })
})
