// Every kind of the contract, caused the way a partner, an organizer or an official causes it, read as its
// recipient reads it: subject word, time in their zone, the change itself.
import { describe, expect, it } from 'vitest'
import { issueKey } from '../../src/domain/partners/api-keys.js'
import { claimPosition, withdrawClaim } from '../../src/domain/assignments/assignments.js'
import { CONSOLE_CALLER } from '../../src/domain/core/caller.js'
import { markPaid } from '../../src/domain/payments/payments.js'
import { setTimeZone } from '../../src/domain/people/profiles.js'
import { clientFor, uniqueSource, useTestApp } from '../helpers/app.js'
import { seedGame, seedPayment } from '../helpers/fixtures.js'
import { useMail } from './mail.js'

describe('notification kinds', () => {
  const t = useTestApp()
  const mail = useMail(t)

  /** A partner whose key's organizer has a real address, a league, Ann (official) and a game held by Ann. */
  async function held() {
    const source = uniqueSource()
    const organizer = `org-${source}@example.com`
    const issued = await issueKey(t.deps, { source, organizerEmail: organizer })
    const p = clientFor(t.app, `Bearer ${issued.key}`)
    const leagueId = (await p.post('/leagues', { name: 'Valley League' })).body.data.id as string
    const ann = `ann-${source}@example.com`
    const userId = (
      await p.post(`/leagues/${leagueId}/officials`, { externalId: 'ann', name: 'Ann', email: ann })
    ).body.data.userId as string
    const game = await seedGame(t.deps.db, leagueId)
    expect((await p.post(`/games/${game.id}/assign`, { userId })).status).toBe(200)
    const sender = mail.start()
    await mail.flush()
    mail.received.length = 0
    return { p, leagueId, userId, ann, organizer, game, positionId: game.positionIds[0]!, sender }
  }

  const subjects = async () => (await mail.mails()).map((m) => [m.to, m.subject])
  const reminders = (gameId: string) =>
    t.deps.db
      .selectFrom('notifications')
      .select(['status', 'due_at', 'payload'])
      .where('game_id', '=', gameId)
      .where('kind', '=', 'reminder')
      .orderBy('seq')
      .execute()

  it('changed (PATCH startsAt): old and new time in the recipient’s zone; the reminder of a later start waits', async () => {
    const { p, ann, game } = await held()
    await setTimeZone(t.deps, { email: ann }, 'America/New_York')
    await p.patch(`/games/${game.id}`, { startsAt: '2030-05-02T18:00:00Z' })
    await mail.flush()
    const [changed] = await mail.mails()
    expect(changed!.subject).toBe('Changed: soccer, Thu, May 2, 2:00 PM EDT')
    // Each change and each fact is a line of its own in the text part, as a mail client shows it.
    const lines = changed!.text!.split('\n')
    expect(lines).toContain('Time: Wed, May 1, 2030, 2:00 PM EDT -> Thu, May 2, 2030, 2:00 PM EDT')
    expect(lines).toContain('When: Thu, May 2, 2030, 2:00 PM EDT')
    expect(lines).toContain('Where: Field 1')
    expect(lines).toContain('-- ')
    expect(changed!.html).toContain('<s style="color:#6b7280;">Wed, May 1, 2030, 2:00 PM EDT</s>')
    // A later start writes nothing to the reminder: it is re-armed when its old time comes.
    const [reminder, ...others] = await reminders(game.id)
    expect(others).toEqual([])
    expect(reminder).toMatchObject({ status: 'pending', due_at: '2030-04-30T18:00:00.000Z' })
    expect(JSON.parse(reminder!.payload)).toMatchObject({ startsAt: '2030-05-01T18:00:00.000Z' })
  })

  it('changed (upsert-update of location); nothing for an unchanged re-post', async () => {
    const { p, leagueId, ann } = await held()
    const game = await seedGame(t.deps.db, leagueId, { externalId: 'g-1' })
    const userId = (await p.get(`/leagues/${leagueId}/officials`)).body.data[0].userId
    await p.post(`/games/${game.id}/assign`, { userId })
    const item = {
      externalId: 'g-1',
      sport: 'soccer',
      startsAt: '2030-05-01T18:00:00.000Z',
      location: 'Field 1',
    }
    await p.post(`/leagues/${leagueId}/games`, { games: [item] })
    await p.post(`/leagues/${leagueId}/games`, { games: [{ ...item, location: 'Field 9' }] })
    await mail.flush()
    expect((await subjects()).sort()).toEqual([
      [ann, 'Assigned: soccer, Wed, May 1, 6:00 PM UTC'],
      [ann, 'Changed: soccer, Wed, May 1, 6:00 PM UTC'],
    ])
    const changed = (await mail.mails()).find((m) => m.subject?.startsWith('Changed'))!
    expect(changed.text).toContain('Place: Field 1 -> Field 9')
  })

  it('changed (PATCH durationMinutes, upsert-update of the length); nothing when the length stays what it was', async () => {
    const { p, leagueId, ann, game } = await held()
    // The league's default is 90 minutes: naming it changes the game's record, not its length.
    expect((await p.patch(`/games/${game.id}`, { durationMinutes: 90 })).status).toBe(200)
    await mail.flush()
    expect(await subjects()).toEqual([])
    await p.patch(`/games/${game.id}`, { durationMinutes: 120 })
    await mail.flush()
    const [changed] = await mail.mails()
    expect(changed!.subject).toBe('Changed: soccer, Wed, May 1, 6:00 PM UTC')
    expect(changed!.text).toContain('Length: 90 minutes -> 120 minutes')
    expect(changed!.text).not.toContain('Time:')
    expect(changed!.html).toContain('<s style="color:#6b7280;">90 minutes</s>')

    mail.received.length = 0
    const upserted = await seedGame(t.deps.db, leagueId, { externalId: 'g-len' })
    const userId = (await p.get(`/leagues/${leagueId}/officials`)).body.data[0].userId
    await p.post(`/games/${upserted.id}/assign`, { userId })
    const item = {
      externalId: 'g-len',
      sport: 'soccer',
      startsAt: '2030-05-01T18:00:00.000Z',
      location: 'Field 1',
    }
    await p.post(`/leagues/${leagueId}/games`, { games: [{ ...item, durationMinutes: 60 }] })
    await mail.flush()
    const lengthened = (await mail.mails()).find((m) => m.subject?.startsWith('Changed'))!
    expect(lengthened.to).toBe(ann)
    expect(lengthened.text).toContain('Length: 90 minutes -> 60 minutes')
  })

  it('changed (league gameMinutes): holders of upcoming games without their own length; not of played or cancelled ones', async () => {
    const { p, leagueId, userId, ann, game } = await held()
    const played = await seedGame(t.deps.db, leagueId, {
      startsAt: '2020-05-01T18:00:00.000Z',
      positions: [{ officialId: userId }],
    })
    const cancelled = await seedGame(t.deps.db, leagueId, { positions: [{ officialId: userId }] })
    await t.deps.db.updateTable('games').set({ status: 'cancelled' }).where('id', '=', cancelled.id).execute()
    await seedGame(t.deps.db, leagueId, { durationMinutes: 60, positions: [{ officialId: userId }] })
    expect((await p.patch(`/leagues/${leagueId}`, { gameMinutes: 120 })).status).toBe(200)
    await mail.flush()
    const mails = await mail.mails()
    expect(mails.map((m) => [m.to, m.subject])).toEqual([[ann, 'Changed: soccer, Wed, May 1, 6:00 PM UTC']])
    expect(mails[0]!.text).toContain('Length: 90 minutes -> 120 minutes')
    expect((await p.get(`/games/${game.id}`)).body.data.endsAt).toBe('2030-05-01T20:00:00.000Z')
    expect((await p.get(`/games/${played.id}`)).body.data.endsAt).toBe('2020-05-01T20:00:00.000Z')
  })

  it('times are in the league’s time zone for a recipient who chose none, in their own once they do', async () => {
    const { p, leagueId, ann, organizer, game } = await held()
    expect((await p.patch(`/leagues/${leagueId}`, { timeZone: 'America/Los_Angeles' })).status).toBe(200)
    await p.patch(`/games/${game.id}`, { location: 'Field 2' })
    await mail.flush()
    const [changed] = await mail.mails()
    expect(changed!.subject).toBe('Changed: soccer, Wed, May 1, 11:00 AM PDT')
    expect(changed!.text).toContain('When: Wed, May 1, 2030, 11:00 AM PDT')
    mail.received.length = 0
    await setTimeZone(t.deps, { email: organizer }, 'Europe/Berlin')
    await p.delete(`/games/${game.id}`)
    await withdrawClaim(t.deps, CONSOLE_CALLER, game.positionIds[0]!)
    await mail.flush()
    expect((await subjects()).sort()).toEqual([
      [ann, 'Cancelled: soccer, Wed, May 1, 11:00 AM PDT'],
      [organizer, 'Turnback: soccer, Wed, May 1, 8:00 PM GMT+2'],
    ])
  })

  it('cancelled (DELETE /games/{id}); the reminder is dropped', async () => {
    const { p, ann, game } = await held()
    await p.delete(`/games/${game.id}`)
    await mail.flush()
    expect(await subjects()).toEqual([[ann, 'Cancelled: soccer, Wed, May 1, 6:00 PM UTC']])
    expect((await reminders(game.id)).map((r) => r.status)).toEqual(['dropped'])
  })

  it('unassigned (DELETE /games/{id}/assign, and removal from the league)', async () => {
    const { p, leagueId, userId, ann, game, positionId } = await held()
    await p.delete(`/games/${game.id}/assign`, { positionId })
    const other = await seedGame(t.deps.db, leagueId, { startsAt: '2030-06-01T18:00:00.000Z' })
    await p.post(`/games/${other.id}/assign`, { userId })
    await p.delete(`/leagues/${leagueId}/officials/${userId}`)
    await mail.flush()
    // A batch goes out several at a time: in any order.
    expect((await subjects()).sort()).toEqual([
      [ann, 'Assigned: soccer, Sat, Jun 1, 6:00 PM UTC'],
      [ann, 'Unassigned: soccer, Sat, Jun 1, 6:00 PM UTC'],
      [ann, 'Unassigned: soccer, Wed, May 1, 6:00 PM UTC'],
    ])
  })

  it('turnback: the organizer hears of a withdrawal; the official gets nothing', async () => {
    const { userId, ann, organizer, positionId } = await held()
    await withdrawClaim(t.deps, { kind: 'person', email: ann, userIds: [userId] }, positionId)
    await mail.flush()
    const [turnback, ...rest] = await mail.mails()
    expect(rest).toEqual([])
    expect([turnback!.to, turnback!.subject]).toEqual([
      organizer,
      'Turnback: soccer, Wed, May 1, 6:00 PM UTC',
    ])
    // Who and what stand on labelled lines; RefDesk's own sentence names no partner text.
    expect(turnback!.text).toContain('An official gave back the position below.')
    expect(turnback!.text!.split('\n')).toEqual(
      expect.arrayContaining(['Official: Ann', 'Position: Official']),
    )
    expect(turnback!.text).toMatch(/https:\/\/refdesk\.example\.test\/app\/organize\/leagues\/\w+/)
  })

  it('reminder: due 24 hours before, at once when taken inside the window, never after the start', async () => {
    const { ann, game } = await held()
    // On PostgreSQL the file's tests share a database: other tests' games remind their own officials.
    const mine = async () => (await subjects()).filter(([to]) => to === ann)
    mail.clock.set('2030-04-30T17:59:00.000Z')
    await mail.flush()
    expect(await mine()).toEqual([])
    mail.clock.set('2030-04-30T18:00:00.000Z')
    await mail.flush()
    expect(await mine()).toEqual([[ann, 'Reminder: soccer, Wed, May 1, 6:00 PM UTC']])
    expect((await reminders(game.id)).map((r) => r.status)).toEqual(['sent'])
  })

  it('a moved reminder is mailed once, at its new time, saying the new time', async () => {
    const { p, ann, game } = await held()
    const mine = async () => (await subjects()).filter(([to]) => to === ann)
    await p.patch(`/games/${game.id}`, { startsAt: '2030-05-02T18:00:00Z', location: 'Field 7' })
    await mail.flush()
    mail.received.length = 0
    mail.clock.set('2030-04-30T18:00:00.000Z')
    await mail.flush()
    expect(await mine()).toEqual([])
    // Found due at its old time, before its game's new window: re-armed, still the one row.
    expect((await reminders(game.id)).map(({ status, due_at }) => ({ status, due_at }))).toEqual([
      { status: 'pending', due_at: '2030-05-01T18:00:00.000Z' },
    ])
    mail.clock.set('2030-05-01T17:59:00.000Z')
    await mail.flush()
    expect(await mine()).toEqual([])
    mail.clock.set('2030-05-01T18:00:00.000Z')
    await mail.flush()
    expect(await mine()).toEqual([[ann, 'Reminder: soccer, Thu, May 2, 6:00 PM UTC']])
    const [reminder] = (await mail.mails()).filter((m) => m.to === ann)
    expect(reminder!.text).toContain('Where: Field 7')
    expect((await reminders(game.id)).map((r) => r.status)).toEqual(['sent'])
  })

  it('a reminder of a game moved earlier comes sooner, saying the game as it stands when sent', async () => {
    const { p, ann, game } = await held()
    const mine = async () => (await subjects()).filter(([to]) => to === ann)
    await p.patch(`/games/${game.id}`, { startsAt: '2030-04-30T12:00:00Z' })
    expect((await reminders(game.id)).map(({ status, due_at }) => ({ status, due_at }))).toEqual([
      { status: 'pending', due_at: '2030-04-29T12:00:00.000Z' },
    ])
    // A change of place alone writes nothing to the reminder; its mail still says the new place.
    await p.patch(`/games/${game.id}`, { location: 'Field 9' })
    await mail.flush()
    mail.received.length = 0
    mail.clock.set('2030-04-29T12:00:00.000Z')
    await mail.flush()
    expect(await mine()).toEqual([[ann, 'Reminder: soccer, Tue, Apr 30, 12:00 PM UTC']])
    const [reminder] = (await mail.mails()).filter((m) => m.to === ann)
    expect(reminder!.text).toContain('Where: Field 9')
  })

  it('mailed in one batch, two changes and the reminder each say the game as they should', async () => {
    const { p, ann, game, sender } = await held()
    const hours = (n: number) => new Date(t.deps.clock.now() + n * 3_600_000).toISOString()
    await sender.stop()
    await p.patch(`/games/${game.id}`, { startsAt: hours(2) })
    await p.patch(`/games/${game.id}`, { startsAt: hours(5) })
    mail.start()
    await mail.flush()
    const mine = (await mail.mails()).filter((m) => m.to === ann)
    const when = (m: (typeof mine)[number] | undefined) =>
      m?.text?.split('\n').find((l) => l.startsWith('When: '))
    const changed = mine.filter((m) => m.subject?.startsWith('Changed:'))
    // Each change as it left the game; the reminder, read when sent, as the game stands.
    expect(new Set(changed.map(when)).size).toBe(2)
    const reminder = mine.find((m) => m.subject?.startsWith('Reminder:'))
    expect(when(reminder)).toBeDefined()
    expect(changed.filter((m) => when(m) === when(reminder))).toHaveLength(1)
  })

  it('a reminder moved inside its window is due at once, and stays one row', async () => {
    const { p, game } = await held()
    const soon = new Date(t.deps.clock.now() + 2 * 3_600_000).toISOString()
    expect((await p.patch(`/games/${game.id}`, { startsAt: soon })).status).toBe(200)
    const [reminder, ...others] = await reminders(game.id)
    expect(others).toEqual([])
    expect(reminder!.status).toBe('pending')
    expect(reminder!.due_at <= new Date(t.deps.clock.now()).toISOString()).toBe(true)
  })

  it('changed after the reminder went out: no second reminder for a start already inside the window, a new one for a later start', async () => {
    const { p, game } = await held()
    mail.clock.set('2030-04-30T18:00:00.000Z')
    await mail.flush()
    expect((await reminders(game.id)).map((r) => r.status)).toEqual(['sent'])
    // Two hours from the services' now: its reminder would be due already, and Ann was reminded.
    const soon = new Date(t.deps.clock.now() + 2 * 3_600_000).toISOString()
    expect((await p.patch(`/games/${game.id}`, { startsAt: soon })).status).toBe(200)
    expect((await reminders(game.id)).map((r) => r.status)).toEqual(['sent'])
    expect((await p.patch(`/games/${game.id}`, { startsAt: '2030-05-03T18:00:00.000Z' })).status).toBe(200)
    expect((await reminders(game.id)).map(({ status, due_at }) => ({ status, due_at }))).toEqual([
      { status: 'sent', due_at: '2030-04-30T18:00:00.000Z' },
      { status: 'pending', due_at: '2030-05-02T18:00:00.000Z' },
    ])
  })

  it('paid: the official hears the amount', async () => {
    const { leagueId, userId, ann, positionId } = await held()
    const paymentId = await seedPayment(t.deps.db, {
      positionId,
      officialId: userId,
      leagueId,
      amountCents: 4500,
    })
    await markPaid(t.deps, CONSOLE_CALLER, paymentId)
    await mail.flush()
    const [paid] = await mail.mails()
    expect([paid!.to, paid!.subject]).toEqual([ann, 'Paid: soccer, Wed, May 1, 6:00 PM UTC'])
    expect(paid!.text).toContain('Amount: $45.00')
  })

  it('an own claim in the app sends no `assigned` mail', async () => {
    const { p, leagueId, userId, ann } = await held()
    void p
    // A week after the game Ann holds: one at the same time would be a schedule_conflict.
    const game = await seedGame(t.deps.db, leagueId, { startsAt: '2030-05-08T18:00:00.000Z' })
    await claimPosition(
      t.deps,
      { kind: 'person', email: ann, userIds: [userId] },
      {
        gameId: game.id,
        positionId: game.positionIds[0]!,
      },
    )
    await mail.flush()
    expect(mail.received).toEqual([])
  })
})
