// `refdesk worker`: the webhook dispatcher alone, for scale-out beside stateless `serve --no-worker`
// processes. SIGTERM or SIGINT stops leasing, lets in-flight attempts finish (or releases them), exits 0.
import { Command } from 'commander'
import { pino } from 'pino'
import { openRuntime, serveMetrics, startDuties } from '../../app.js'
import { describeDatabase, loadConfig, settingsHelp, type ConfigFlags } from '../../config.js'
import { loggerOptions } from '../../logger.js'
import { databaseOption } from '../runtime.js'
import { stopOnSignals } from '../shutdown.js'

export function workerCommand(): Command {
  return new Command('worker')
    .summary('run the webhook dispatcher alone in the foreground')
    .description(
      'Deliver webhook events from the outbox: sign, send, retry on the schedule and record every attempt. ' +
        'Any number of workers (and `serve` processes with their built-in dispatcher) can share one database. ' +
        'Applies pending migrations first. Logs JSON lines to stdout at $LOG_LEVEL (default info).',
    )
    .addOption(databaseOption())
    .addHelpText('after', settingsHelp('worker'))
    .action(async (flags: ConfigFlags) => {
      const config = loadConfig({ flags })
      const log = pino(loggerOptions(config.logLevel))
      // A worker only delivers what a server wrote: a database it would have to create holds nothing.
      const runtime = await openRuntime(config.databaseUrl, {
        create: false,
        webhookPolicy: config.webhooks.policy,
        outbound: { timeoutMs: config.webhooks.timeoutMs },
        checkpoints: 'background',
      })
      const { port, token } = config.metrics
      const metrics =
        port === undefined ? undefined : await serveMetrics(runtime, { token, port, host: config.host })
      const duties = startDuties(runtime, config, log)
      log.info(
        {
          database: describeDatabase(config.databaseUrl),
          owner: duties.owner,
          notifications: config.notifications.smtpUrl ? 'SMTP' : 'kept unsent (set REFDESK_SMTP_URL)',
          metrics: metrics ? `port ${port}, GET /metrics` : 'off (set REFDESK_METRICS_PORT)',
        },
        'refdesk webhook worker started',
      )
      stopOnSignals(
        log,
        async () => {
          await duties.stop()
          await metrics?.close()
          await runtime.close()
        },
        'shutting down: finishing in-flight deliveries',
      )
    })
}
