// `refdesk app sign-in-link`: the operator's way to hand out a link when the service sends no email.
import { describe, expect, it } from 'vitest'
import { isLiveSignInLink } from '../../src/domain/people/sign-in-links.js'
import { lastLine, runBin, useCliDatabase } from '../helpers/cli.js'
import { seedUser } from '../helpers/fixtures.js'

describe('refdesk app sign-in-link', () => {
  const t = useCliDatabase()

  it('prints a fresh single-use link alone on the last line, built from REFDESK_PUBLIC_URL', async () => {
    const { deps } = await t.runtime()
    await seedUser(deps.db, { email: 'sam@example.com' })
    const res = await t.run('app', 'sign-in-link', '--email', ' Sam@Example.com ')
    expect(res.code).toBe(0)
    const link = new URL(lastLine(res.stdout))
    expect(`${link.origin}${link.pathname}`).toBe('http://localhost:3000/app/sign-in/link')
    expect(await isLiveSignInLink(deps, link.searchParams.get('token'))).toBe(true)

    const other = await t.run('app', 'sign-in-link', '--email', 'sam@example.com')
    expect(lastLine(other.stdout)).not.toBe(lastLine(res.stdout))
  })

  it('uses the configured public URL', async () => {
    const { deps } = await t.runtime()
    await seedUser(deps.db, { email: 'ann@example.com' })
    const res = await runBin(['app', 'sign-in-link', '--email', 'ann@example.com', '--database', t.url], {
      REFDESK_PUBLIC_URL: 'https://refdesk.example.org/',
    })
    expect(lastLine(res.stdout)).toMatch(
      /^https:\/\/refdesk\.example\.org\/app\/sign-in\/link\?token=[\w-]{43}$/,
    )
  })

  it('refuses an address no user has', async () => {
    const res = await t.run('app', 'sign-in-link', '--email', 'nobody@example.com')
    expect(res.code).toBe(1)
    expect(res.stdout).toBe('')
    expect(res.stderr).toBe('{"error":"account_not_found"}\n')
  })
})
