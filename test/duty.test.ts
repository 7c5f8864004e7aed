// The shape every background duty runs in: its alarm, one run at a time with wake-ups coalesced, the due
// time a run answers, the poll, the failure log and the stop. Timers are faked; the clock is theirs.
import { hostname } from 'node:os'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { systemClock, type Clock } from '../src/clock.js'
import { Alarm, startDuty, type Duty, type DutyLog, type DutyRun, type DutySpec } from '../src/duty.js'

describe('Alarm', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('keeps the earliest time it is armed for and rings once', () => {
    const rang = vi.fn()
    const alarm = new Alarm(systemClock, rang)
    const now = Date.now()
    alarm.arm(now + 1_000)
    alarm.arm(now + 5_000)
    alarm.arm(now + 200)
    vi.advanceTimersByTime(199)
    expect(rang).not.toHaveBeenCalled()
    vi.advanceTimersByTime(1)
    expect(rang).toHaveBeenCalledTimes(1)
    vi.advanceTimersByTime(10_000)
    expect(rang).toHaveBeenCalledTimes(1)
  })

  it('rings no more once stopped', () => {
    const rang = vi.fn()
    const alarm = new Alarm(systemClock, rang)
    alarm.arm(Date.now() + 100)
    alarm.stop()
    alarm.arm(Date.now() + 50)
    vi.advanceTimersByTime(1_000)
    expect(rang).not.toHaveBeenCalled()
  })

  it('rings on time for a moment armed again after its clock moved ahead', () => {
    let offset = 0
    const clock: Clock = { now: () => Date.now() + offset }
    const rang = vi.fn()
    const alarm = new Alarm(clock, rang)
    const at = clock.now() + 10_000
    alarm.arm(at)
    offset += 8_000
    alarm.arm(at)
    vi.advanceTimersByTime(1_999)
    expect(rang).not.toHaveBeenCalled()
    vi.advanceTimersByTime(1)
    expect(rang).toHaveBeenCalledTimes(1)
  })
})

interface HeldRun {
  readonly duty: DutyRun
  /** Ends the run, answering a due time or nothing, or failing with the error. */
  finish(answer?: number | Error): void
}

/** Every run not finished yet, of every test: ended after it, so that its duty can stop. */
const unfinished = new Set<HeldRun>()

/** Runs the test ends when it likes: each call of `run` waits for its `finish()`. */
function heldRuns() {
  const runs: HeldRun[] = []
  const run = (duty: DutyRun) =>
    new Promise<number | undefined>((resolve, reject) => {
      const held: HeldRun = {
        duty,
        finish(answer) {
          unfinished.delete(held)
          if (answer instanceof Error) reject(answer)
          else resolve(answer)
        },
      }
      unfinished.add(held)
      runs.push(held)
    })
  return { runs, run }
}

