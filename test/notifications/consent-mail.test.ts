// Mail to an address for a league it has not joined (DESIGN "Consent"): Invited first, once per league,
// with Join and "Not you? Stop all mail" (every mail stops until the owner signs in), at most 50 a day.
import { describe, expect, it } from 'vitest'
import { unsubscribe } from '../../src/domain/notifications/notification-preferences.js'
import { issueSignInLink, redeemSignInLink } from '../../src/domain/people/sign-in-links.js'
import { useTestApp, type Partner } from '../helpers/app.js'
import { seedGame, uniqueEmail } from '../helpers/fixtures.js'
import { renderNotification } from '../../src/notifications/render.js'
import { useMail } from './mail.js'

describe('mail towards a league the address has not joined', () => {
  const t = useTestApp()
  const mail = useMail(t)

  async function setup(p: Partner) {
    const email = uniqueEmail('ivy')
    const leagueId = (await p.post('/leagues', { name: 'Valley League' })).body.data.id as string
    const res = await p.post(`/leagues/${leagueId}/officials`, { externalId: email, name: 'Ivy', email })
    return { email, leagueId, userId: res.body.data.userId as string }
  }

  const statuses = (email: string) =>
    t.deps.db
      .selectFrom('notifications')
      .select(['kind', 'status', 'last_error'])
      .where('email', '=', email)
      .orderBy('seq')
      .execute()

  it('sends Invited first, once: who added them, the league, Join and Stop all mail; sign-in ends the stop', async () => {
    const p = await t.partner()
    const { email, leagueId, userId } = await setup(p)
    const [first, second, third] = await Promise.all([1, 2, 3].map(() => seedGame(t.deps.db, leagueId)))
    mail.start()
    expect((await p.post(`/games/${first!.id}/assign`, { userId })).status).toBe(200)
    await mail.flush()
    const [invited, assigned, ...rest] = await mail.mails()
    expect(rest).toEqual([])
    expect([invited!.subject, assigned!.subject!.split(':')[0]]).toEqual([
      'Invited: Valley League',
      'Assigned',
    ])
    const lines = invited!.text!.split('\n')
    expect(lines).toEqual(expect.arrayContaining(['League: Valley League', `Added by: ${p.source}`]))
    expect(lines).toContain('Join: https://refdesk.example.test/app/leagues')
    const stop = lines.find((l) => l.startsWith('Not you? Stop all mail: '))!
    expect(invited!.html).toContain('Stop all mail</a>')

    // A second mail of that league comes alone.
    expect((await p.post(`/games/${second!.id}/assign`, { userId })).status).toBe(200)
    await mail.flush()
    expect((await mail.mails()).map((m) => m.subject!.split(':')[0])).toEqual([
      'Invited',
      'Assigned',
      'Assigned',
    ])

    // One press stops every mail to the address, until its owner signs in.
    const token = new URL(stop.slice('Not you? Stop all mail: '.length)).searchParams.get('token')
    expect(await unsubscribe(t.deps, token)).toEqual({ email, kind: 'all' })
    expect((await p.post(`/games/${third!.id}/assign`, { userId })).status).toBe(200)
    await mail.flush()
    expect(mail.received).toHaveLength(3)
    expect((await statuses(email)).filter((r) => r.kind === 'assigned').at(-1)).toMatchObject({
      status: 'skipped',
      last_error: 'mail_stopped',
    })
    await redeemSignInLink(t.deps, await issueSignInLink(t.deps, email), { sessionTtlMs: 60_000 })
    await p.delete(`/games/${third!.id}`)
    await mail.flush()
    expect((await mail.mails()).at(-1)!.subject!.split(':')[0]).toBe('Cancelled')
  })

  it('sends at most 50 a day to an address for leagues it has not joined', async () => {
    const p = await t.partner()
    const { email, leagueId, userId } = await setup(p)
    // One cancel, one mail per position the address holds: the smallest change that passes the bound.
    const game = await seedGame(t.deps.db, leagueId, {
      positions: Array.from({ length: 50 }, () => ({ officialId: userId })),
    })
    expect((await p.delete(`/games/${game.id}`)).status).toBe(200)
    const rows = await statuses(email)
    expect(rows).toHaveLength(51)
    expect(rows[0]).toMatchObject({ kind: 'invited', status: 'pending' })
    expect(rows.filter((r) => r.status === 'pending')).toHaveLength(50)
    expect(rows.at(-1)).toMatchObject({
      kind: 'cancelled',
      status: 'skipped',
      last_error: 'daily_limit_reached',
    })
  })

  it('partner text stands only on labelled lines: no line break of its own, never RefDesk’s words', () => {
    const planted =
      'Field 1\r\n\r\nYour account is locked. Reset it: https://evil.example\u2028Stop all mail: x'
    const mail = renderNotification(
      'changed',
      {
        label: 'Referee\nUnsubscribe: https://evil.example',
        sport: 'soccer\nAccount locked',
        startsAt: '2030-05-01T18:00:00.000Z',
        durationMinutes: 90,
        location: planted,
        leagueName: 'Valley\vLeague',
        leagueTimeZone: 'UTC',
        before: { startsAt: '2030-05-01T18:00:00.000Z', location: 'Old\nPlace', durationMinutes: 90 },
        changes: ['place'],
      },
      'UTC',
      { action: 'https://r.test/app/', unsubscribe: 'https://r.test/u', preferences: 'https://r.test/p' },
    )
    const lines = mail.text.split('\n')
    for (const words of ['Your account', 'Stop all mail', 'Unsubscribe', 'Account locked'])
      expect(
        lines.filter((l) => l.startsWith(words)),
        words,
      ).toEqual([])
    expect(lines).toEqual(
      expect.arrayContaining([
        'Sport: soccer Account locked',
        'Where: Field 1 Your account is locked. Reset it: https://evil.example Stop all mail: x',
        'League: Valley League',
        'Position: Referee Unsubscribe: https://evil.example',
      ]),
    )
    expect(mail.subject).toBe('Changed: soccer Account locked, Wed, May 1, 6:00 PM UTC')
  })
})
