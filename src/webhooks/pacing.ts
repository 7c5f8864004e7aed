// Per-endpoint pacing: how many deliveries a dispatcher may hold for an endpoint (waiting plus in flight).
// As many as its connections can send within half a lease at its recent pace, so a slow endpoint gets no
// more than it can use and a fast one gets large batches from few lease statements.

/** An endpoint's queue holds at most this many times its concurrency of leased, unsent deliveries. */
export const MAX_BATCH_FACTOR = 128

/** Endpoints whose pace is remembered between their queues; older ones start afresh. */
const PACE_ENTRIES = 10_000

export class Pacing {
  /** Recent attempt time (ms, moving average) per endpoint, least recently updated first. */
  private readonly pace = new Map<string, number>()

  constructor(
    private readonly perEndpointConcurrency: number,
    private readonly leaseMs: number,
  ) {}

  /** Folds one attempt's duration into the endpoint's moving average. */
  observe(endpointId: string, tookMs: number): void {
    const average = this.pace.get(endpointId)
    this.pace.delete(endpointId)
    this.pace.set(endpointId, average === undefined ? tookMs : average * 0.8 + tookMs * 0.2)
    if (this.pace.size > PACE_ENTRIES) this.pace.delete(this.pace.keys().next().value!)
  }

  /** The endpoint's room; an endpoint of unknown pace (or none named) gets its concurrency. */
  capacity(endpointId?: string): number {
    const averageMs = endpointId === undefined ? undefined : this.pace.get(endpointId)
    if (averageMs === undefined) return this.perEndpointConcurrency
    const rounds = Math.floor(this.leaseMs / 2 / Math.max(averageMs, 1))
    return this.perEndpointConcurrency * Math.min(Math.max(rounds, 1), MAX_BATCH_FACTOR)
  }
}
