// Idempotency-Key over time: a key is kept for 24 hours and a reservation left running by a dead process
// is taken over after 5 minutes, both read from the services' clock, which the test moves.
import { describe, expect, it } from 'vitest'
import { STALE_RESERVATION_MS } from '../../src/domain/partners/idempotency.js'
import { useTestApp, type Partner } from '../helpers/app.js'
import { settableClock } from '../helpers/clock.js'

describe('Idempotency-Key over time', () => {
  const clock = settableClock(new Date('2026-05-01T12:00:00.000Z'))
  const t = useTestApp({ clock })

  const register = async (p: Partner, key: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/webhooks',
      headers: { authorization: `Bearer ${p.key}`, 'idempotency-key': key },
      payload: { url: 'https://hooks.example.com/a' },
    })
    return { status: res.statusCode, body: res.body, replayed: res.headers['idempotent-replayed'] }
  }

  it('forgets a key after 24 hours', async () => {
    clock.set(new Date('2026-05-01T12:00:00.000Z'))
    const p = await t.partner()
    await register(p, 'daily')
    clock.set(new Date('2026-05-02T11:59:00.000Z'))
    expect((await register(p, 'daily')).replayed).toBe('true')
    clock.set(new Date('2026-05-02T12:00:01.000Z'))
    expect((await register(p, 'daily')).replayed).toBeUndefined()
    expect((await p.get('/webhooks')).body.data).toHaveLength(2)
  })

  it('takes over a reservation left running by a dead process after 5 minutes', async () => {
    clock.set(new Date('2026-05-01T12:00:00.000Z'))
    const p = await t.partner()
    await register(p, 'crashed')
    await t.deps.db
      .updateTable('idempotency_keys')
      .set({ status: 'running', response_status: null, response_body: null })
      .where('idempotency_key', '=', 'crashed')
      .execute()
    expect((await register(p, 'crashed')).body).toBe('{"error":"idempotency_key_in_use"}')
    clock.advance(STALE_RESERVATION_MS + 1000)
    const takeover = await register(p, 'crashed')
    expect([takeover.status, takeover.replayed]).toEqual([201, undefined])
    expect((await p.get('/webhooks')).body.data).toHaveLength(2)
  })
})
