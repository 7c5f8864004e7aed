// Emails, tokens and cookies never reach the logs, even at trace level: the sign-in link's and the calendar
// feed's tokens travel in URLs, so request logs drop /app query strings.
import { Writable } from 'node:stream'
import { expect, it } from 'vitest'
import { buildHttp, openRuntime } from '../../src/app.js'
import { appSettings } from '../../src/config.js'
import { loggerOptions } from '../../src/logger.js'
import type { Mail } from '../../src/net/smtp.js'
import { isPostgres, testDatabaseUrl } from '../helpers/app.js'
import { seedUser } from '../helpers/fixtures.js'
import { afterReplyQueue } from '../../src/web/after-reply.js'
import { Visitor } from './browser-like.js'

it('no email, token or cookie appears in any log line', async () => {
  let logs = ''
  const stream = new Writable({
    write(chunk, _encoding, done) {
      logs += chunk
      done()
    },
  })
  const mail: Mail[] = []
  // The sign-in mail is sent after the reply: the visitor waits for that deferred work after each answer.
  const afterReply = afterReplyQueue(() => undefined)
  const runtime = await openRuntime(await testDatabaseUrl(), { migrate: !isPostgres() })
  const app = await buildHttp(
    runtime,
    { ...loggerOptions('trace'), stream },
    {
      web: {
        settings: appSettings({ REFDESK_PUBLIC_URL: 'http://refdesk.test' }),
        mailer: { send: async (m) => void mail.push(m), close: () => undefined },
        afterReply,
      },
    },
  )
  try {
    await seedUser(runtime.deps.db, { email: 'secret.person@example.com' })
    const visitor = new Visitor(app, () => afterReply.idle())
    await visitor.get('/app/')
    await visitor.post('/app/sign-in', { email: 'secret.person@example.com' })
    await visitor.post('/app/sign-in', { email: 'nobody.else@example.com' })
    const token = /token=([\w-]+)/.exec(mail[0]!.text)![1]!
    await visitor.get(`/app/sign-in/link?token=${token}`)
    await visitor.get(`/app/sign-in/linkk?token=${token}`)
    await visitor.get(`//app/sign-in/link?token=${token}`)
    await visitor.post('/app/sign-in/link', { token })
    const session = visitor.cookies.get('refdesk_session')!
    await visitor.get('/app/schedule') // a form token of the new session: CSRF tokens are bound to it
    const made = await visitor.post('/app/calendar')
    const feed = /calendar\.ics\?token=([\w-]+)/.exec(made.body)![1]!
    await visitor.get(`/app/calendar.ics?token=${feed}`)
    await visitor.post('/app/sign-out', { _csrf: 'forged' })
    await visitor.post('/app/sign-out')

    expect(logs).toContain('incoming request')
    expect(logs).toContain('"url":"/app/sign-in/link"')
    const secrets = [
      'secret.person',
      'nobody.else',
      token,
      feed,
      visitor.csrf,
      session,
      ...visitor.cookies.values(),
      'refdesk_session=',
      'refdesk_csrf=',
    ]
    for (const secret of secrets) expect(logs).not.toContain(secret)
  } finally {
    await app.close()
    await runtime.close()
  }
})
