// The Availability page: add and remove blackouts, weekly windows and busy calendars; refusals as notices.
import { describe, expect, it } from 'vitest'
import { seedUser, uniqueEmail } from '../helpers/fixtures.js'
import { useWebApp } from './browser-like.js'

describe('the Availability page', () => {
  const t = useWebApp()

  async function signedIn() {
    const email = uniqueEmail('ava')
    await seedUser(t.runtime.deps.db, { email })
    const visitor = await t.signIn(email)
    return { email, visitor }
  }

  it('is in the menu; adds a whole-day blackout, a timed one and a weekly window, and removes them', async () => {
    const { visitor } = await signedIn()
    const page = await visitor.get('/app/availability')
    expect(page.status).toBe(200)
    expect(page.body).toContain('<a href="/app/availability" aria-current="page">Availability</a>')
    expect(page.body).toContain('No blackouts.')

    const days = await visitor.post('/app/availability/blackouts', {
      fromDay: '2030-03-01',
      toDay: '2030-03-03',
    })
    expect([days.status, days.location]).toEqual([303, '/app/availability?notice=added'])
    await visitor.post('/app/availability/blackouts', {
      fromDay: '2030-03-05',
      fromTime: '18:00',
      toDay: '2030-03-05',
      toTime: '21:00',
    })
    await visitor.post('/app/availability/weekly', { dayOfWeek: '2', from: '17:00', to: '19:30' })
    const shown = await visitor.get('/app/availability?notice=added')
    expect(shown.body).toContain('Added.')
    expect(shown.body).toContain('Friday, March 1, 2030 to Sunday, March 3, 2030, all day')
    expect(shown.body).toContain('Tue, Mar 5, 2030, 6:00 PM UTC to Tue, Mar 5, 2030, 9:00 PM UTC')
    expect(shown.body).toContain('Every Tuesday, 17:00 to 19:30')

    const ids = [
      ...shown.body.matchAll(/name="kind" value="(\w+)">\s*<input type="hidden" name="id" value="(\w+)"/g),
    ]
    expect(ids.map((m) => m[1])).toEqual(['blackout', 'blackout', 'weekly'])
    for (const [, kind, id] of ids) {
      const removed = await visitor.post('/app/availability/remove', { kind: kind!, id: id! })
      expect(removed.location).toBe('/app/availability?notice=removed')
    }
    const again = await visitor.post('/app/availability/remove', { kind: 'weekly', id: ids[2]![2]! })
    expect(again.location).toBe('/app/availability?notice=gone')
    expect((await visitor.get('/app/availability')).body).toContain('No weekly unavailability.')
  })

  it('answers refusals with a plain notice and saves nothing', async () => {
    const { visitor } = await signedIn()
    await visitor.get('/app/availability')
    const bad = await visitor.post('/app/availability/blackouts', {
      fromDay: '2030-03-03',
      toDay: '2030-03-01',
    })
    expect(bad.location).toBe('/app/availability?notice=bad_blackout')
    const weekly = await visitor.post('/app/availability/weekly', {
      dayOfWeek: '9',
      from: '17:00',
      to: '19:30',
    })
    expect(weekly.location).toBe('/app/availability?notice=bad_weekly')
    // The app's runtime reads calendars under the strict guard: a loopback address is never contacted.
    const local = await visitor.post('/app/availability/calendars', { url: 'https://127.0.0.1:1/cal.ics' })
    expect(local.location).toBe('/app/availability?notice=calendar_refused')
    const http = await visitor.post('/app/availability/calendars', { url: 'http://example.com/cal.ics' })
    expect(http.location).toBe('/app/availability?notice=calendar_address')
    const page = await visitor.get(local.location!)
    expect(page.body).toContain('RefDesk does not read calendars at private or local network addresses.')
    expect(page.body).toContain('No blackouts.')
    expect(page.body).not.toContain('Remove')
  })

  it('needs a session', async () => {
    const visitor = t.visitor()
    const page = await visitor.get('/app/availability')
    expect([page.status, page.location]).toEqual([303, '/app/'])
  })
})
