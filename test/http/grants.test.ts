import { describe, expect, it } from 'vitest'
import { grantLeague, ungrantLeague } from '../../src/domain/partners/api-keys.js'
import { useTestApp } from '../helpers/app.js'

describe('league grants', () => {
  const t = useTestApp()

  it('a granted key sees and works in another source’s league until ungranted', async () => {
    const owner = await t.partner()
    const guest = await t.partner()
    const { id: leagueId } = (await owner.post('/leagues', { name: 'Shared' })).body.data
    expect((await guest.get(`/leagues/${leagueId}`)).status).toBe(404)

    await grantLeague(t.deps, guest.id, leagueId)
    const again = await t.partner({ source: guest.source })
    expect((await guest.get('/leagues')).body.data.map((l: { id: string }) => l.id)).toEqual([leagueId])
    expect((await again.get(`/leagues/${leagueId}`)).status).toBe(404)

    const imported = await guest.post(`/leagues/${leagueId}/games`, {
      games: [{ startsAt: '2026-05-01T10:00:00Z', externalId: 'g1' }],
    })
    expect(imported.status).toBe(201)
    expect(imported.body.data.created[0]).toMatchObject({ leagueId, source: guest.source })
    expect((await owner.get(`/leagues/${leagueId}/games`)).body.data).toHaveLength(1)

    await ungrantLeague(t.deps, guest.id, leagueId)
    expect(await guest.get(`/leagues/${leagueId}`)).toMatchObject({
      status: 404,
      body: { error: 'league_not_found' },
    })
    expect((await guest.get('/leagues')).body.data).toEqual([])
  })
})
