import { describe, expect, it } from 'vitest'
import { newId, nowIso } from '../../src/domain/clock.js'
import { openDatabase } from '../../src/store/database.js'
import { isUniqueViolation } from '../../src/store/errors.js'
import { testDatabaseUrl, useTestApp } from '../helpers/app.js'

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
    const at = nowIso()
    const user = {
      id: newId(),
      source: 's',
      external_id: `u-${newId()}`,
      email: 'e',
      name: 'n',
      created_at: at,
      updated_at: at,
    }
    await db.insertInto('users').values(user).execute()
    const duplicate = db
      .insertInto('users')
      .values({ ...user, id: newId() })
      .execute()
    await expect(duplicate).rejects.toSatisfy(isUniqueViolation)

    const league = {
      id: newId(),
      source: 's',
      external_id: null,
      name: 'L',
      payment_mode: 'offline' as const,
      currency: 'usd',
      organizer_id: user.id,
      created_at: at,
      updated_at: at,
    }
    await db
      .insertInto('leagues')
      .values([league, { ...league, id: newId() }])
      .execute()
    const game = {
      id: newId(),
      league_id: league.id,
      source: 's',
      external_id: null,
      sport: '',
      starts_at: at,
      location: '',
      latitude: null,
      longitude: null,
      status: 'open' as const,
      created_at: at,
      updated_at: at,
    }
    await db.insertInto('games').values(game).execute()
    const position = {
      id: newId(),
      game_id: game.id,
      label: 'Official',
      pay_cents: 0,
      status: 'open' as const,
      created_at: at,
      updated_at: at,
    }
    await db.insertInto('positions').values(position).execute()
    const claim = {
      id: newId(),
      position_id: position.id,
      user_id: user.id,
      status: 'confirmed' as const,
      created_at: at,
    }
    await db.insertInto('claims').values(claim).execute()
    await expect(
      db
        .insertInto('claims')
        .values({ ...claim, id: newId() })
        .execute(),
    ).rejects.toSatisfy(isUniqueViolation)
  })
})
