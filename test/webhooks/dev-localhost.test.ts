// REFDESK_WEBHOOK_DEV_LOCALHOST: off by default (http:// refused at registration, loopback refused at
// delivery); on, an http:// loopback endpoint registers and a plain local HTTP receiver gets its
// deliveries, while http:// anywhere else is still refused. Also REFDESK_WEBHOOK_DISABLE_AFTER's forms.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../src/config.js'
import { authenticate } from '../../src/domain/partners/api-keys.js'
import { ApiError } from '../../src/domain/core/errors.js'
import { createWebhook } from '../../src/domain/partners/webhook-endpoints.js'
import { refusalReason } from '../../src/net/address-guard.js'
import { DEFAULT_DISABLE_AFTER_MS } from '../../src/webhooks/settings.js'
import { useTestApp } from '../helpers/app.js'
import { useDispatchers } from './dispatch.js'
import { startReceiver, type Receiver } from './receiver.js'

describe('developing on localhost', () => {
  const t = useTestApp()
  const dispatcher = useDispatchers(t)
  let receiver: Receiver
  beforeEach(async () => {
    receiver = await startReceiver({ plain: true })
  })
  afterEach(async () => {
    await receiver.close()
  })

  it('is off by default: the setting, the address policy and registration all refuse', async () => {
    const config = loadConfig({ env: {} })
    expect(config.limits.webhookDevLocalhost).toBe(false)
    expect(refusalReason('127.0.0.1', config.webhooks.policy)).toBe('loopback')
    const p = await t.partner()
    for (const url of [receiver.url, 'http://localhost:8080/h', 'http://[::1]:8080/h'])
      expect(await p.post('/webhooks', { url })).toMatchObject({
        status: 400,
        body: { error: 'https_url_required' },
      })
    expect((await p.get('/webhooks')).body.data).toEqual([])
  })

  it('accepts http:// on loopback only once on, and delivers to a plain HTTP receiver', async () => {
    const config = loadConfig({ env: { REFDESK_WEBHOOK_DEV_LOCALHOST: 'true' } })
    expect(config.limits.webhookDevLocalhost).toBe(true)
    expect(refusalReason('127.0.0.1', config.webhooks.policy)).toBeNull()
    expect(refusalReason('::1', config.webhooks.policy)).toBeNull()
    expect(refusalReason('10.0.0.1', config.webhooks.policy)).toBe('private')

    const p = await t.partner()
    const caller = (await authenticate(t.deps, `Bearer ${p.key}`))!
    const deps = { ...t.deps, limits: config.limits }
    for (const url of ['http://hooks.example.com/h', 'http://10.0.0.1/h', 'http://127.0.0.1.example.com/h'])
      await expect(createWebhook(deps, caller, { url })).rejects.toEqual(new ApiError('https_url_required'))
    const endpoint = await createWebhook(deps, caller, { url: receiver.url })
    expect(endpoint.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/hooks$/)

    await dispatcher({ policy: config.webhooks.policy })
    expect((await p.post(`/webhooks/${endpoint.id}/test`, { event: 'game.created' })).status).toBe(202)
    const [got] = await receiver.waitForAccepted(1)
    expect(got!.json).toMatchObject({ event: 'game.created', test: true })
  })

  it.each([
    [undefined, DEFAULT_DISABLE_AFTER_MS],
    ['120', 120 * 3_600_000],
    ['5d', 5 * 86_400_000],
    ['36h', 36 * 3_600_000],
  ])('reads REFDESK_WEBHOOK_DISABLE_AFTER=%j', (value, ms) => {
    const env = value === undefined ? {} : { REFDESK_WEBHOOK_DISABLE_AFTER: value }
    expect(loadConfig({ env }).webhooks.disableAfterMs).toBe(ms)
  })

  it.each([
    ['REFDESK_WEBHOOK_DISABLE_AFTER', 'soon'],
    ['REFDESK_WEBHOOK_DISABLE_AFTER', '0'],
    ['REFDESK_WEBHOOK_DISABLE_AFTER', '1d,2d'],
    ['REFDESK_WEBHOOK_DEV_LOCALHOST', 'yes please'],
  ])('refuses %s=%j', (name, value) => {
    expect(() => loadConfig({ env: { [name]: value } })).toThrow(ConfigError)
  })
})
