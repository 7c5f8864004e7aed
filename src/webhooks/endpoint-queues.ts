// What one dispatcher holds, per endpoint and per source: leased deliveries waiting to be sent and
// attempts in flight. The queues say how much room each endpoint and each source has for the next lease
// and which jobs may start now: round-robin over sources, then over each source's endpoints, so one
// source's slow or hanging endpoints hold at most its own share of the dispatcher (issue 21, item 1).
import type { DeliveryJob } from '../store/leases.js'

interface EndpointQueue {
  source: string
  waiting: DeliveryJob[]
  active: number
  /** The last lease found fewer due rows than this queue had room for. */
  drained: boolean
}

interface SourceShare {
  /** Its endpoints' queues, in the order they take turns. */
  queues: Map<string, EndpointQueue>
  active: number
}

export interface LeaseRoom {
  /** Free room per endpoint this dispatcher holds something of (negative when over capacity). */
  room: Map<string, number>
  /** Free room per source this dispatcher holds something of (likewise). */
  sourceRoom: Map<string, number>
  /** The sum of the positive rooms. */
  known: number
  /** A queue that has not run dry has drained to half its capacity: worth a lease. */
  lowQueue: boolean
}

export class EndpointQueues {
  private readonly queues = new Map<string, EndpointQueue>()
  /** Sources with queues, in the order they take turns: one that started an attempt goes last. */
  private readonly sources = new Map<string, SourceShare>()
  /** Leased jobs not yet started, over every endpoint. */
  waiting = 0
  /** Attempts holding a connection, over every endpoint. */
  sending = 0

  /**
   * The room per endpoint (`capacity`: its pace, or the default with no endpoint named) and per source: a
   * source holds `perSource` times as many rounds as its fastest endpoint's pace allows, so a source of
   * slow endpoints holds about what it may have in flight and a fast one still gets large batches.
   */
  room(capacity: (endpointId?: string) => number, perSource: number): LeaseRoom {
    const room = new Map<string, number>()
    const sourceRoom = new Map<string, number>()
    let known = 0
    let lowQueue = false
    for (const [source, share] of this.sources) {
      let rounds = 1
      let held = 0
      for (const [endpointId, queue] of share.queues) {
        const own = capacity(endpointId)
        const free = own - queue.waiting.length - queue.active
        room.set(endpointId, free)
        known += Math.max(free, 0)
        if (!queue.drained && free * 2 >= own) lowQueue = true
        rounds = Math.max(rounds, own / capacity())
        held += queue.waiting.length + queue.active
      }
      sourceRoom.set(source, Math.floor(perSource * rounds) - held)
    }
    return { room, sourceRoom, known, lowQueue }
  }

  /** Queues newly leased jobs; a queue that got less than its room has run dry. */
  add(jobs: readonly DeliveryJob[], room: ReadonlyMap<string, number>): void {
    const got = new Map<string, number>()
    for (const job of jobs) {
      this.queueOf(job.endpointId, job.source).waiting.push(job)
      this.waiting++
      got.set(job.endpointId, (got.get(job.endpointId) ?? 0) + 1)
    }
    for (const [endpointId, free] of room) {
      const queue = this.queues.get(endpointId)
      if (queue && free > 0) queue.drained = (got.get(endpointId) ?? 0) < free
    }
  }

  /**
   * Takes waiting jobs one at a time, source after source and, within a source, endpoint after endpoint,
   * while the source has fewer than `perSource` and the endpoint fewer than `perEndpoint` attempts active
   * and `mayStart()` holds; all are checked again after each job, so `begin` counts at once.
   */
  *startable(perEndpoint: number, perSource: number, mayStart: () => boolean): Generator<DeliveryJob> {
    let started = true
    while (started && mayStart()) {
      started = false
      for (const [source, share] of [...this.sources]) {
        if (!mayStart()) break
        if (share.active >= perSource) continue
        const queue = [...share.queues.values()].find((q) => q.waiting.length > 0 && q.active < perEndpoint)
        if (!queue) continue
        // The source and the endpoint that started go to the back of their turns.
        this.sources.delete(source)
        this.sources.set(source, share)
        const endpointId = queue.waiting[0]!.endpointId
        share.queues.delete(endpointId)
        share.queues.set(endpointId, queue)
        this.waiting--
        started = true
        yield queue.waiting.shift()!
      }
    }
    this.forgetIdle()
  }

  /** Counts a started attempt until the returned function is called (once). */
  begin(job: Pick<DeliveryJob, 'endpointId' | 'source'>): () => void {
    const queue = this.queueOf(job.endpointId, job.source)
    const share = this.sources.get(job.source)!
    queue.active++
    share.active++
    this.sending++
    let ended = false
    return () => {
      if (ended) return
      ended = true
      queue.active--
      share.active--
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
      if (queue.waiting.length > 0 || queue.active > 0 || !queue.drained) continue
      this.queues.delete(endpointId)
      const share = this.sources.get(queue.source)!
      share.queues.delete(endpointId)
      if (share.queues.size === 0) this.sources.delete(queue.source)
    }
  }

  private queueOf(endpointId: string, source: string): EndpointQueue {
    let queue = this.queues.get(endpointId)
    if (!queue) {
      queue = { source, waiting: [], active: 0, drained: false }
      this.queues.set(endpointId, queue)
      let share = this.sources.get(source)
      if (!share) this.sources.set(source, (share = { queues: new Map(), active: 0 }))
      share.queues.set(endpointId, queue)
    }
    return queue
  }
}
