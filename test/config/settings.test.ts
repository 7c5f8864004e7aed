// The settings this surface added: the public URL the document and /docs name, where /metrics is served
// and with what token, and the HTTP edge's time-outs, connection cap, rate limit and MCP batch cap.
import { describe, expect, it } from 'vitest'
import { ConfigError, DEFAULT_MCP_MAX_BATCH, loadConfig } from '../../src/config.js'
import { DEFAULT_HTTP_SETTINGS } from '../../src/http/settings.js'

describe('REFDESK_PUBLIC_URL and the metrics settings', () => {
  const load = (env: NodeJS.ProcessEnv, flags = {}) => loadConfig({ env, flags })

  it('defaults the public URL to localhost on the service port, and keeps a given one without its slash', () => {
    expect(load({}).publicUrl).toBe('http://localhost:3000')
    expect(load({ PORT: '8080' }).publicUrl).toBe('http://localhost:8080')
    expect(load({ REFDESK_PUBLIC_URL: 'https://api.acme.example/refdesk/' }).publicUrl).toBe(
      'https://api.acme.example/refdesk',
    )
  })

  it.each(['not a url', 'ftp://api.acme.example', 'https://api.acme.example/?x=1'])(
    'refuses the public URL %j',
    (value) => {
      expect(() => load({ REFDESK_PUBLIC_URL: value })).toThrow(ConfigError)
    },
  )

  it('reads the metrics token and port, neither by default (/metrics closed)', () => {
    expect(load({}).metrics).toEqual({})
    expect(load({ REFDESK_METRICS_TOKEN: 't0k', REFDESK_METRICS_PORT: '9464' }).metrics).toEqual({
      token: 't0k',
      port: 9464,
    })
    expect(() => load({ REFDESK_METRICS_PORT: '3000' })).toThrow('must differ from the service port')
    expect(() => load({ REFDESK_METRICS_PORT: 'nine' })).toThrow(ConfigError)
  })
})

describe('the HTTP edge’s settings', () => {
  const load = (env: NodeJS.ProcessEnv) => loadConfig({ env })

  it('bound every socket and key by default, generously', () => {
    expect(load({}).http).toEqual(DEFAULT_HTTP_SETTINGS)
    expect(load({}).mcpMaxBatch).toBe(DEFAULT_MCP_MAX_BATCH)
    for (const value of Object.values(DEFAULT_HTTP_SETTINGS)) expect(value).toBeGreaterThan(0)
  })

  it('reads each from its variable; a rate of 0 turns the limit off', () => {
    const config = load({
      REFDESK_REQUEST_TIMEOUT_MS: '20000',
      REFDESK_HEADERS_TIMEOUT_MS: '5000',
      REFDESK_IDLE_TIMEOUT_MS: '15000',
      REFDESK_KEEP_ALIVE_TIMEOUT_MS: '2000',
      REFDESK_MAX_CONNECTIONS: '500',
      REFDESK_RATE_LIMIT: '0',
      REFDESK_RATE_BURST: '50',
      REFDESK_MCP_MAX_BATCH: '3',
    })
    expect(config.http).toEqual({
      requestTimeoutMs: 20_000,
      headersTimeoutMs: 5_000,
      idleTimeoutMs: 15_000,
      keepAliveTimeoutMs: 2_000,
      maxConnections: 500,
      rateLimitPerSecond: 0,
      rateLimitBurst: 50,
    })
    expect(config.mcpMaxBatch).toBe(3)
  })

  it('keeps the header time-out within a shorter request time-out, and refuses one past it', () => {
    expect(load({ REFDESK_REQUEST_TIMEOUT_MS: '4000' }).http.headersTimeoutMs).toBe(4000)
    expect(() => load({ REFDESK_REQUEST_TIMEOUT_MS: '4000', REFDESK_HEADERS_TIMEOUT_MS: '5000' })).toThrow(
      ConfigError,
    )
  })

  it.each([
    ['REFDESK_MAX_CONNECTIONS', '0'],
    ['REFDESK_RATE_LIMIT', '-1'],
    ['REFDESK_RATE_BURST', '0'],
    ['REFDESK_MCP_MAX_BATCH', 'ten'],
    ['REFDESK_REQUEST_TIMEOUT_MS', '1.5'],
  ])('refuses %s=%s', (name, value) => {
    expect(() => load({ [name]: value })).toThrow(ConfigError)
  })
})
