// The SQLite checkpointer's thread (store/checkpoints.ts): a connection of its own that copies the WAL's
// committed pages into the database file every `intervalMs`. PASSIVE never waits for readers or writers
// and does nothing when the WAL holds no new frames. Plain JavaScript, so it loads from src/ and dist/ alike.
import { parentPort, workerData } from 'node:worker_threads'
import SQLite from 'better-sqlite3'

const { path, intervalMs } = /** @type {{ path: string, intervalMs: number }} */ (workerData)
const sqlite = new SQLite(path, { fileMustExist: true })
sqlite.pragma('synchronous = FULL')

/** Frames in the WAL, and how many of them are in the database file now. */
function checkpoint() {
  try {
    const [result] = /** @type {{ busy: number, log: number, checkpointed: number }[]} */ (
      sqlite.pragma('wal_checkpoint(PASSIVE)')
    )
    return { log: result?.log ?? 0, checkpointed: result?.checkpointed ?? 0 }
  } catch (error) {
    // Another process's thread is checkpointing the same file: the next tick tries again.
    if (/** @type {{ code?: string }} */ (error).code?.startsWith('SQLITE_BUSY'))
      return { log: 0, checkpointed: 0 }
    throw error
  }
}

const timer = setInterval(checkpoint, intervalMs)

parentPort?.on('message', (message) => {
  if (message === 'now') parentPort?.postMessage(checkpoint())
  else if (message === 'close') {
    clearInterval(timer)
    sqlite.close()
    parentPort?.close()
  }
})
