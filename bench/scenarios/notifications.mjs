// notifications (issue 25): two figures.
// 1. A partner's 500-game reschedule (an upsert-update moving every start) of games held by 100 officials,
//    which queues a `changed` mail per held position inside the import's transaction. Baseline: the same
//    reschedule of a league whose games no one holds. Target: ≤ 1.5.
// 2. The sender's rate to a local SMTP sink (smtp-server on loopback, accepting every message), from the
//    moment it starts until every due notification has arrived. Baseline: nodemailer's pooled transport
//    sending as many plain messages over as many connections straight to the same sink. Target: ≥ 200
//    mails per second.
import nodemailer from 'nodemailer'
import { SMTPServer } from 'smtp-server'
import { Pool } from 'undici'
import { startNotifications } from '../../dist/app.js'
import { gameItem, startService } from '../lib/setup.mjs'
import { entry, summary, timed } from '../lib/stats.mjs'

const BATCH = 500
const OFFICIALS = 100
const CONCURRENCY = 8
const HOUR = 3_600_000
const FIRST_START = Date.UTC(2027, 4, 1)

/** The batch, every game starting `shiftDays` later than the first import. */
const batch = (prefix, shiftDays) =>
  JSON.stringify({
    games: Array.from({ length: BATCH }, (_, i) =>
      gameItem(`${prefix}-${i}`, i, {
        startsAt: new Date(FIRST_START + i * HOUR + shiftDays * 24 * HOUR).toISOString(),
      }),
    ),
  })

async function startSink() {
  let received = 0
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      stream.on('data', () => {})
      stream.on('end', () => {
        received++
        callback()
      })
    },
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `smtp://127.0.0.1:${server.server.address().port}`,
    received: () => received,
    close: () => new Promise((resolve) => server.close(resolve)),
  }
}

async function until(condition) {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5))
}

/** Mails per second from `send` starting until the sink has `count` more messages. */
async function rate(sink, count, send) {
  const before = sink.received()
  const { ms, result } = await timed(async () => {
    const stop = await send()
    await until(() => sink.received() - before >= count)
    return stop
  })
  await result?.()
  return (count / ms) * 1000
}

export async function notificationsScenario({ databaseUrl, rounds }) {
  const service = await startService(databaseUrl, 'notifications')
  const pool = new Pool(service.origin, { connections: 1 })
  const sink = await startSink()
  try {
    const held = await service.api.ok('POST', '/leagues', { name: 'Held' })
    const bare = await service.api.ok('POST', '/leagues', { name: 'Bare' })
    const officials = []
    for (let i = 0; i < OFFICIALS; i++) {
      const official = await service.api.ok('POST', `/leagues/${held.id}/officials`, {
        externalId: `ref-${i}`,
        name: `Ref ${i}`,
        email: `ref-${i}@bench.example`,
      })
      officials.push(official.userId)
    }
    const post = async (leagueId, body) => {
      const res = await pool.request({
        method: 'POST',
        path: `/api/v1/leagues/${leagueId}/games`,
        headers: { authorization: service.authorization, 'content-type': 'application/json' },
        body,
      })
      const answer = await res.body.text()
      if (res.statusCode !== 201) throw new Error(`notifications: ${res.statusCode} ${answer}`)
      return JSON.parse(answer).data.created
    }
    const heldGames = await post(held.id, batch('held', 0))
    await post(bare.id, batch('bare', 0))
    for (const [i, game] of heldGames.entries()) {
      await service.api.ok('POST', `/games/${game.id}/assign`, { userId: officials[i % OFFICIALS] })
    }

    const heldMs = []
    const bareMs = []
    for (let r = -1; r < rounds; r++) {
      const shift = r + 2
      const heldRound = await timed(() => post(held.id, batch('held', shift)))
      const bareRound = await timed(() => post(bare.id, batch('bare', shift)))
      if (r < 0) continue
      heldMs.push(heldRound.ms)
      bareMs.push(bareRound.ms)
    }

    const db = service.runtime.deps.db
    const { due } = await db
      .selectFrom('notifications')
      .select((eb) => eb.fn.countAll().as('due'))
      .where('status', '=', 'pending')
      .where('due_at', '<=', new Date().toISOString())
      .executeTakeFirstOrThrow()
    const count = Number(due)
    if (count < BATCH * (rounds + 1)) throw new Error(`notifications: only ${count} due`)
    const sent = await rate(sink, count, async () => {
      const notifier = startNotifications(service.runtime, {
        smtpUrl: sink.url,
        from: 'RefDesk <refdesk@bench.example>',
        publicUrl: 'https://refdesk.bench.example',
        retrySchedule: [0, 60_000],
        concurrency: CONCURRENCY,
        pollIntervalMs: 60_000,
        timeoutMs: 5000,
      })
      return () => notifier.stop()
    })
    const raw = await rate(sink, count, async () => {
      const transport = nodemailer.createTransport({ url: sink.url, pool: true, maxConnections: CONCURRENCY })
      for (let i = 0; i < count; i++) {
        transport
          .sendMail({
            from: 'RefDesk <refdesk@bench.example>',
            to: `ref-${i % OFFICIALS}@bench.example`,
            subject: 'Changed: soccer',
            text: 'The game moved.',
            html: '<p>The game moved.</p>',
          })
          .catch((error) => console.error('notifications: raw send failed', error))
      }
      return () => transport.close()
    })

    return [
      entry({
        name: 'notifications',
        metric: `ms per ${BATCH}-game reschedule held by ${OFFICIALS} officials (baseline: none held)`,
        value: summary(heldMs),
        baseline: summary(bareMs),
        target: '<= 1.5',
        check: (ratio) => ratio <= 1.5,
        unit: 'ms',
      }),
      entry({
        name: 'notifications',
        metric: `mails per second, ${count} due (baseline: nodemailer straight to the sink)`,
        value: summary([sent]),
        baseline: summary([raw]),
        target: '>= 200/s',
        check: (_ratio, value) => value >= 200,
        unit: '/s',
      }),
    ]
  } finally {
    await pool.close()
    await sink.close()
    await service.close()
  }
}
