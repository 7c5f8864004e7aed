// The notification outbox and its sender against a real SMTP server: written with the change or not at
// all, mailed once with a text and an HTML part and a one-click unsubscribe, retried, recorded.
import { describe, expect, it } from 'vitest'
import { claimPosition } from '../../src/domain/assignments/assignments.js'
import { useTestApp, type Partner } from '../helpers/app.js'
import { joinLeagueAs, seedGame, uniqueEmail } from '../helpers/fixtures.js'
import { useMail } from './mail.js'

describe('notification outbox', () => {
  const t = useTestApp()
  const mail = useMail(t)

  async function setup(p: Partner, email = 'ann@example.com') {
    const leagueId = (await p.post('/leagues', { name: 'Valley League' })).body.data.id as string
    const res = await p.post(`/leagues/${leagueId}/officials`, { externalId: 'ann', name: 'Ann', email })
    // Joined, so mail goes as "Notifications" says, with no Invited first (DESIGN "Consent").
    await joinLeagueAs(t.deps, leagueId, email)
    const game = await seedGame(t.deps.db, leagueId)
    return { leagueId, userId: res.body.data.userId as string, game }
  }

  const rows = (leagueId: string) =>
    t.deps.db
      .selectFrom('notifications')
      .selectAll()
      .where('league_id', '=', leagueId)
      .orderBy('seq')
      .execute()

  it('mails `assigned` once after a partner assign: text and HTML, the game, a link, one-click unsubscribe', async () => {
    const p = await t.partner()
    const { leagueId, userId, game } = await setup(p)
    mail.start()
    expect((await p.post(`/games/${game.id}/assign`, { userId })).status).toBe(200)
    await mail.flush()
    const [sent, ...others] = await mail.mails()
    expect(others).toEqual([])
    expect(sent!.to).toBe('ann@example.com')
    expect(sent!.subject).toBe('Assigned: soccer, Wed, May 1, 6:00 PM UTC')
    expect(sent!.text).toContain('Wed, May 1, 2030, 6:00 PM UTC')
    expect(sent!.text).toContain('Field 1')
    expect(sent!.text).toContain('Valley League')
    expect(sent!.text).toContain('https://refdesk.example.test/app/')
    expect(sent!.html).toContain('Valley League')
    const header = (name: string) =>
      sent!.headerLines.find((h) => h.key === name)?.line.replace(/\r\n\s+/g, ' ')
    expect(header('list-unsubscribe-post')).toBe('List-Unsubscribe-Post: List-Unsubscribe=One-Click')
    expect(header('list-unsubscribe')).toMatch(
      /^List-Unsubscribe: <https:\/\/refdesk\.example\.test\/app\/unsubscribe\?token=[\w-]{43}>$/,
    )
    expect(sent!.messageId).toMatch(/@refdesk>$/)
    const assigned = (await rows(leagueId)).filter((r) => r.kind === 'assigned')
    expect(assigned).toMatchObject([
      { status: 'sent', attempts: 1, last_error: null, email: 'ann@example.com' },
    ])
    // A second round sends nothing again.
    await mail.flush()
    expect(mail.received).toHaveLength(1)
  })

  it('writes nothing for a refused change', async () => {
    const p = await t.partner()
    const { leagueId, userId, game } = await setup(p)
    expect((await p.post(`/games/${game.id}/assign`, { userId })).status).toBe(200)
    const before = (await rows(leagueId)).length
    expect((await p.post(`/games/${game.id}/assign`, { userId })).status).toBe(409)
    expect(await rows(leagueId)).toHaveLength(before)
  })

  it("an official's own claim queues their reminder but no `assigned` mail", async () => {
    const p = await t.partner()
    // Her own address: on PostgreSQL the file's tests share a database, and a person who already holds
    // another test's game at this time would be refused schedule_conflict.
    const email = uniqueEmail('ann')
    const { leagueId, userId, game } = await setup(p, email)
    const person = { kind: 'person' as const, email, userIds: [userId] }
    await claimPosition(t.deps, person, { gameId: game.id, positionId: game.positionIds[0]! })
    expect((await rows(leagueId)).map((r) => [r.kind, r.status, r.due_at])).toEqual([
      ['reminder', 'pending', '2030-04-30T18:00:00.000Z'],
    ])
  })

  it('keeps notifications unsent without SMTP', async () => {
    const p = await t.partner()
    const { leagueId, userId, game } = await setup(p)
    mail.start({ smtp: false })
    await p.post(`/games/${game.id}/assign`, { userId })
    await mail.flush()
    expect(mail.received).toEqual([])
    expect((await rows(leagueId)).find((r) => r.kind === 'assigned')).toMatchObject({
      status: 'unsent',
      last_error: 'smtp_not_configured',
    })
  })

  it('never mails a placeholder `.invalid` address', async () => {
    const p = await t.partner()
    const leagueId = (await p.post('/leagues', { name: 'L' })).body.data.id as string
    const res = await p.post(`/leagues/${leagueId}/officials`, { externalId: 'nomail' })
    const game = await seedGame(t.deps.db, leagueId)
    mail.start()
    await p.post(`/games/${game.id}/assign`, { userId: res.body.data.userId })
    await mail.flush()
    expect(mail.received).toEqual([])
    expect((await rows(leagueId)).find((r) => r.kind === 'assigned')).toMatchObject({
      status: 'skipped',
      last_error: 'placeholder_address',
    })
  })

  it('retries a temporary refusal on the schedule and records a permanent one as failed', async () => {
    const p = await t.partner()
    const { leagueId, userId, game } = await setup(p)
    mail.start()
    mail.refuseNext(1, 451)
    await p.post(`/games/${game.id}/assign`, { userId })
    await mail.flush()
    expect(mail.received).toEqual([])
    expect((await rows(leagueId)).find((r) => r.kind === 'assigned')).toMatchObject({
      status: 'pending',
      attempts: 1,
      last_error: 'smtp_451',
    })
    mail.clock.advance(60_000)
    await mail.flush()
    expect(mail.received).toHaveLength(1)
    expect((await rows(leagueId)).find((r) => r.kind === 'assigned')).toMatchObject({
      status: 'sent',
      attempts: 2,
    })

    const other = await setup(p, 'bob@example.com')
    mail.refuseNext(1, 550)
    await p.post(`/games/${other.game.id}/assign`, { userId: other.userId })
    await mail.flush()
    expect((await rows(other.leagueId)).find((r) => r.kind === 'assigned')).toMatchObject({
      status: 'failed',
      attempts: 1,
      last_error: 'smtp_550',
    })
  })

  it('one-click unsubscribe turns that kind off for the address; the link page asks first', async () => {
    const p = await t.partner()
    const { leagueId, userId, game } = await setup(p)
    mail.start()
    await p.post(`/games/${game.id}/assign`, { userId })
    await mail.flush()
    const [first] = await mail.mails()
    const line = first!.headerLines.find((h) => h.key === 'list-unsubscribe')!.line
    const url = new URL(/<([^>]+)>/.exec(line.replace(/\r\n\s+/g, ''))![1]!)
    const path = url.pathname + url.search
    // Opening the link (a preview, a link checker) changes nothing.
    const shown = await t.app.inject({ method: 'GET', url: path })
    expect(shown.statusCode).toBe(200)
    expect(shown.body).toContain('Stop Assigned emails')
    expect(shown.body).toContain('ann@example.com')
    expect(
      await t.deps.db
        .selectFrom('notification_optouts')
        .selectAll()
        .where('email', '=', 'ann@example.com')
        .execute(),
    ).toEqual([])
    // The mail client's RFC 8058 POST: no session, no CSRF token.
    const done = await t.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    })
    expect(done.statusCode).toBe(200)
    expect(done.body).toContain('Assigned emails are off')
    const other = await seedGame(t.deps.db, leagueId)
    await p.post(`/games/${other.id}/assign`, { userId })
    await mail.flush()
    expect(mail.received).toHaveLength(1)
    expect((await rows(leagueId)).filter((r) => r.kind === 'assigned').map((r) => r.status)).toEqual([
      'sent',
      'skipped',
    ])
    // A token RefDesk never issued names nothing.
    const forged = await t.app.inject({ method: 'GET', url: `/app/unsubscribe?token=${'a'.repeat(43)}` })
    expect(forged.statusCode).toBe(404)
  })
})
