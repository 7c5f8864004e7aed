// `refdesk app blackout` and `refdesk app availability`: a person's availability from the console.
import { describe, expect, it } from 'vitest'
import { useCliDatabase } from '../helpers/cli.js'
import { seedUser, uniqueEmail } from '../helpers/fixtures.js'

// Each test spawns the bin three times: slow on a loaded machine.
describe('refdesk app blackout / availability', { timeout: 120_000 }, () => {
  const t = useCliDatabase()

  it('adds a blackout, prints it, and lists the availability as {blackouts, weekly, calendars}', async () => {
    const { deps } = await t.runtime()
    const email = uniqueEmail('cli')
    await seedUser(deps.db, { email })
    const res = await t.run('app', 'blackout', '--email', email, '--from', '2030-06-01', '--to', '2030-06-02')
    expect(res.code).toBe(0)
    const blackout = JSON.parse(res.stdout)
    expect(blackout).toMatchObject({
      from: '2030-06-01',
      to: '2030-06-02',
      allDay: true,
      startsAt: '2030-06-01T00:00:00.000Z',
      endsAt: '2030-06-03T00:00:00.000Z',
    })
    const timed = await t.run(
      'app',
      'blackout',
      '--email',
      email,
      '--from',
      '2030-06-05T18:00:00Z',
      '--to',
      '2030-06-05T20:00:00Z',
    )
    expect(JSON.parse(timed.stdout)).toMatchObject({ allDay: false, startsAt: '2030-06-05T18:00:00.000Z' })

    const listed = await t.run('app', 'availability', '--email', email)
    expect(listed.code).toBe(0)
    const availability = JSON.parse(listed.stdout)
    expect(Object.keys(availability)).toEqual(['blackouts', 'weekly', 'calendars'])
    expect(availability.blackouts.map((b: { id: string }) => b.id)).toEqual([
      blackout.id,
      JSON.parse(timed.stdout).id,
    ])
  })

  it('refuses a bad range and an unknown person with {"error"} on stderr', async () => {
    const { deps } = await t.runtime()
    const email = uniqueEmail('cli')
    await seedUser(deps.db, { email })
    const bad = await t.run('app', 'blackout', '--email', email, '--from', '2030-06-02', '--to', '2030-06-01')
    expect([bad.code, bad.stderr]).toEqual([1, '{"error":"invalid_to"}\n'])
    const nobody = await t.run('app', 'availability', '--email', 'nobody@example.com')
    expect([nobody.code, nobody.stderr]).toEqual([1, '{"error":"account_not_found"}\n'])
  })
})
