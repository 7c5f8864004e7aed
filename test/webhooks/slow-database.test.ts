// A database slower than a lease is long: each statement here answers 250 ms late, so leasing a batch
// (the lease and the job load) takes longer than the time a 600 ms lease leaves before its safety margin.
// A dispatcher that counted the lease from when it asked would hand every job back as too near its end,
// lease them again, and never send one; it must deliver them all.
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult } from 'kysely'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startDispatcher, type Dispatcher } from '../../src/webhooks/dispatcher.js'
import { useTestApp } from '../helpers/app.js'
import { testSettings } from './dispatch.js'
import { CA, startReceiver, type Receiver } from './receiver.js'

const LATE_MS = 250

class LateAnswers implements KyselyPlugin {
  transformQuery(args: PluginTransformQueryArgs) {
    return args.node
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<any>> {
    await sleep(LATE_MS)
    return args.result
  }
}

describe('a dispatcher over a database slower than its lease', () => {
  const t = useTestApp()
  let receiver: Receiver
  let dispatcher: Dispatcher | undefined
  beforeEach(async () => {
    receiver = await startReceiver()
  })
  afterEach(async () => {
    await dispatcher?.stop(0)
    await receiver.close()
  })

  it('sends what it leased instead of handing it back round after round', async () => {
    const p = await t.partner()
    expect((await p.post('/webhooks', { url: receiver.url, events: ['game.created'] })).status).toBe(201)
    const league = (await p.post('/leagues', { name: 'slow store' })).body.data
    const games = Array.from({ length: 5 }, (_, i) => ({ startsAt: `2026-07-0${i + 1}T18:00:00Z` }))
    expect((await p.post(`/leagues/${league.id}/games`, { games })).status).toBe(201)
    dispatcher = startDispatcher({
      database: {
        db: t.runtime.database.db.withPlugin(new LateAnswers()),
        listenForWork: (listener, onError) => t.runtime.database.listenForWork(listener, onError),
      },
      settings: testSettings(),
      ca: CA,
      leaseMs: 600,
    })
    expect(await receiver.waitForAccepted(5)).toHaveLength(5)
  })
})
