// `refdesk serve`: the HTTP API in the foreground. SIGTERM or SIGINT stops accepting connections, lets
// in-flight requests finish, closes the database and exits 0; a second signal exits at once with 1.
import { Command } from 'commander'
import { buildHttp, openRuntime } from '../../app.js'
import { loadConfig, type ConfigFlags } from '../../config.js'
import { loggerOptions } from '../../http/logger.js'
import type { App } from '../../http/server.js'
import { describeDatabase } from '../output.js'
import { databaseOption } from '../runtime.js'
import { startDispatcher, type Dispatcher } from '../../webhooks/dispatcher.js'
import { WEBHOOK_ENVIRONMENT } from './worker.js'

export function serveCommand(): Command {
  return new Command('serve')
    .summary('run the Partner API (HTTP) in the foreground')
    .description(
      'Serve the Partner REST API under /api/v1, plus GET /healthz (process up) and GET /readyz (database ' +
        'reachable). Applies pending migrations first. Logs JSON lines to stdout at $LOG_LEVEL (default ' +
        'info), each request with its reqId (also sent back as the Request-Id header). SIGTERM or SIGINT ' +
        'drains in-flight requests and exits 0.',
    )
    .option('--port <n>', 'TCP port; 0 picks a free one (default: $PORT, else 3000)')
    .option('--host <host>', 'interface to bind (default: $HOST, else 0.0.0.0)')
    .addOption(databaseOption())
    .option(
      '--no-worker',
      'do not run the webhook dispatcher in this process (run `refdesk worker` processes instead)',
    )
    .addHelpText('after', WEBHOOK_ENVIRONMENT)
    .action(serve)
}

async function serve(flags: ConfigFlags & { worker?: boolean }): Promise<void> {
  const config = loadConfig({ flags })
  const runtime = await openRuntime(config.databaseUrl)
  let app: App | undefined
  let dispatcher: Dispatcher | undefined
  let draining = false
  try {
    app = await buildHttp(runtime, loggerOptions(config.logLevel))
    // A response written while draining tells keep-alive clients to let go of the socket; otherwise
    // close() would wait for each client's idle timeout after its last in-flight request finished.
    app.addHook('onSend', async (_request, reply) => {
      if (draining) reply.header('connection', 'close')
    })
    await app.listen({ port: config.port, host: config.host })
    if (flags.worker !== false) {
      dispatcher = startDispatcher({
        db: runtime.deps.db,
        settings: config.webhooks,
        databaseUrl: config.databaseUrl,
        log: app.log,
      })
    }
  } catch (error) {
    await app?.close()
    await dispatcher?.stop()
    await runtime.close()
    throw error
  }
  const started = app
  const address = started.server.address()
  const port = typeof address === 'object' && address !== null ? address.port : config.port
  started.log.info(
    {
      host: config.host,
      port,
      database: describeDatabase(config.databaseUrl),
      worker: dispatcher !== undefined,
    },
    `refdesk listening on http://${config.host}:${port}`,
  )
  const stop = (signal: NodeJS.Signals) => {
    if (draining) {
      started.log.warn({ signal }, 'second signal: exiting without draining')
      process.exit(1)
    }
    draining = true
    started.log.info({ signal }, 'shutting down: draining in-flight requests')
    started
      .close()
      .then(() => dispatcher?.stop())
      .then(() => runtime.close())
      .then(
        () => started.log.info('stopped'),
        (error: unknown) => {
          started.log.error({ err: error }, 'shutdown failed')
          process.exitCode = 1
        },
      )
  }
  process.on('SIGTERM', stop)
  process.on('SIGINT', stop)
}
