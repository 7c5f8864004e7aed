import { describe, expect, it } from 'vitest'
import { newId } from '../../src/clock.js'
import { openDatabase } from '../../src/store/database.js'
import { isUniqueViolation } from '../../src/store/errors.js'
import { testDatabaseUrl, useTestApp } from '../helpers/app.js'
import { seedClaim, seedGame, seedLeague, seedUser } from '../helpers/fixtures.js'

describe('schema', () => {
  const t = useTestApp()

  it('migrating again is a no-op', async () => {
    const database = openDatabase(await testDatabaseUrl())
    if (database.dialect === 'sqlite') await database.migrate()
    await database.migrate()
    await database.close()
  })

  it('enforces one claim per position and unique (source, externalId)', async () => {
    const db = t.deps.db
    const user = { source: 's', externalId: `u-${newId()}` }
    const userId = await seedUser(db, user)
    await expect(seedUser(db, user)).rejects.toSatisfy(isUniqueViolation)

    // Leagues without an external id never collide.
    const leagueId = await seedLeague(db, { source: 's', organizerId: userId })
    await seedLeague(db, { source: 's', organizerId: userId })
    const { positionIds } = await seedGame(db, leagueId)
    await seedClaim(db, positionIds[0]!, userId)
    await expect(seedClaim(db, positionIds[0]!, userId)).rejects.toSatisfy(isUniqueViolation)
  })
})
