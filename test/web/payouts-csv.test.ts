// Issue 21, item 5: the payouts CSV defuses formulas that start after a `;` (a CSV opened in a locale that
// splits on semicolons) and those written with the fullwidth ＝ ＋ － ＠, not only ASCII ones at a cell's start.
import { describe, expect, it } from 'vitest'
import { seedGame, seedLeague, seedMembership, seedUser, uniqueEmail } from '../helpers/fixtures.js'
import { useWebApp } from './browser-like.js'

/** Official name as a partner wrote it → the cell the CSV carries. */
const CELLS: readonly [string, string][] = [
  ['Sam;=HYPERLINK("http://evil")', `"Sam;'=HYPERLINK(""http://evil"")"`],
  ['Ann; +cmd|" /C calc"!A0', `"Ann;' +cmd|"" /C calc""!A0"`],
  ['Bo;-2+3;@SUM(A1)', "Bo;'-2+3;'@SUM(A1)"],
  ['＝1+1', "'＝1+1"],
  ['＋cmd', "'＋cmd"],
  ['－2+3', "'－2+3"],
  ['＠SUM(A1)', "'＠SUM(A1)"],
  ['  =1+1', "'  =1+1"],
  ['Cy;Dee', 'Cy;Dee'],
  ['Ed e-mail@home', 'Ed e-mail@home'],
]

describe('the payouts CSV', () => {
  const t = useWebApp()

  it('defuses formulas after a semicolon and in fullwidth forms, and leaves plain text alone', async () => {
    const db = t.runtime.deps.db
    const olgaEmail = uniqueEmail('olga')
    const league = await seedLeague(db, { organizerId: await seedUser(db, { email: olgaEmail }) })
    const officials: string[] = []
    for (const [name] of CELLS) {
      const official = await seedUser(db, { name, email: uniqueEmail('o') })
      await seedMembership(db, league, official)
      officials.push(official)
    }
    const game = await seedGame(db, league, {
      startsAt: '2020-05-01T18:00:00.000Z',
      positions: officials.map((officialId) => ({ officialId })),
    })
    const olga = await t.signIn(olgaEmail)
    await olga.get(`/app/organize/games/${game.id}/complete`)
    expect((await olga.post(`/app/organize/games/${game.id}/complete`)).status).toBe(303)

    const csv = (await olga.get(`/app/organize/leagues/${league}/payouts.csv`)).body
    CELLS.forEach(([, cell], i) => expect(csv).toContain(`,${officials[i]},${cell},`))
  })
})
