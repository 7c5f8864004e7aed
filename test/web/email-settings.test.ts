// Profile's email settings: a checkbox per notification kind, labelled with the kind's word.
import { describe, expect, it } from 'vitest'
import { seedUser, uniqueEmail } from '../helpers/fixtures.js'
import { useWebApp } from './browser-like.js'

describe('email settings on Profile', () => {
  const t = useWebApp()

  it('shows every kind on, and saves the checked ones', async () => {
    const email = uniqueEmail('ann')
    await seedUser(t.runtime.deps.db, { email })
    const visitor = await t.signIn(email)
    const page = await visitor.get('/app/profile')
    const words = [
      'Assigned',
      'Changed',
      'Cancelled',
      'Unassigned',
      'Reminder',
      'Turnback',
      'Paid',
      'Invited',
    ]
    for (const word of words) expect(page.body).toContain(`${word} <span class="hint">`)
    expect(page.body.match(/name="kind" value="\w+" checked/g)).toHaveLength(8)
    const saved = await visitor.post('/app/profile/email', { kind: 'paid' })
    expect(saved.location).toBe('/app/profile?notice=saved')
    const after = await visitor.get('/app/profile')
    expect(after.body.match(/name="kind" value="\w+" checked/g)).toEqual(['name="kind" value="paid" checked'])
    const optouts = await t.runtime.deps.db
      .selectFrom('notification_optouts')
      .select('kind')
      .where('email', '=', email)
      .orderBy('kind')
      .execute()
    expect(optouts.map((o) => o.kind)).toEqual([
      'assigned',
      'cancelled',
      'changed',
      'invited',
      'reminder',
      'turnback',
      'unassigned',
    ])
  })

  it('refuses the form without its CSRF token', async () => {
    const email = uniqueEmail('bob')
    await seedUser(t.runtime.deps.db, { email })
    const visitor = await t.signIn(email)
    const refused = await visitor.post('/app/profile/email', { _csrf: 'forged', kind: 'paid' })
    expect(refused.status).toBe(403)
  })
})
