// The one shape of a background duty (webhook delivery, notification mail, busy-calendar refresh, and the
// clock-driven work to come): a function run one at a time. Wake-ups from outside (a LISTEN, the work it
// started, a moved clock) coalesce: one during a run asks for one run more. A run answers when the duty is
// next due; its alarm rings then, measured on the duty's clock (a test's, or a test clock), and after the
// poll interval at the latest, which is also how soon a failed run, logged, is tried again. `startDuties` in
// app.ts starts every duty of `serve` and `refdesk worker`.
import { randomBytes } from 'node:crypto'
import { hostname } from 'node:os'
import type { Clock } from './clock.js'

/** Where duties log (pino's shape: `serve` hands the server's logger, `refdesk worker` its own). */
export interface DutyLog {
  debug?(obj: object, msg: string): void
  info(obj: object, msg: string): void
  warn(obj: object, msg: string): void
  error(obj: object, msg: string): void
}

export const silentLog: DutyLog = { info() {}, warn() {}, error() {} }

/** One timer that keeps the earliest of the times it is armed for: a duty's next due time or poll. */
export class Alarm {
  private timer: NodeJS.Timeout | undefined
  /**
   * When the timer fires, in real time. Earlier is decided there rather than on the clock: a clock moved
   * ahead (a test clock) leaves a timer armed before the move firing late, and a time armed after it for
   * the same moment of the clock must still replace that timer.
   */
  private firesAt = Infinity
  private stopped = false

  constructor(
    private readonly clock: Clock,
    private readonly ring: () => void,
  ) {}

  /** Rings at `at` (epoch ms, on the clock) unless it is already set to ring earlier. */
  arm(at: number): void {
    if (this.stopped) return
    const wait = Math.max(0, at - this.clock.now())
    const firesAt = Date.now() + wait
    if (firesAt >= this.firesAt) return
    clearTimeout(this.timer)
    this.firesAt = firesAt
    this.timer = setTimeout(() => {
      this.firesAt = Infinity
      this.ring()
    }, wait)
  }

  stop(): void {
    this.stopped = true
    clearTimeout(this.timer)
  }
}

/** What a run knows of its duty. */
export interface DutyRun {
  /** The duty's lease owner: the rows it takes carry it, so another process never works them meanwhile. */
  readonly owner: string
  /**
   * Whether a wake-up came since the run began or this last answered, and forgets it: a run that goes
   * round in a loop of its own takes it as a reason for one round more instead of a run more.
   */
  again(): boolean
  /** The duty is stopping: a run that loops ends its loop. */
  readonly stopped: boolean
}

export interface DutySpec {
  /** What it does, for the log: a failed run logs `<name> failed`. */
  readonly name: string
  /** One run; answers when the duty is next due (epoch ms on its clock), or nothing: the poll decides. */
  run(duty: DutyRun): Promise<number | undefined | void>
  /** The longest wait between runs, and the wait after a failed one. */
  readonly pollMs: number
  /** Called when the alarm rings, before the run it asks for (the dispatcher: look at every endpoint). */
  readonly onAlarm?: () => void
}

export interface Duty {
  readonly owner: string
  /** Something may be due: run now, or once more after the run in progress. */
  wake(): void
  /** Be due by `at` (epoch ms on the clock) at the latest: work a run started knows its next time. */
  dueBy(at: number): void
  /** Resolves once no run is in progress or asked for (tests: wake, then wait for the outcome). */
  idle(): Promise<void>
  /** No run starts any more; resolves once the one in progress is over. */
  stop(): Promise<void>
}

/** Starts a duty: its first run comes at once (after the caller's synchronous code), then as it is due. */
export function startDuty(spec: DutySpec, options: { clock: Clock; log: DutyLog }): Duty {
  const { clock, log } = options
  // Host and process name the holder for an operator; the random part tells apart the duties of a process.
  const owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`
  let running: Promise<void> | undefined
  let woken = false
  let stopped = false
  const alarm = new Alarm(clock, () => {
    spec.onAlarm?.()
    wake()
  })
  const run: DutyRun = {
    owner,
    again() {
      const again = woken
      woken = false
      return again
    },
    get stopped() {
      return stopped
    },
  }
  const once = async () => {
    woken = false
    try {
      const due = await spec.run(run)
      alarm.arm(Math.min(due ?? Infinity, clock.now() + spec.pollMs))
    } catch (err) {
      log.error({ err }, `${spec.name} failed`)
      alarm.arm(clock.now() + spec.pollMs)
    }
  }
  const wake = () => {
    if (stopped) return
    if (running) {
      woken = true
      return
    }
    // The run starts on the next tick, so `running` is set before any of its code can wake it again.
    running = Promise.resolve()
      .then(once)
      .finally(() => {
        running = undefined
        if (woken) wake()
      })
  }
  const idle = async () => {
    while (running) await running
  }
  wake()
  return {
    owner,
    wake,
    dueBy: (at) => alarm.arm(at),
    idle,
    async stop() {
      stopped = true
      alarm.stop()
      await idle()
    },
  }
}
