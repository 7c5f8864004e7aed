// Group commit: items wait up to `windowMs` (or until `maxBatch` of them) and are written together, one
// write at a time. A SQLite commit blocks the event loop for its fsync; one per delivery attempt would cap
// a dispatcher at a few hundred deliveries a second.

export interface GroupCommitOptions {
  windowMs: number
  maxBatch: number
}

export interface GroupCommit<T, R> {
  /** Resolves with the item's result once the batch holding it is written; rejects if that write fails. */
  add(item: T): Promise<R>
}

export function groupCommit<T, R>(
  write: (items: T[]) => Promise<R[]>,
  { windowMs, maxBatch }: GroupCommitOptions,
): GroupCommit<T, R> {
  let queued: { item: T; settle: (result: R) => void; fail: (error: unknown) => void }[] = []
  let writing = false
  let timer: NodeJS.Timeout | undefined

  function schedule() {
    if (writing || queued.length === 0) return
    if (queued.length >= maxBatch) {
      clearTimeout(timer)
      timer = undefined
      void flush()
    } else {
      timer ??= setTimeout(() => {
        timer = undefined
        void flush()
      }, windowMs)
    }
  }

  async function flush() {
    if (writing) return
    writing = true
    const batch = queued
    queued = []
    try {
      const results = await write(batch.map((b) => b.item))
      batch.forEach((b, i) => b.settle(results[i]!))
    } catch (error) {
      for (const b of batch) b.fail(error)
    } finally {
      writing = false
      schedule()
    }
  }

  return {
    add: (item) =>
      new Promise<R>((settle, fail) => {
        queued.push({ item, settle, fail })
        schedule()
      }),
  }
}
