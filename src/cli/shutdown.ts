// How a long-running command ends: the first SIGTERM or SIGINT runs `stop` (drain, release, close) and the
// process exits 0 once it is done, or 1 if it failed; a second signal exits at once with 1.
import type { DutyLog } from '../duty.js'

export function stopOnSignals(log: DutyLog, stop: () => Promise<void>, stopping: string): void {
  let stopped = false
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopped) {
      log.warn({ signal }, 'second signal: exiting without draining')
      process.exit(1)
    }
    stopped = true
    log.info({ signal }, stopping)
    stop().then(
      () => log.info({}, 'stopped'),
      (err: unknown) => {
        log.error({ err }, 'shutdown failed')
        process.exitCode = 1
      },
    )
  }
  process.on('SIGTERM', onSignal)
  process.on('SIGINT', onSignal)
}
