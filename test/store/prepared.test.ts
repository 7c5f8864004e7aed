// prepared(): a query compiled once per dialect and shape answers exactly what the same query built
// afresh answers, whatever the parameters, inside and outside transactions.
import { describe, expect, it } from 'vitest'
import { prepared } from '../../src/store/prepared.js'
import { leagueInScope, type ScopeParams } from '../../src/store/scope.js'
import { useTestApp } from '../helpers/app.js'
import { seedLeague } from '../helpers/fixtures.js'

const leagueByIdInScope = prepared((db, p: ScopeParams & { id: string }) =>
  db.selectFrom('leagues').select(['id', 'name']).where('id', '=', p.id).where(leagueInScope(p)),
)

const leaguesNamed = prepared((db, p: { names: readonly string[]; source: string }) =>
  db
    .selectFrom('leagues')
    .select('name')
    .where('name', 'in', p.names)
    .where('source', '=', p.source)
    .orderBy('name'),
)

describe('prepared queries', () => {
  const t = useTestApp()

  it('binds each call’s own parameters to the compiled statement', async () => {
    const a = { id: await seedLeague(t.deps.db, { source: 'prep-a', name: 'A' }) }
    const b = { id: await seedLeague(t.deps.db, { source: 'prep-b', name: 'B' }) }
    const own = (source: string, id: string) =>
      leagueByIdInScope.takeFirst(t.deps.db, { id, source, grantedLeagueIds: [] })
    expect(await own('prep-a', a.id)).toEqual({ id: a.id, name: 'A' })
    expect(await own('prep-b', b.id)).toEqual({ id: b.id, name: 'B' })
    expect(await own('prep-b', a.id)).toBeUndefined()
  })

  it('compiles one shape per array length, so grants of any count scope correctly', async () => {
    const a = { id: await seedLeague(t.deps.db, { source: 'prep-c', name: 'C' }) }
    const others = [
      { id: await seedLeague(t.deps.db, { source: 'prep-x', name: 'D' }) },
      { id: await seedLeague(t.deps.db, { source: 'prep-x', name: 'E' }) },
    ]
    const granted = (ids: string[], id: string) =>
      leagueByIdInScope.takeFirst(t.deps.db, { id, source: 'prep-c', grantedLeagueIds: ids })
    expect(await granted([], others[0]!.id)).toBeUndefined()
    expect(await granted([others[0]!.id], others[0]!.id)).toMatchObject({ name: 'D' })
    expect(await granted([others[0]!.id], others[1]!.id)).toBeUndefined()
    expect(await granted([others[0]!.id, others[1]!.id], others[1]!.id)).toMatchObject({ name: 'E' })
    expect(await granted([others[0]!.id, others[1]!.id], a.id)).toMatchObject({ name: 'C' })
    const named = (names: string[]) => leaguesNamed.execute(t.deps.db, { names, source: 'prep-x' })
    expect(await named(['E'])).toEqual([{ name: 'E' }])
    expect(await named(['D', 'E', 'Z'])).toEqual([{ name: 'D' }, { name: 'E' }])
  })

  it('runs inside a transaction and sees its uncommitted rows', async () => {
    await t.deps.db
      .transaction()
      .execute(async (trx) => {
        const league = { id: await seedLeague(trx, { source: 'prep-t', name: 'T' }) }
        expect(
          await leagueByIdInScope.takeFirst(trx, { id: league.id, source: 'prep-t', grantedLeagueIds: [] }),
        ).toMatchObject({ name: 'T' })
        throw new Error('roll back')
      })
      .catch(() => undefined)
    expect(await leaguesNamed.execute(t.deps.db, { names: ['T'], source: 'prep-t' })).toEqual([])
  })

  it('never reads another transaction’s uncommitted rows, even while that transaction is open', async () => {
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    let inserted!: () => void
    const insertedYet = new Promise<void>((resolve) => (inserted = resolve))
    const writer = t.deps.db
      .transaction()
      .execute(async (trx) => {
        await seedLeague(trx, { source: 'prep-dirty', name: 'Dirty' })
        inserted()
        await gate
        throw new Error('roll back')
      })
      .catch(() => undefined)
    await insertedYet
    const read = leaguesNamed.execute(t.deps.db, { names: ['Dirty'], source: 'prep-dirty' })
    release()
    await writer
    expect(await read).toEqual([])
  })
})
