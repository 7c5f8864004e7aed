// Rows read through the statement cache are plain objects keyed by column name, on both databases:
// SQLite builds them from arrays with one compiled literal per statement.
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { useTestApp } from '../helpers/app.js'
import { seedLeague } from '../helpers/fixtures.js'

describe('rows read from the database', () => {
  const t = useTestApp()

  it('carry every column under its own name, however it is spelled', async () => {
    const { rows } =
      await sql`select 'p' as "plain", 'q' as "it's ""quoted""", null as "back\\slash", 'c' as "a b"`.execute(
        t.deps.db,
      )
    expect(rows).toEqual([{ plain: 'p', 'it\'s "quoted"': 'q', 'back\\slash': null, 'a b': 'c' }])
  })

  it('keep the last of two columns with one name, as the drivers do', async () => {
    const { rows } = await sql`select 1 as "n", 2 as "n"`.execute(t.deps.db)
    expect(rows).toEqual([{ n: 2 }])
  })

  it('come back the same from a cached statement, one object per row', async () => {
    const id = await seedLeague(t.deps.db, { source: 'rows', name: 'R' })
    const read = () =>
      t.deps.db.selectFrom('leagues').select(['id', 'name']).where('source', '=', 'rows').execute()
    const [first, second] = [await read(), await read()]
    expect(first).toEqual([{ id, name: 'R' }])
    expect(second).toEqual(first)
    expect(second[0]).not.toBe(first[0])
  })
})
