// `refdesk serve`: the HTTP API in the foreground. SIGTERM or SIGINT stops accepting connections, lets
// in-flight requests finish, closes the database and exits 0; a second signal exits at once with 1.
import { Command } from 'commander'
import type { FastifyInstance } from 'fastify'
import { buildHttp, openRuntime, serveMetrics, startDuties, type App, type Duties } from '../../app.js'
import {
  describeDatabase,
  flagHelp,
  loadConfig,
  SETTING,
  settingsHelp,
  type ConfigFlags,
} from '../../config.js'
import { loggerOptions } from '../../logger.js'
import { databaseOption } from '../runtime.js'
import { stopOnSignals } from '../shutdown.js'

export function serveCommand(): Command {
  return new Command('serve')
    .summary('run the Partner API (HTTP) in the foreground')
    .description(
      'Serve the Partner REST API under /api/v1, the app for officials under /app/, plus GET /healthz (process up) and GET /readyz (database ' +
        'reachable). Applies pending migrations first. Logs JSON lines to stdout at $LOG_LEVEL (default ' +
        'info), each request with its reqId (also sent back as the Request-Id header). SIGTERM or SIGINT ' +
        'drains in-flight requests and exits 0.',
    )
    .option('--port <n>', flagHelp(SETTING.port))
    .option('--host <host>', flagHelp(SETTING.host))
    .addOption(databaseOption())
    .option(
      '--no-worker',
      'do not run the webhook dispatcher in this process (run `refdesk worker` processes instead)',
    )
    .addHelpText('after', settingsHelp('serve'))
    .action(serve)
}

async function serve(flags: ConfigFlags & { worker?: boolean }): Promise<void> {
  const config = loadConfig({ flags })
  const runtime = await openRuntime(config.databaseUrl, {
    limits: config.limits,
    webhookPolicy: config.webhooks.policy,
    outbound: { timeoutMs: config.webhooks.timeoutMs },
    checkpoints: 'background',
  })
  let app: App | undefined
  let metrics: FastifyInstance | undefined
  let duties: Duties | undefined
  let draining = false
  try {
    app = await buildHttp(runtime, loggerOptions(config.logLevel), {
      mcpAllowedOrigins: config.mcpAllowedOrigins,
      mcpMaxBatch: config.mcpMaxBatch,
      http: config.http,
      web: { settings: config.app },
      publicUrl: config.publicUrl,
      metrics: config.metrics,
      trustProxy: config.trustProxy,
    })
    // A response written while draining tells keep-alive clients to let go of the socket; otherwise
    // close() would wait for each client's idle timeout after its last in-flight request finished.
    app.addHook('onSend', async (_request, reply) => {
      if (draining) reply.header('connection', 'close')
    })
    await app.listen({ port: config.port, host: config.host })
    if (config.metrics.port !== undefined) {
      metrics = await serveMetrics(runtime, {
        ...config.metrics,
        port: config.metrics.port,
        host: config.host,
      })
    }
    if (flags.worker !== false) duties = startDuties(runtime, config, app.log)
  } catch (error) {
    await app?.close()
    await metrics?.close()
    await duties?.stop()
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
      worker: duties !== undefined,
      publicUrl: config.publicUrl,
      metrics: metricsAddress(metrics, port, config.metrics),
    },
    `refdesk listening on http://${config.host}:${port}`,
  )
  stopOnSignals(
    started.log,
    async () => {
      draining = true
      await started.close()
      await metrics?.close()
      await duties?.stop()
      await runtime.close()
    },
    'shutting down: draining in-flight requests',
  )
}

/** Where /metrics answers, for the start-up log line. */
function metricsAddress(
  server: FastifyInstance | undefined,
  servicePort: number,
  settings: { token?: string },
): string {
  if (server === undefined && settings.token === undefined)
    return 'closed (set REFDESK_METRICS_TOKEN or REFDESK_METRICS_PORT)'
  const address = server?.server.address()
  const port = typeof address === 'object' && address !== null ? address.port : servicePort
  return `port ${port}, GET /metrics`
}
