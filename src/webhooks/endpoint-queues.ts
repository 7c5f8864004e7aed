// What one dispatcher holds, per endpoint: leased deliveries waiting to be sent and attempts in flight.
// The queues say how much room each endpoint has for the next lease and which jobs may start now.
import type { DeliveryJob } from '../store/leases.js'

interface EndpointQueue {
  waiting: DeliveryJob[]
  active: number
  /** The last lease found fewer due rows than this queue had room for. */
  drained: boolean
}

export interface LeaseRoom {
  /** Free room per endpoint this dispatcher holds something of (negative when over capacity). */
  room: Map<string, number>
  /** The sum of the positive rooms. */
  known: number
  /** A queue that has not run dry has drained to half its capacity: worth a lease. */
  lowQueue: boolean
}

export class EndpointQueues {
  private readonly queues = new Map<string, EndpointQueue>()
  /** Leased jobs not yet started, over every endpoint. */
  waiting = 0
  /** Attempts holding a connection, over every endpoint. */
  sending = 0

  room(capacity: (endpointId: string) => number): LeaseRoom {
    const room = new Map<string, number>()
    let known = 0
    let lowQueue = false
    for (const [endpointId, queue] of this.queues) {
      const free = capacity(endpointId) - queue.waiting.length - queue.active
      room.set(endpointId, free)
      known += Math.max(free, 0)
      if (!queue.drained && free * 2 >= capacity(endpointId)) lowQueue = true
    }
    return { room, known, lowQueue }
  }

  /** Queues newly leased jobs; a queue that got less than its room has run dry. */
  add(jobs: readonly DeliveryJob[], room: ReadonlyMap<string, number>): void {
    const got = new Map<string, number>()
    for (const job of jobs) {
      this.queueOf(job.endpointId).waiting.push(job)
      this.waiting++
      got.set(job.endpointId, (got.get(job.endpointId) ?? 0) + 1)
    }
    for (const [endpointId, free] of room) {
      const queue = this.queues.get(endpointId)
      if (queue && free > 0) queue.drained = (got.get(endpointId) ?? 0) < free
    }
  }

  /**
   * Takes waiting jobs, endpoint by endpoint, while the endpoint has fewer than `perEndpoint` attempts
   * active and `mayStart()` holds; both are checked again after each job, so `begin` counts at once.
   */
  *startable(perEndpoint: number, mayStart: () => boolean): Generator<DeliveryJob> {
    for (const queue of this.queues.values()) {
      while (queue.waiting.length > 0 && queue.active < perEndpoint && mayStart()) {
        this.waiting--
        yield queue.waiting.shift()!
      }
    }
    this.forgetIdle()
  }

  /** Counts a started attempt until the returned function is called (once). */
  begin(endpointId: string): () => void {
    const queue = this.queueOf(endpointId)
    queue.active++
    this.sending++
    let ended = false
    return () => {
      if (ended) return
      ended = true
      queue.active--
      this.sending--
    }
  }

  /** Every waiting job, removed (the dispatcher is stopping). */
  drain(): DeliveryJob[] {
    this.waiting = 0
    return [...this.queues.values()].flatMap((q) => q.waiting.splice(0))
  }

  // An idle queue is forgotten once a lease found nothing more for it; until then it keeps its room in
  // the next lease, so an endpoint with a backlog is leased again as soon as its queue runs dry.
  private forgetIdle(): void {
    for (const [endpointId, queue] of this.queues) {
      if (queue.waiting.length === 0 && queue.active === 0 && queue.drained) this.queues.delete(endpointId)
    }
  }

  private queueOf(endpointId: string): EndpointQueue {
    let queue = this.queues.get(endpointId)
    if (!queue) this.queues.set(endpointId, (queue = { waiting: [], active: 0, drained: false }))
    return queue
  }
}
