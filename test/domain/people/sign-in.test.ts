// Sign-in links and sessions: single use, expiry on an injected clock, hashes at rest, the rate limit.
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { ApiError } from '../../../src/domain/core/errors.js'
import { endSession, findPerson } from '../../../src/domain/people/sessions.js'
import {
  admitSignInRequest,
  issueSignInLink,
  isLiveSignInLink,
  makeSignInLink,
  redeemSignInLink,
  SIGN_IN_LINK_TTL_MS,
  type SignInLimits,
} from '../../../src/domain/people/sign-in-links.js'
import { useTestApp } from '../../helpers/app.js'
import { asOf } from '../../helpers/clock.js'
import { seedUser, uniqueEmail } from '../../helpers/fixtures.js'

const LIMITS: SignInLimits = { perAddress: 3, perClient: 5, windowMs: 15 * 60_000 }
const T0 = new Date('2030-03-01T10:00:00.000Z')
const later = (ms: number) => new Date(T0.getTime() + ms)
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex')
const DAY = 24 * 3_600_000

describe('sign-in links and sessions', () => {
  const t = useTestApp()

  async function linkFor(email: string, now = T0): Promise<string> {
    const token = await makeSignInLink(asOf(t.deps, now), { email, limits: LIMITS })
    if (token === undefined) throw new Error('no link')
    return token
  }

  it('a link signs in once, for a session covering every user row with the address', async () => {
    const sam = uniqueEmail('sam')
    const a = await seedUser(t.deps.db, { source: 'acme', email: sam })
    const b = await seedUser(t.deps.db, { source: 'other', email: sam })
    await seedUser(t.deps.db, { source: 'acme', email: uniqueEmail('someone') })
    const token = await linkFor(sam)

    expect(await isLiveSignInLink(asOf(t.deps, T0), token)).toBe(true)
    const session = await redeemSignInLink(asOf(t.deps, T0), token, { sessionTtlMs: DAY })
    expect(session?.expiresAt).toEqual(later(DAY))
    expect(await redeemSignInLink(asOf(t.deps, T0), token, { sessionTtlMs: DAY })).toBeUndefined()
    expect(await isLiveSignInLink(asOf(t.deps, T0), token)).toBe(false)

    expect(await findPerson(asOf(t.deps, T0), session!.token)).toEqual({
      kind: 'person',
      email: sam,
      userIds: [a, b],
      timeZone: 'UTC',
      organizes: false,
    })
  })

  it('two redemptions of one link racing: exactly one session', async () => {
    const email = uniqueEmail('race')
    await seedUser(t.deps.db, { email })
    const token = await linkFor(email)
    const results = await Promise.all(
      Array.from({ length: 5 }, () => redeemSignInLink(asOf(t.deps, T0), token, { sessionTtlMs: DAY })),
    )
    expect(results.filter(Boolean)).toHaveLength(1)
  })

  it('a link expires after 15 minutes', async () => {
    const email = uniqueEmail('sam')
    await seedUser(t.deps.db, { email })
    const token = await linkFor(email)
    expect(await isLiveSignInLink(asOf(t.deps, later(SIGN_IN_LINK_TTL_MS - 1)), token)).toBe(true)
    expect(await isLiveSignInLink(asOf(t.deps, later(SIGN_IN_LINK_TTL_MS)), token)).toBe(false)
    expect(
      await redeemSignInLink(asOf(t.deps, later(SIGN_IN_LINK_TTL_MS)), token, { sessionTtlMs: DAY }),
    ).toBeUndefined()
    expect(
      await redeemSignInLink(asOf(t.deps, later(SIGN_IN_LINK_TTL_MS - 1)), token, { sessionTtlMs: DAY }),
    ).toBeDefined()
  })

  it('keeps links and sessions only as SHA-256 hashes', async () => {
    const email = uniqueEmail('sam')
    await seedUser(t.deps.db, { email })
    const token = await linkFor(email)
    const links = await t.deps.db.selectFrom('sign_in_links').selectAll().where('email', '=', email).execute()
    expect(links).toHaveLength(1)
    expect(links[0]!.token_hash).toBe(sha256(token))
    expect(JSON.stringify(links)).not.toContain(token)

    const session = (await redeemSignInLink(asOf(t.deps, T0), token, { sessionTtlMs: DAY }))!
    const sessions = await t.deps.db.selectFrom('sessions').selectAll().where('email', '=', email).execute()
    expect(sessions.map((s) => s.token_hash)).toEqual([sha256(session.token)])
    expect(JSON.stringify(sessions)).not.toContain(session.token)
  })

  it('makes no link for unknown and placeholder addresses, and stores nothing for them', async () => {
    const placeholder = `official-${uniqueEmail('x').split('@')[0]}@placeholder.refdesk.invalid`
    const nobody = uniqueEmail('nobody')
    await seedUser(t.deps.db, { email: placeholder })
    for (const email of [nobody, placeholder]) {
      expect(await makeSignInLink(asOf(t.deps, T0), { email, limits: LIMITS })).toBeUndefined()
    }
    expect(
      await t.deps.db
        .selectFrom('sign_in_links')
        .selectAll()
        .where('email', 'in', [nobody, placeholder])
        .execute(),
    ).toEqual([])
  })

  it('limits links per address (only those made for an account) and requests per client, per window', async () => {
    const sam = uniqueEmail('sam')
    const ann = uniqueEmail('ann')
    await seedUser(t.deps.db, { email: sam })
    const run = uniqueEmail('run')
    const link = (email: string, now = T0) =>
      makeSignInLink(asOf(t.deps, now), { email, limits: LIMITS }).then((token) => token !== undefined)
    const admit = (client: string, now = T0) =>
      admitSignInRequest(asOf(t.deps, now), { client: `${run}-${client}`, limits: LIMITS })

    // Per address: 3 links per window.
    expect([await link(sam), await link(sam), await link(sam), await link(sam)]).toEqual([
      true,
      true,
      true,
      false,
    ])
    // Asking for an address without an account counts nothing: once it has one, its links come at once.
    for (let i = 0; i < 5; i++) expect(await link(ann)).toBe(false)
    await seedUser(t.deps.db, { email: ann })
    expect(await link(ann)).toBe(true)
    // Per client: 5 requests per window, whatever the addresses.
    const fromOneClient = []
    for (let i = 0; i < 6; i++) fromOneClient.push(await admit('busy'))
    expect(fromOneClient).toEqual([true, true, true, true, true, false])
    // A new window starts afresh.
    expect(await link(sam, later(LIMITS.windowMs + 1))).toBe(true)
    expect(await admit('busy', later(LIMITS.windowMs + 1))).toBe(true)
  })

  it('sessions expire, and sign-out ends them at once', async () => {
    const email = uniqueEmail('sam')
    await seedUser(t.deps.db, { email })
    const session = (await redeemSignInLink(asOf(t.deps, T0), await linkFor(email), {
      sessionTtlMs: DAY,
    }))!
    expect(await findPerson(asOf(t.deps, later(DAY - 1)), session.token)).toBeDefined()
    expect(await findPerson(asOf(t.deps, later(DAY)), session.token)).toBeUndefined()

    const second = (await redeemSignInLink(asOf(t.deps, T0), await linkFor(email), {
      sessionTtlMs: DAY,
    }))!
    await endSession(t.deps, second.token)
    expect(await findPerson(asOf(t.deps, T0), second.token)).toBeUndefined()
    expect(await findPerson(asOf(t.deps, T0), 'not-a-token')).toBeUndefined()
  })

  it("the operator's link needs an account and no rate limit", async () => {
    const email = uniqueEmail('sam')
    await seedUser(t.deps.db, { email })
    const tokens = await Promise.all(
      Array.from({ length: 10 }, () => issueSignInLink(asOf(t.deps, T0), ` ${email.toUpperCase()}`)),
    )
    expect(new Set(tokens).size).toBe(10)
    for (const token of tokens) expect(await isLiveSignInLink(asOf(t.deps, T0), token)).toBe(true)
    await expect(issueSignInLink(asOf(t.deps, T0), uniqueEmail('nobody'))).rejects.toEqual(
      new ApiError('account_not_found'),
    )
  })
})
