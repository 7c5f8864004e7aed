// `refdesk worker`: the webhook dispatcher alone, for scale-out beside stateless `serve --no-worker`
// processes. SIGTERM or SIGINT stops leasing, lets in-flight attempts finish (or releases them), exits 0.
import { Command } from 'commander'
import { pino } from 'pino'
import { openRuntime } from '../../app.js'
import { databaseUrlFrom, loadConfig } from '../../config.js'
import { loggerOptions } from '../../http/logger.js'
import { startDispatcher } from '../../webhooks/dispatcher.js'
import { describeDatabase } from '../output.js'
import { databaseOption, type DatabaseFlags } from '../runtime.js'

export const WEBHOOK_ENVIRONMENT = `
Webhook environment:
  REFDESK_WEBHOOK_RETRY_SCHEDULE   delay before each attempt (default 0s,5s,5m,30m,2h,5h,10h,10h)
  REFDESK_WEBHOOK_TIMEOUT_MS       a 2xx must arrive within this (default 15000)
  REFDESK_WEBHOOK_ALLOW_PRIVATE    true, or a comma list of CIDRs: let deliveries reach loopback/private
                                   addresses (development and tests only; default off)
  NODE_EXTRA_CA_CERTS              extra CAs trusted for endpoint TLS, besides the system store`

export function workerCommand(): Command {
  return new Command('worker')
    .summary('run the webhook dispatcher alone in the foreground')
    .description(
      'Deliver webhook events from the outbox: sign, send, retry on the schedule and record every attempt. ' +
        'Any number of workers (and `serve` processes with their built-in dispatcher) can share one database. ' +
        'Applies pending migrations first. Logs JSON lines to stdout at $LOG_LEVEL (default info).',
    )
    .addOption(databaseOption())
    .addHelpText('after', WEBHOOK_ENVIRONMENT)
    .action(async (flags: DatabaseFlags) => {
      const config = loadConfig({ flags })
      const url = databaseUrlFrom(process.env, flags)
      const log = pino(loggerOptions(config.logLevel))
      const runtime = await openRuntime(url)
      const dispatcher = startDispatcher({
        db: runtime.deps.db,
        settings: config.webhooks,
        databaseUrl: url,
        log,
      })
      log.info({ database: describeDatabase(url), owner: dispatcher.owner }, 'refdesk webhook worker started')
      let stopping = false
      const stop = (signal: NodeJS.Signals) => {
        if (stopping) process.exit(1)
        stopping = true
        log.info({ signal }, 'shutting down: finishing in-flight deliveries')
        dispatcher
          .stop()
          .then(() => runtime.close())
          .then(
            () => log.info('stopped'),
            (err: unknown) => {
              log.error({ err }, 'shutdown failed')
              process.exitCode = 1
            },
          )
      }
      process.on('SIGTERM', stop)
      process.on('SIGINT', stop)
    })
}
