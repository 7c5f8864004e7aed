// insertRows: many rows in statements of at most 500, each column in its place, on both databases; the
// table's own column names are the only ones it takes (a misspelt one fails `npm run typecheck`).
import type { Kysely } from 'kysely'
import { describe, expect, it } from 'vitest'
import { isoNow, newId, systemClock } from '../../src/clock.js'
import { insertRows } from '../../src/store/bulk.js'
import type { Db } from '../../src/store/tables.js'
import { useTestApp } from '../helpers/app.js'
import { seedGame, seedLeague } from '../helpers/fixtures.js'

// Never called: it exists so that typecheck proves a column outside the table is refused.
export function misspeltColumn(db: Kysely<Db>) {
  // @ts-expect-error `pay` is not a column of positions
  return insertRows(db, 'positions', ['id', 'pay'], [])
}

describe('insertRows', () => {
  const t = useTestApp()

  it('writes every row, in order, across statement boundaries', async () => {
    const league = await seedLeague(t.deps.db)
    const { id: gameId } = await seedGame(t.deps.db, league)
    const at = isoNow(systemClock)
    const rows = Array.from({ length: 1001 }, (_, i) => ({
      id: newId(),
      game_id: gameId,
      label: `Slot ${i}`,
      pay_cents: i,
      status: 'open' as const,
      created_at: at,
      updated_at: at,
    }))
    await insertRows(
      t.deps.db,
      'positions',
      ['id', 'game_id', 'label', 'pay_cents', 'status', 'created_at', 'updated_at'],
      rows,
    )
    const stored = await t.deps.db
      .selectFrom('positions')
      .select(['id', 'label', 'pay_cents'])
      .where('game_id', '=', gameId)
      .where('label', 'like', 'Slot %')
      .orderBy('seq')
      .execute()
    expect(stored).toEqual(rows.map((r) => ({ id: r.id, label: r.label, pay_cents: r.pay_cents })))
  })
})
