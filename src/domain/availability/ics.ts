// A busy calendar's ICS text → the busy intervals it holds within a horizon. The parse and the expansion
// run in a thread of their own per feed (feed-worker.mjs), never on the event loop: one person's feed
// can neither stall every tenant nor leave its time-zone definitions to another's. The thread has a
// deadline, a heap cap and a budget of occurrences visited; past any of them the feed is refused.
import { Worker } from 'node:worker_threads'
import { iso, wallToInstant } from '../../time.js'

interface BusySpan {
  readonly startsAt: string
  readonly endsAt: string
}

interface Horizon {
  readonly from: number
  readonly to: number
  readonly timeZone: string
  /** The most intervals kept; a feed with more is cut at the earliest ones (docs/decisions.md). */
  readonly maxEvents: number
}

/**
 * What one feed may cost (docs/decisions.md). The budget of occurrences is the bound an honest feed
 * meets: a 1 MiB feed of 5,000 events takes about a second of CPU. The deadline is the backstop for rules
 * ical.js loops on, on real time (a timer, so generous for a loaded machine), not a business rule:
 * deps.clock does not apply. At most `threads` feeds are read at once in a process, so the threads take
 * at most that many cores and heaps whatever number of saves arrive together.
 */
const FEED_LIMITS = {
  /** Occurrences visited over every series, before the horizon included (a MINUTELY rule from 1990). */
  occurrences: 20_000,
  deadlineMs: 10_000,
  heapMb: 64,
  threads: 2,
} as const

/** The spans, or why the feed is refused: a class (`not_icalendar`, `too_many_occurrences`, …). */
export type FeedRead =
  { ok: true; spans: BusySpan[] } | { ok: false; error: string; readonly addressRefused?: true }

type Occurrence = [start: number, end: number, zone: string | null]
type Answer = { ok: true; occurrences: Occurrence[] } | { ok: false; error: string }

/** Wall clocks are read in their zone after the thread answers: it looks a day wider. */
const WALL_MARGIN_MS = 86_400_000

/** The busy spans of the feed overlapping [from, to), soonest first. */
export async function busySpans(text: string, horizon: Horizon): Promise<FeedRead> {
  const answer = await inTurn(() => expandInWorker(text, horizon))
  if (!answer.ok) return answer
  const spans: { s: number; e: number }[] = []
  for (const [start, end, zone] of answer.occurrences) {
    const s = zone === null ? start : wallToInstant(start, zone || horizon.timeZone)
    const e = Math.max(zone === null ? end : wallToInstant(end, zone || horizon.timeZone), s)
    if (s < horizon.to && (e > horizon.from || (e === s && s >= horizon.from))) spans.push({ s, e })
  }
  spans.sort((a, b) => a.s - b.s)
  return {
    ok: true,
    spans: spans.slice(0, horizon.maxEvents).map(({ s, e }) => ({
      startsAt: iso(s),
      endsAt: iso(e),
    })),
  }
}

let running = 0
const waiting: (() => void)[] = []

/** Runs `read` once fewer than FEED_LIMITS.threads feeds are being read, first come first served. */
async function inTurn<T>(read: () => Promise<T>): Promise<T> {
  if (running >= FEED_LIMITS.threads) await new Promise<void>((resolve) => waiting.push(resolve))
  else running++
  try {
    return await read()
  } finally {
    // The slot passes straight to the next in line, or is freed.
    const next = waiting.shift()
    if (next) next()
    else running--
  }
}

function expandInWorker(text: string, horizon: Horizon): Promise<Answer> {
  return new Promise((resolve) => {
    const worker = new Worker(new URL('./feed-worker.mjs', import.meta.url), {
      resourceLimits: { maxOldGenerationSizeMb: FEED_LIMITS.heapMb, maxYoungGenerationSizeMb: 16 },
    })
    const finish = (answer: Answer) => {
      clearTimeout(timer)
      worker.removeAllListeners()
      // Whatever the terminated thread still reports has no one waiting for it.
      worker.on('error', () => {})
      void worker.terminate()
      resolve(answer)
    }
    const timer = setTimeout(() => finish({ ok: false, error: 'too_slow' }), FEED_LIMITS.deadlineMs)
    worker.on('message', (answer: Answer) => finish(answer))
    worker.on('error', (error: NodeJS.ErrnoException) =>
      finish({ ok: false, error: error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'too_large' : 'unreadable' }),
    )
    worker.on('exit', () => finish({ ok: false, error: 'unreadable' }))
    worker.postMessage({
      text,
      from: horizon.from - WALL_MARGIN_MS,
      to: horizon.to + WALL_MARGIN_MS,
      budget: FEED_LIMITS.occurrences,
    })
  })
}