describe('startDuty', () => {
  const log = { info: vi.fn(), warn: vi.fn(), error: vi.fn() } satisfies DutyLog
  const started: Duty[] = []
  const start = (spec: Partial<DutySpec> & Pick<DutySpec, 'run'>) => {
    const duty = startDuty({ name: 'test duty', pollMs: 60_000, ...spec }, { clock: systemClock, log })
    started.push(duty)
    return duty
  }
  beforeEach(() => {
    vi.useFakeTimers()
    log.error.mockClear()
  })
  afterEach(async () => {
    const stopping = started.splice(0).map((d) => d.stop())
    for (const held of unfinished) held.finish()
    await Promise.all(stopping)
    vi.useRealTimers()
  })

  it('runs at once, then when its run says it is next due', async () => {
    const { runs, run } = heldRuns()
    start({ run })
    await vi.advanceTimersByTimeAsync(0)
    expect(runs).toHaveLength(1)
    runs[0]!.finish(Date.now() + 5_000)
    await vi.advanceTimersByTimeAsync(4_999)
    expect(runs).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(runs).toHaveLength(2)
  })

  it('runs again after the poll interval when its run names no time, or a later one', async () => {
    const { runs, run } = heldRuns()
    start({ run, pollMs: 1_000 })
    await vi.advanceTimersByTimeAsync(0)
    runs[0]!.finish()
    await vi.advanceTimersByTimeAsync(1_000)
    expect(runs).toHaveLength(2)
    runs[1]!.finish(Date.now() + 3_600_000)
    await vi.advanceTimersByTimeAsync(1_000)
    expect(runs).toHaveLength(3)
  })

  it('runs once at a time: wake-ups during a run make one run more', async () => {
    const { runs, run } = heldRuns()
    const duty = start({ run })
    await vi.advanceTimersByTimeAsync(0)
    duty.wake()
    duty.wake()
    duty.wake()
    await vi.advanceTimersByTimeAsync(0)
    expect(runs).toHaveLength(1)
    runs[0]!.finish()
    await vi.advanceTimersByTimeAsync(0)
    expect(runs).toHaveLength(2)
    runs[1]!.finish()
    await vi.advanceTimersByTimeAsync(0)
    expect(runs).toHaveLength(2)
  })

  it('hands a wake-up to a run that asks for it, instead of running again', async () => {
    const { runs, run } = heldRuns()
    const duty = start({ run })
    await vi.advanceTimersByTimeAsync(0)
    expect(runs[0]!.duty.again()).toBe(false)
    duty.wake()
    expect(runs[0]!.duty.again()).toBe(true)
    expect(runs[0]!.duty.again()).toBe(false)
    runs[0]!.finish()
    await vi.advanceTimersByTimeAsync(0)
    expect(runs).toHaveLength(1)
  })

  it('logs a failed run with its name and tries again after the poll interval', async () => {
    const { runs, run } = heldRuns()
    start({ run, name: 'busy-calendar refresh', pollMs: 2_000 })
    await vi.advanceTimersByTimeAsync(0)
    const err = new Error('database gone')
    runs[0]!.finish(err)
    await vi.advanceTimersByTimeAsync(0)
    expect(log.error).toHaveBeenCalledExactlyOnceWith({ err }, 'busy-calendar refresh failed')
    await vi.advanceTimersByTimeAsync(1_999)
    expect(runs).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(runs).toHaveLength(2)
  })

  it('is due sooner when its work says so, and tells the run its alarm rang', async () => {
    const { runs, run } = heldRuns()
    const onAlarm = vi.fn()
    const duty = start({ run, onAlarm })
    await vi.advanceTimersByTimeAsync(0)
    runs[0]!.finish()
    duty.dueBy(Date.now() + 300)
    duty.wake()
    await vi.advanceTimersByTimeAsync(0)
    expect(onAlarm).not.toHaveBeenCalled()
    runs[1]!.finish()
    await vi.advanceTimersByTimeAsync(300)
    expect(onAlarm).toHaveBeenCalledTimes(1)
    expect(runs).toHaveLength(3)
  })

  it('stops: waits for the run in progress, which sees it, and runs no more', async () => {
    const { runs, run } = heldRuns()
    const duty = start({ run, pollMs: 1_000 })
    await vi.advanceTimersByTimeAsync(0)
    let stopped = false
    const stopping = duty.stop().then(() => (stopped = true))
    duty.wake()
    await vi.advanceTimersByTimeAsync(0)
    expect(stopped).toBe(false)
    expect(runs[0]!.duty.stopped).toBe(true)
    runs[0]!.finish()
    await stopping
    await vi.advanceTimersByTimeAsync(10_000)
    expect(runs).toHaveLength(1)
  })

  it('is idle once no run is in progress or asked for', async () => {
    const { runs, run } = heldRuns()
    const duty = start({ run })
    let idle = false
    void duty.idle().then(() => (idle = true))
    await vi.advanceTimersByTimeAsync(0)
    duty.wake()
    runs[0]!.finish()
    await vi.advanceTimersByTimeAsync(0)
    expect(idle).toBe(false)
    runs[1]!.finish()
    await vi.advanceTimersByTimeAsync(0)
    expect(idle).toBe(true)
  })

  it('gives each duty a lease owner of its own, naming host and process', () => {
    const { run } = heldRuns()
    const owners = [start({ run }).owner, start({ run }).owner]
    expect(new Set(owners).size).toBe(2)
    for (const owner of owners)
      expect(owner).toMatch(new RegExp(`^${hostname()}:${process.pid}:[0-9a-f]{8}$`))
  })
})
