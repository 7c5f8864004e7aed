// The home point on Profile over HTTP: saved, shown again, refused out of range or half given, cleared;
// setting it keeps the time zone the person sees; the form needs its token.
import { describe, expect, it } from 'vitest'
import { seedUser, uniqueEmail } from '../helpers/fixtures.js'
import { useWebApp } from './browser-like.js'

describe('the home point on Profile', () => {
  const t = useWebApp()

  it('saves, shows, refuses and clears it', async () => {
    const email = uniqueEmail('sam')
    await seedUser(t.runtime.deps.db, { email })
    const sam = await t.signIn(email)
    await sam.get('/app/profile')
    const saved = await sam.post('/app/profile/home', { latitude: '40.7128', longitude: '-74.006' })
    expect(saved.location).toBe('/app/profile?notice=home_saved')
    const page = await sam.get(saved.location!)
    expect(page.body).toContain('id="latitude" name="latitude" inputmode="decimal" value="40.7128"')
    expect(page.body).toContain('value="-74.006"')
    expect(page.body).toContain('<option selected>UTC</option>')
    for (const fields of [
      { latitude: '91', longitude: '0' },
      { latitude: '10', longitude: '' },
      { latitude: 'north', longitude: '3' },
    ]) {
      expect((await sam.post('/app/profile/home', fields)).location).toBe('/app/profile?notice=invalid_home')
    }
    const cleared = await sam.post('/app/profile/home', { latitude: '', longitude: '' })
    expect(cleared.location).toBe('/app/profile?notice=home_saved')
    expect((await sam.get('/app/profile')).body).toContain('name="latitude" inputmode="decimal" value=""')
    expect(
      (await sam.post('/app/profile/home', { _csrf: 'forged', latitude: '1', longitude: '1' })).status,
    ).toBe(403)
  })
})
