// A person's availability: blackouts, weekly windows, busy calendars read through the outbound guard.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  addBlackout,
  addBusyCalendar,
  addWeekly,
  AVAILABILITY_LIMITS,
  CALENDAR_BACKOFF,
  getAvailability,
  ownerByEmail,
  refreshDueCalendars,
  removeAvailability,
} from '../../../src/domain/availability/availability.js'
import type { Deps } from '../../../src/domain/core/deps.js'
import { setTimeZone } from '../../../src/domain/people/profiles.js'
import { parseAllowPrivate, STRICT_POLICY, type AddressPolicy } from '../../../src/net/address-guard.js'
import { guardedGetter } from '../../../src/net/guarded-get.js'
import { useTestApp } from '../../helpers/app.js'
import { refusal } from '../../helpers/errors.js'
import { seedUser, uniqueEmail } from '../../helpers/fixtures.js'
import { ics, startIcsServer, TEST_CA, type IcsServer } from '../../helpers/ics-server.js'

const NOW = Date.parse('2027-02-01T12:00:00.000Z')

async function expectCode(promise: Promise<unknown>, code: string): Promise<void> {
  expect(await refusal(promise)).toBe(code)
}

describe('availability', () => {
  const t = useTestApp()
  let site: IcsServer
  let now: number
  let email: string
  beforeEach(async () => {
    site = await startIcsServer()
    now = NOW
    email = uniqueEmail('ava')
    await seedUser(t.deps.db, { email })
  })
  afterEach(async () => {
    await site.close()
  })

  /** The services at the test's clock, reading calendars under `policy` (the local site is allowed by default). */
  function deps(policy: AddressPolicy = parseAllowPrivate('127.0.0.1'), maxBytes = 1 << 20): Deps {
    const readCalendar = guardedGetter({ policy, timeoutMs: 2000, maxBytes, ca: TEST_CA })
    return { ...t.deps, clock: { now: () => now }, readCalendar }
  }

  const count = async (table: 'blackouts' | 'weekly_unavailability' | 'busy_calendars' | 'busy_events') =>
    Number(
      (
        await t.deps.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('email', '=', email)
          .executeTakeFirstOrThrow()
      ).n,
    )

  it('blocks whole days in the person’s time zone, or exact times, and prints them back', async () => {
    await setTimeZone(t.deps, { email }, 'America/New_York')
    const owner = await ownerByEmail(deps(), ` ${email.toUpperCase()} `)
    const days = await addBlackout(deps(), owner, { from: '2027-03-01', to: '2027-03-03' })
    expect(days).toMatchObject({
      from: '2027-03-01',
      to: '2027-03-03',
      allDay: true,
      startsAt: '2027-03-01T05:00:00.000Z',
      endsAt: '2027-03-04T05:00:00.000Z',
    })
    // A date-time without an offset is the person's wall clock (DST began on March 14, 2027).
    const local = await addBlackout(deps(), owner, { from: '2027-03-15T09:00', to: '2027-03-15T17:30:00' })
    expect(local).toMatchObject({
      allDay: false,
      startsAt: '2027-03-15T13:00:00.000Z',
      endsAt: '2027-03-15T21:30:00.000Z',
    })
    const zoned = await addBlackout(deps(), owner, {
      from: '2027-04-01T10:00:00+02:00',
      to: '2027-04-01T12:00:00Z',
    })
    expect(zoned).toMatchObject({ startsAt: '2027-04-01T08:00:00.000Z', endsAt: '2027-04-01T12:00:00.000Z' })
    const all = await getAvailability(deps(), owner)
    expect(all.blackouts.map((b) => b.id)).toEqual([days.id, local.id, zoned.id])
    expect(all).toMatchObject({ weekly: [], calendars: [] })
  })

  it('refuses each malformed blackout with its field’s code, writing nothing', async () => {
    const owner = { email }
    const cases: [unknown, string][] = [
      [{ from: 5, to: '2027-03-01' }, 'invalid_from'],
      [{ from: '2027-03-01' }, 'invalid_to'],
      [{ from: '2027-02-30', to: '2027-03-01' }, 'invalid_from'],
      [{ from: '2027-03-01T25:00', to: '2027-03-02' }, 'invalid_from'],
      [{ from: '2027-03-01', to: '2027-02-28' }, 'invalid_to'],
      [{ from: '2027-03-01T10:00Z', to: '2027-03-01T10:00Z' }, 'invalid_to'],
      [{ from: '1999-03-01', to: '2027-03-01' }, 'invalid_from'],
      [{ from: '2027-03-01', to: '2031-03-01' }, 'invalid_to'],
      [{ from: `2027-03-01${'0'.repeat(100)}`, to: '2027-03-02' }, 'invalid_from'],
      [{ from: '2027-03-01\ud800', to: '2027-03-02' }, 'invalid_from'],
      [{ from: 'next tuesday', to: '2027-03-02' }, 'invalid_from'],
    ]
    for (const [input, code] of cases) await expectCode(addBlackout(deps(), owner, input), code)
    expect(await count('blackouts')).toBe(0)
    await expectCode(ownerByEmail(deps(), 'nobody@example.com'), 'account_not_found')
  })

  it('keeps weekly windows and refuses bad ones; removes only the person’s own entries', async () => {
    const owner = { email }
    const window = await addWeekly(deps(), owner, { dayOfWeek: '6', from: '08:00', to: '12:30' })
    expect(window).toMatchObject({ dayOfWeek: 6, from: '08:00', to: '12:30' })
    await expectCode(
      addWeekly(deps(), owner, { dayOfWeek: 8, from: '08:00', to: '09:00' }),
      'invalid_dayOfWeek',
    )
    await expectCode(
      addWeekly(deps(), owner, { dayOfWeek: 'x', from: '08:00', to: '09:00' }),
      'invalid_dayOfWeek',
    )
    await expectCode(addWeekly(deps(), owner, { dayOfWeek: 1, from: '8am', to: '09:00' }), 'invalid_from')
    await expectCode(addWeekly(deps(), owner, { dayOfWeek: 1, from: '10:00', to: '09:00' }), 'invalid_to')
    expect(await count('weekly_unavailability')).toBe(1)

    await expectCode(
      removeAvailability(deps(), { email: 'other@example.com' }, 'weekly', window.id),
      'not_found',
    )
    await expectCode(removeAvailability(deps(), owner, 'blackout', window.id), 'not_found')
    await removeAvailability(deps(), owner, 'weekly', window.id)
    expect(await count('weekly_unavailability')).toBe(0)
  })

  it('caps the entries a person keeps', async () => {
    const owner = { email }
    for (let i = 0; i < AVAILABILITY_LIMITS.weekly; i++) {
      await addWeekly(deps(), owner, { dayOfWeek: 1, from: '08:00', to: '09:00' })
    }
    await expectCode(
      addWeekly(deps(), owner, { dayOfWeek: 1, from: '08:00', to: '09:00' }),
      'availability_limit_reached',
    )
  })

  it('reads a busy calendar at save: recurring events expanded, free ones skipped', async () => {
    site.answers.set('/cal.ics', {
      ics: ics(
        ['DTSTART:20270301T100000Z', 'DTEND:20270301T110000Z', 'RRULE:FREQ=WEEKLY;COUNT=3'],
        ['DTSTART:20270305T100000Z', 'DTEND:20270305T110000Z', 'TRANSP:TRANSPARENT'],
        ['DTSTART:20250101T100000Z', 'DTEND:20250101T110000Z'],
      ),
    })
    const calendar = await addBusyCalendar(deps(), { email }, { url: `${site.origin}/cal.ics` })
    expect(calendar).toMatchObject({
      url: `${site.origin}/cal.ics`,
      lastError: null,
      fetchedAt: '2027-02-01T12:00:00.000Z',
    })
    const events = await t.deps.db
      .selectFrom('busy_events')
      .select(['starts_at', 'ends_at'])
      .where('email', '=', email)
      .orderBy('starts_at')
      .execute()
    expect(events.map((e) => e.starts_at)).toEqual([
      '2027-03-01T10:00:00.000Z',
      '2027-03-08T10:00:00.000Z',
      '2027-03-15T10:00:00.000Z',
    ])
    expect((await getAvailability(deps(), { email })).calendars).toHaveLength(1)
    await removeAvailability(deps(), { email }, 'calendar', calendar.id)
    expect([await count('busy_calendars'), await count('busy_events')]).toEqual([0, 0])
  })

  it('refuses private addresses unless allowed, redirects to them, non-https, and unreadable feeds', async () => {
    site.answers.set('/cal.ics', { ics: ics(['DTSTART:20270301T100000Z', 'DTEND:20270301T110000Z']) })
    site.answers.set('/bounce', { redirect: 'https://10.1.2.3/cal.ics' })
    site.answers.set('/html', { status: 200 })
    site.answers.set('/missing', { status: 404 })
    site.answers.set('/hang', 'hang')
    const owner = { email }
    const url = `${site.origin}/cal.ics`
    await expectCode(addBusyCalendar(deps(STRICT_POLICY), owner, { url }), 'calendar_address_refused')
    await expectCode(
      addBusyCalendar(deps(), owner, { url: `${site.origin}/bounce` }),
      'calendar_address_refused',
    )
    await expectCode(
      addBusyCalendar(deps(), owner, { url: 'https://169.254.169.254/x.ics' }),
      'calendar_address_refused',
    )
    await expectCode(
      addBusyCalendar(deps(), owner, { url: url.replace('https:', 'http:') }),
      'https_url_required',
    )
    await expectCode(addBusyCalendar(deps(), owner, { url: 'not a url' }), 'invalid_url')
    await expectCode(addBusyCalendar(deps(), owner, { url: 7 }), 'invalid_url')
    await expectCode(addBusyCalendar(deps(), owner, { url: `${site.origin}/html` }), 'calendar_unreadable')
    await expectCode(addBusyCalendar(deps(), owner, { url: `${site.origin}/missing` }), 'calendar_unreadable')
    await expectCode(addBusyCalendar(deps(), owner, { url: `${site.origin}/hang` }), 'calendar_unreadable')
    await expectCode(addBusyCalendar(deps(undefined, 64), owner, { url }), 'calendar_unreadable')
    // The strict guard refused before connecting: the only read was the one cut at 64 bytes.
    expect(site.hits.get('/cal.ics')).toBe(1)
    expect([await count('busy_calendars'), await count('busy_events')]).toEqual([0, 0])
    // webcal:// is the same feed over https.
    const saved = await addBusyCalendar(deps(), owner, { url: url.replace('https:', 'webcal:') })
    expect(saved.url).toBe(url)
  })

  it('reads each calendar again every 15 minutes, once among several processes; a failure keeps the events', async () => {
    const first = ics(['DTSTART:20270301T100000Z', 'DTEND:20270301T110000Z'])
    site.answers.set('/cal.ics', { ics: first })
    const calendar = await addBusyCalendar(deps(), { email }, { url: `${site.origin}/cal.ics` })
    site.answers.set('/cal.ics', {
      ics: ics(
        ['DTSTART:20270302T100000Z', 'DTEND:20270302T110000Z'],
        ['DTSTART:20270303T100000Z', 'DTEND:20270303T110000Z'],
      ),
    })
    now += 14 * 60_000
    await refreshDueCalendars(deps())
    expect(site.hits.get('/cal.ics')).toBe(1)
    now += 60_000
    // On PostgreSQL a file's tests share one database: other tests' calendars may be due too, so this one's
    // reads are counted at the site.
    await Promise.all([refreshDueCalendars(deps()), refreshDueCalendars(deps())])
    expect(site.hits.get('/cal.ics')).toBe(2)
    expect(await count('busy_events')).toBe(2)

    site.answers.set('/cal.ics', { status: 500 })
    now += 15 * 60_000
    await refreshDueCalendars(deps())
    const [after] = (await getAvailability(deps(), { email })).calendars
    expect(after).toMatchObject({
      id: calendar.id,
      lastError: 'http_status:500',
      fetchedAt: '2027-02-01T12:15:00.000Z',
    })
    expect(await count('busy_events')).toBe(2)
  })

  /** An iCalendar text with these VTIMEZONE definitions and events, each line as given. */
  const calendarOf = (...components: string[][]) =>
    ['BEGIN:VCALENDAR', 'VERSION:2.0', ...components.flat(), 'END:VCALENDAR'].join('\r\n')
  const eventsOf = async (owner: string) =>
    (
      await t.deps.db
        .selectFrom('busy_events')
        .select('starts_at')
        .where('email', '=', owner)
        .orderBy('starts_at')
        .execute()
    ).map((e) => e.starts_at)
  const calendarRow = (id: string) =>
    t.deps.db.selectFrom('busy_calendars').selectAll().where('id', '=', id).executeTakeFirstOrThrow()

  it('keeps each feed’s own definition of a time zone two feeds name alike', async () => {
    const office = (offset: string) => [
      'BEGIN:VTIMEZONE',
      'TZID:Office',
      'BEGIN:STANDARD',
      'DTSTART:19700101T000000',
      `TZOFFSETFROM:${offset}`,
      `TZOFFSETTO:${offset}`,
      'END:STANDARD',
      'END:VTIMEZONE',
    ]
    const meeting = ['BEGIN:VEVENT', 'UID:m@test', 'DTSTART;TZID=Office:20270301T100000', 'END:VEVENT']
    site.answers.set('/east.ics', { ics: calendarOf(office('+0200'), meeting) })
    site.answers.set('/west.ics', { ics: calendarOf(office('-0500'), meeting) })
    const other = uniqueEmail('ava')
    await seedUser(t.deps.db, { email: other })
    await addBusyCalendar(deps(), { email }, { url: `${site.origin}/east.ics` })
    await addBusyCalendar(deps(), { email: other }, { url: `${site.origin}/west.ics` })
    expect(await eventsOf(email)).toEqual(['2027-03-01T08:00:00.000Z'])
    expect(await eventsOf(other)).toEqual(['2027-03-01T15:00:00.000Z'])
  })

  it('refuses a malformed date at save; a refresh with one malformed feed still refreshes the others', async () => {
    const malformed = ics(['DTSTART:2027XX01T100000Z'])
    site.answers.set('/bad.ics', { ics: malformed })
    site.answers.set('/impossible.ics', { ics: ics(['DTSTART:20270230T100000Z']) })
    await expectCode(
      addBusyCalendar(deps(), { email }, { url: `${site.origin}/bad.ics` }),
      'calendar_unreadable',
    )
    await expectCode(
      addBusyCalendar(deps(), { email }, { url: `${site.origin}/impossible.ics` }),
      'calendar_unreadable',
    )
    site.answers.set('/a.ics', { ics: ics(['DTSTART:20270301T100000Z']) })
    site.answers.set('/b.ics', { ics: ics(['DTSTART:20270302T100000Z']) })
    const a = await addBusyCalendar(deps(), { email }, { url: `${site.origin}/a.ics` })
    const b = await addBusyCalendar(deps(), { email }, { url: `${site.origin}/b.ics` })
    site.answers.set('/a.ics', { ics: malformed })
    site.answers.set('/b.ics', { ics: ics(['DTSTART:20270303T100000Z']) })
    now += 15 * 60_000
    await refreshDueCalendars(deps())
    expect((await calendarRow(a.id)).last_error).toBe('malformed')
    expect((await calendarRow(b.id)).last_error).toBeNull()
    // a's events as last read stay; b's are its new ones.
    expect(await eventsOf(email)).toEqual(['2027-03-01T10:00:00.000Z', '2027-03-03T10:00:00.000Z'])
  })

  it('backs off a calendar whose reads fail or are slow, doubling the wait per strike, until a good read', async () => {
    site.answers.set('/cal.ics', { ics: ics(['DTSTART:20270301T100000Z']) })
    const calendar = await addBusyCalendar(deps(), { email }, { url: `${site.origin}/cal.ics` })
    const at = (minutes: number) => new Date(NOW + minutes * 60_000).toISOString()
    const read = async (minutes: number) => {
      now = NOW + minutes * 60_000
      await refreshDueCalendars(deps())
      const row = await calendarRow(calendar.id)
      return { failed: row.failed_reads, next: row.next_fetch_at, hits: site.hits.get('/cal.ics') }
    }
    // A redirect to an address the guard refuses reads like one no route reaches.
    site.answers.set('/cal.ics', { redirect: 'https://10.1.2.3/cal.ics' })
    expect(await read(15)).toEqual({ failed: 1, next: at(45), hits: 2 })
    expect((await calendarRow(calendar.id)).last_error).toBe('unreachable')
    site.answers.set('/cal.ics', { status: 500 })
    expect(await read(30)).toEqual({ failed: 1, next: at(45), hits: 2 })
    expect(await read(45)).toEqual({ failed: 2, next: at(105), hits: 3 })
    // A good read that took longer than CALENDAR_BACKOFF.slowMs keeps its events and is a strike too.
    site.answers.set('/cal.ics', { ics: ics(['DTSTART:20270304T100000Z']) })
    const slow = deps()
    const slowDeps: Deps = {
      ...slow,
      readCalendar: async (url) => {
        const result = await slow.readCalendar(url)
        // On PostgreSQL other tests' calendars may be due too: only this one's read is slow.
        if (url === calendar.url) now += CALENDAR_BACKOFF.slowMs + 1
        return result
      },
    }
    now = NOW + 105 * 60_000
    await refreshDueCalendars(slowDeps)
    expect((await calendarRow(calendar.id)).failed_reads).toBe(3)
    expect((await calendarRow(calendar.id)).next_fetch_at).toBe(new Date(now + 8 * 15 * 60_000).toISOString())
    expect(await eventsOf(email)).toEqual(['2027-03-04T10:00:00.000Z'])
    const slowEnd = (now - NOW) / 60_000
    expect(await read(slowEnd + 120)).toEqual({ failed: 0, next: at(slowEnd + 135), hits: 5 })
  })
})
