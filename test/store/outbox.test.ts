import { describe, expect, it } from 'vitest'
import { isoNow, newId, systemClock } from '../../src/clock.js'
import { domainEvent, recordEvents } from '../../src/domain/core/events.js'
import { listEvents } from '../../src/store/outbox.js'
import { useTestApp } from '../helpers/app.js'

describe('transactional outbox', () => {
  const t = useTestApp()

  it('a committed transaction has its events, in order, with leagueId in data', async () => {
    const leagueId = newId()
    await t.deps.db.transaction().execute(async (trx) => {
      await recordEvents(
        trx,
        [
          domainEvent('official.joined', leagueId, { official: official(leagueId) }),
          domainEvent('official.approved', leagueId, { official: official(leagueId) }),
        ],
        isoNow(systemClock),
      )
    })
    const events = await listEvents(t.deps.db, leagueId)
    expect(events.map((e) => e.event)).toEqual(['official.joined', 'official.approved'])
    expect(events[0]!.id).toMatch(/^evt_/)
    expect(JSON.parse(events[0]!.data)).toMatchObject({ leagueId, official: { userId: 'u1' } })
  })

  it('a rolled-back transaction leaves no event behind', async () => {
    const leagueId = newId()
    await expect(
      t.deps.db.transaction().execute(async (trx) => {
        await recordEvents(
          trx,
          [domainEvent('official.joined', leagueId, { official: official(leagueId) })],
          isoNow(systemClock),
        )
        throw new Error('boom')
      }),
    ).rejects.toThrow('boom')
    expect(await listEvents(t.deps.db, leagueId)).toEqual([])
  })

  it('appends large batches across statement chunks', async () => {
    const leagueId = newId()
    const events = Array.from({ length: 1201 }, () =>
      domainEvent('official.joined', leagueId, { official: official(leagueId) }),
    )
    await t.deps.db.transaction().execute((trx) => recordEvents(trx, events, isoNow(systemClock)))
    expect(await listEvents(t.deps.db, leagueId)).toHaveLength(1201)
  })
})

function official(leagueId: string) {
  return {
    userId: 'u1',
    leagueId,
    status: 'approved' as const,
    name: 'Ref',
    email: 'ref@example.com',
    externalId: 'r1',
    source: 's',
    createdAt: isoNow(systemClock),
    level: null,
    confirmed: false,
  }
}
