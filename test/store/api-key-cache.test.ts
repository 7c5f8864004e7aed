// findKeyByHash keeps keys it read while the database stayed unchanged (SQLite): any write, by this
// connection or another (the `keys revoke` command runs in a process of its own), is seen by the very
// next lookup. On PostgreSQL nothing is kept, and the same answers hold.
import { createHash } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { isoNow, newId, systemClock } from '../../src/clock.js'
import { findKeyByHash, insertGrant, revokeKey } from '../../src/store/api-keys.js'
import { openDatabase, type Database } from '../../src/store/database.js'
import { testDatabaseUrl, uniqueSource } from '../helpers/app.js'
import { seedLeague, seedUser } from '../helpers/fixtures.js'

describe('the key lookup', () => {
  let dir: string | undefined
  let serving: Database
  let other: Database
  beforeEach(async () => {
    let url = await testDatabaseUrl()
    if (url === 'file::memory:') {
      dir = await mkdtemp(join(tmpdir(), 'refdesk-keys-'))
      url = `file:${join(dir, 'refdesk.sqlite')}`
    }
    serving = openDatabase(url)
    await serving.migrate()
    other = openDatabase(url)
  })
  afterEach(async () => {
    await other.close()
    await serving.close()
    if (dir) await rm(dir, { recursive: true, force: true })
    dir = undefined
  })

  const newHash = () => createHash('sha256').update(newId()).digest('hex')

  async function seedKey(db = serving.db, hash = newHash()): Promise<{ id: string; hash: string }> {
    const source = uniqueSource()
    const organizerId = await seedUser(db, { source })
    const id = newId()
    await db
      .insertInto('api_keys')
      .values({
        id,
        source,
        name: '',
        key_hash: hash,
        organizer_id: organizerId,
        created_at: isoNow(systemClock),
        revoked_at: null,
        last_used_at: null,
      })
      .execute()
    return { id, hash }
  }

  it('sees a revocation by another connection at the next lookup', async () => {
    const key = await seedKey()
    expect((await findKeyByHash(serving.db, key.hash))?.revoked_at).toBeNull()
    expect((await findKeyByHash(serving.db, key.hash))?.revoked_at).toBeNull()
    await revokeKey(other.db, key.id, isoNow(systemClock))
    expect((await findKeyByHash(serving.db, key.hash))?.revoked_at).toMatch(/Z$/)
  })

  it('sees a revocation and a grant by its own connection at the next lookup', async () => {
    const key = await seedKey()
    const leagueId = await seedLeague(serving.db)
    expect((await findKeyByHash(serving.db, key.hash))?.grantedLeagueIds).toEqual([])
    await insertGrant(serving.db, key.id, leagueId, isoNow(systemClock))
    expect((await findKeyByHash(serving.db, key.hash))?.grantedLeagueIds).toEqual([leagueId])
    await revokeKey(serving.db, key.id, isoNow(systemClock))
    expect((await findKeyByHash(serving.db, key.hash))?.revoked_at).toMatch(/Z$/)
  })

  it('finds a key issued by another connection after a lookup missed it', async () => {
    const hash = newHash()
    expect(await findKeyByHash(serving.db, hash)).toBeUndefined()
    await seedKey(other.db, hash)
    expect((await findKeyByHash(serving.db, hash))?.key_hash).toBe(hash)
  })
})
