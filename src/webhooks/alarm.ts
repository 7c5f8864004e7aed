// One timer that keeps the earliest of the times it is armed for: the dispatcher's next retry or poll.
import type { Clock } from '../clock.js'

export class Alarm {
  private timer: NodeJS.Timeout | undefined
  private at = Infinity
  private stopped = false

  constructor(
    private readonly clock: Clock,
    private readonly ring: () => void,
  ) {}

  /** Rings at `at` (epoch ms, on the clock) unless it is already set to ring earlier. */
  arm(at: number): void {
    if (this.stopped || at >= this.at) return
    clearTimeout(this.timer)
    this.at = at
    this.timer = setTimeout(
      () => {
        this.at = Infinity
        this.ring()
      },
      Math.max(0, at - this.clock.now()),
    )
  }

  stop(): void {
    this.stopped = true
    clearTimeout(this.timer)
  }
}
