// SQLite copies its write-ahead log into the database file (a checkpoint) inside whichever commit finds the
// log over 1,000 pages: in the bench every third 500-game reschedule, whose commit then took 7–10 ms more,
// with the event loop and every other tenant's request waiting on it. A long-running process moves that
// work to a thread with a connection of its own and turns the inline checkpoints off; should the thread
// fail, they are turned back on, so the log never grows without bound.
import { Worker } from 'node:worker_threads'
import type SQLite from 'better-sqlite3'

/** How often the thread checkpoints: the log holds at most what commits in this time. */
const INTERVAL_MS = 100

/** SQLite's own threshold, restored when the thread is gone. */
const INLINE_PAGES = 1000

export interface Checkpoints {
  /** Checkpoints now; answers the log's frames and how many of them are in the database file. */
  now(): Promise<{ log: number; checkpointed: number }>
  close(): Promise<void>
}

export function checkpointInBackground(sqlite: SQLite.Database, path: string): Checkpoints {
  sqlite.pragma('wal_autocheckpoint = 0')
  const worker = new Worker(new URL('./checkpoint-worker.mjs', import.meta.url), {
    workerData: { path, intervalMs: INTERVAL_MS },
    // The process's own flags (a loader, `--input-type`) are not the thread's: it is plain JavaScript.
    execArgv: [],
  })
  worker.unref()
  let closing = false
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()))
  const inline = () => {
    if (sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${INLINE_PAGES}`)
  }
  worker.on('error', inline)
  worker.on('exit', () => {
    if (!closing) inline()
  })
  return {
    now: () =>
      new Promise((resolve, reject) => {
        const fail = (error: Error) => {
          worker.off('message', done)
          reject(error)
        }
        const done = (result: { log: number; checkpointed: number }) => {
          worker.off('error', fail)
          resolve(result)
        }
        worker.once('message', done)
        worker.once('error', fail)
        worker.postMessage('now')
      }),
    async close() {
      closing = true
      // Waited for: an unreferenced thread's exit would not keep the event loop alive to be seen.
      worker.ref()
      worker.postMessage('close')
      await exited
    },
  }
}
