// Several senders at once over one database (on PostgreSQL, one of them over a pool of its own, as another
// process's): each notification reaches the real SMTP server once, and is recorded sent after one attempt.
import { afterEach, describe, expect, it } from 'vitest'
import { openRuntime, type Runtime } from '../../src/app.js'
import { notifyCancelled } from '../../src/domain/notifications/notifications.js'
import { isPostgres, testDatabaseUrl, useTestApp } from '../helpers/app.js'
import { joinLeagueAs, seedGame } from '../helpers/fixtures.js'
import { useMail } from './mail.js'

const GAMES = 120

describe('notification senders at once', () => {
  const t = useTestApp()
  const mail = useMail(t)
  let other: Runtime | undefined
  afterEach(async () => {
    await other?.close()
    other = undefined
  })

  it(`mail each of ${GAMES} notifications once, whoever leases it`, async () => {
    const p = await t.partner()
    const leagueId = (await p.post('/leagues', { name: 'Valley League' })).body.data.id as string
    const official = await p.post(`/leagues/${leagueId}/officials`, {
      externalId: 'ann',
      name: 'Ann',
      email: 'ann@example.com',
    })
    const userId = official.body.data.userId as string
    // Joined: 120 mails to one address for a league not joined would stop at the daily bound.
    await joinLeagueAs(t.deps, leagueId, 'ann@example.com')
    const gameIds: string[] = []
    for (let i = 0; i < GAMES; i++)
      gameIds.push((await seedGame(t.deps.db, leagueId, { positions: [{ officialId: userId }] })).id)
    if (isPostgres())
      other = await openRuntime(await testDatabaseUrl(), { migrate: false, clock: mail.clock })
    // Small batches, so the senders take turns at the table many times over.
    const senders = [
      mail.start({ concurrency: 2 }),
      mail.start({ concurrency: 2 }),
      mail.start({ concurrency: 2, ...(other && { runtime: other }) }),
    ]
    expect(new Set(senders.map((s) => s.owner)).size).toBe(3)

    await t.deps.db.transaction().execute(async (trx) => {
      await notifyCancelled(trx, t.deps, new Date(mail.clock.now()).toISOString(), gameIds)
    })
    await mail.flush()

    const rows = await t.deps.db
      .selectFrom('notifications')
      .select(['id', 'status', 'attempts'])
      .where('league_id', '=', leagueId)
      .where('kind', '=', 'cancelled')
      .execute()
    expect(rows).toHaveLength(GAMES)
    expect(rows.filter((r) => r.status !== 'sent' || r.attempts !== 1)).toEqual([])
    const ids = (await mail.mails()).map((m) => m.messageId)
    expect(ids).toHaveLength(GAMES)
    expect(new Set(ids)).toEqual(new Set(rows.map((r) => `<${r.id}@refdesk>`)))
  })
})
