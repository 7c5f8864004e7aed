// /docs in a real browser (Debian's Chromium driven by playwright-core): the reference loads from this
// server alone, lists every operation, and sends a request to the API from the page.
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildHttp, openRuntime, type App, type Runtime } from '../src/app.js'
import { issueKey } from '../src/domain/partners/api-keys.js'
import { OPERATIONS } from '../src/operations/index.js'
import { freePort, launchChromium } from './chromium.js'

describe('the API reference at /docs', () => {
  let runtime: Runtime
  let app: App
  let browser: Browser
  let origin: string
  const answered: string[] = []

  beforeAll(async () => {
    runtime = await openRuntime('file::memory:')
    const port = await freePort()
    origin = `http://127.0.0.1:${port}`
    app = await buildHttp(runtime, undefined, { publicUrl: origin })
    app.addHook('onResponse', async (request, reply) => {
      answered.push(`${request.method} ${request.url} ${reply.statusCode}`)
    })
    await app.listen({ port, host: '127.0.0.1' })
    browser = await launchChromium()
  })
  afterAll(async () => {
    await browser?.close()
    await app?.close()
    await runtime?.close()
  })

  it('loads from this server alone, lists every operation, and sends a request to the API', async () => {
    const { key } = await issueKey(runtime.deps, { source: 'docs-test' })
    const page = await browser.newPage()
    const elsewhere: string[] = []
    const problems: string[] = []
    await page.route('**/*', (route) => {
      const url = new URL(route.request().url())
      if (url.origin === origin || url.protocol === 'data:' || url.protocol === 'blob:')
        return route.continue()
      elsewhere.push(url.href)
      return route.abort()
    })
    page.on('console', (message) => {
      if (message.type() === 'error' && !message.text().includes('404')) problems.push(message.text())
    })
    page.on('pageerror', (error) => problems.push(error.message))

    await page.goto(`${origin}/docs`)
    await page.getByText('RefDesk Partner API').first().waitFor()
    const navigation = await page.getByRole('navigation').first().innerText()
    const summaries = [
      ...OPERATIONS.map((o) => o.summary),
      'Authenticated smoke test and self-describing index',
    ]
    expect(summaries.filter((summary) => !navigation.includes(summary))).toEqual([])

    // Try the index from the page: the request editor, the key, Send.
    await page
      .getByRole('button', { name: /Test Request/ })
      .first()
      .click()
    const dialog = page.getByRole('dialog')
    await dialog.getByPlaceholder('Token').fill(key)
    await dialog.getByRole('button', { name: /^Send get request/ }).click()
    await dialog.getByText('"version"').first().waitFor()
    expect(answered).toContain('GET /api/v1 200')

    expect(elsewhere).toEqual([])
    expect(problems).toEqual([])
    await page.close()
  })
})
