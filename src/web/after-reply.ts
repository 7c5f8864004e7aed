// Work that must not delay an answer, nor show in how long it takes: the sign-in mail. A task is queued
// while the request is handled and starts only once the reply has gone out, so the answer costs the same
// whatever the task will find (an account or none). In process, a few at a time; a stopping server waits
// for the queue (onClose).
import type { FastifyReply } from 'fastify'

export interface AfterReply {
  /** Queues `task`; it starts once `reply` has been sent (or its connection closed). */
  defer(reply: FastifyReply, task: () => Promise<void>): void
  /** Resolves once every queued task has finished. */
  idle(): Promise<void>
}

/** Tasks running at once: mail goes out over a handful of SMTP connections, never a burst. */
const CONCURRENCY = 4

export function afterReplyQueue(onError: (error: unknown) => void): AfterReply {
  const waiting: (() => Promise<void>)[] = []
  const pending = new Set<Promise<void>>()
  let running = 0
  const next = () => {
    while (running < CONCURRENCY && waiting.length > 0) {
      const task = waiting.shift()!
      running++
      void task()
        .catch(onError)
        .finally(() => {
          running--
          next()
        })
    }
  }
  return {
    defer(reply, task) {
      const raw = reply.raw
      const done = new Promise<void>((resolve) => {
        const start = () => {
          raw.off('finish', start)
          raw.off('close', start)
          // After the I/O that ended the reply: the answer is out before the task's first statement.
          setImmediate(() => {
            waiting.push(() => task().finally(resolve))
            next()
          })
        }
        if (raw.writableFinished) start()
        else {
          raw.once('finish', start)
          raw.once('close', start)
        }
      })
      pending.add(done)
      void done.finally(() => pending.delete(done))
    },
    async idle() {
      while (pending.size > 0) await Promise.allSettled([...pending])
    },
  }
}
