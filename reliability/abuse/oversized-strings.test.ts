// Resource abuse: oversized strings. A 1 MiB league name and a 1 MiB webhook URL were once stored, and 50
// such endpoints made `GET /webhooks` answer 53 MB. Every string input now has a maximum: the megabyte is
// refused with the field's code and writes nothing, and the largest listing a source can make of its
// endpoints (16, each with a URL at the 2,048-character maximum) stays tens of kilobytes.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { TestApp } from '../../test/helpers/app.js'
import { buildReliabilityApp } from '../lib/app.js'
import { recordFigure } from '../lib/figures.js'

const MIB = 'x'.repeat(1024 * 1024 - 200)

describe('resource abuse: oversized strings', () => {
  let t: TestApp
  beforeEach(async () => {
    t = await buildReliabilityApp('abuse-oversized-strings')
  })
  afterEach(async () => {
    await t.close()
  })

  it('refuses megabyte strings with the field’s code and bounds what a source can make the API answer', async () => {
    const p = await t.partner()
    const refused = [
      await p.post('/leagues', { name: MIB }),
      await p.post('/webhooks', { url: `https://hooks.example.com/${MIB}` }),
      await p.post('/leagues', { name: 'L', externalId: MIB }),
    ].map((r) => `${r.status} ${r.body.error}`)
    const leagues = (await p.get('/leagues')).body.data
    const webhooksBefore = (await p.get('/webhooks')).body.data
    recordFigure({
      section: 'resource-abuse',
      metric: 'oversized strings: 1 MiB league name / webhook URL / externalId answered; rows written',
      value: `${refused.join(' / ')}; ${leagues.length + webhooksBefore.length}`,
      target: '400 invalid_name / invalid_url / invalid_externalId; 0',
      met:
        refused.join() === '400 invalid_name,400 invalid_url,400 invalid_externalId' &&
        leagues.length + webhooksBefore.length === 0,
    })
    expect(refused).toEqual(['400 invalid_name', '400 invalid_url', '400 invalid_externalId'])
    expect(leagues.length + webhooksBefore.length).toBe(0)

    // Each URL exactly at the maximum, distinct per endpoint.
    const longestUrl = (n: number) => {
      const base = `https://hooks.example.com/${n}/`
      return base + 'p'.repeat(2048 - base.length)
    }
    let endpoints = 0
    for (;;) {
      const res = await p.post('/webhooks', { url: longestUrl(endpoints) })
      if (res.status !== 201) {
        expect([res.status, res.body.error]).toEqual([409, 'endpoint_limit_reached'])
        break
      }
      endpoints++
    }
    const listing = await t.app.inject({
      url: '/api/v1/webhooks',
      headers: { authorization: `Bearer ${p.key}` },
    })
    const bytes = listing.rawPayload.length
    recordFigure({
      section: 'resource-abuse',
      metric:
        'oversized strings: GET /webhooks with every endpoint a source may register at the longest URL (bytes)',
      value: `${bytes} (${endpoints} endpoints)`,
      target: '< 64 KB (once 53 MB)',
      met: bytes < 64 * 1024,
    })
    expect(endpoints).toBe(16)
    expect(bytes).toBeLessThan(64 * 1024)
  })
})
