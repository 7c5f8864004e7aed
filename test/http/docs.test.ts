// GET /docs without a key: the reference page and its script come from this server, under a policy that
// keeps the page on its own origin (browser/api-reference.test.ts drives it in Chromium).
import { describe, expect, it } from 'vitest'
import { useTestApp } from '../helpers/app.js'

describe('GET /docs', () => {
  const t = useTestApp()

  it('serves the reference page, its script and the document without a key', async () => {
    expect((await t.app.inject({ url: '/docs' })).headers.location).toBe('/docs/')
    const page = await t.app.inject({ url: '/docs/' })
    expect(page.statusCode).toBe(200)
    expect(page.headers['content-type']).toMatch(/^text\/html/)
    expect(page.headers['content-security-policy']).toContain("connect-src 'self'")
    expect(page.headers['content-security-policy']).toContain("default-src 'self'")
    expect(page.body).toContain('<script src="js/scalar.js">')
    // Nothing is fetched from elsewhere: no CDN script, no font service.
    expect(page.body).not.toMatch(/src="https?:/)
    expect(page.body).toContain('"withDefaultFonts": false')
    const script = await t.app.inject({ url: '/docs/js/scalar.js' })
    expect([script.statusCode, script.headers['content-type']]).toEqual([
      200,
      'application/javascript; charset=utf-8',
    ])
    const doc = await t.app.inject({ url: '/docs/openapi.json' })
    expect(doc.json().info.title).toBe('RefDesk Partner API')
  })
})
