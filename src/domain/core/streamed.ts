// Big lists written as they are read (issue 21 item 3): a result whose long lists are pages read from one
// snapshot as the HTTP adapter writes them, so a 10,000-game answer never lies in memory as objects, only
// as the bytes written so far. The snapshot stays open until the result is done.
import { openSnapshot, type Snapshot } from '../../store/league-pages.js'
import type { Kysely } from 'kysely'
import type { Db } from '../../store/tables.js'

/** A list given a page at a time, in order. */
export type Pages<T> = AsyncIterable<readonly T[]>

/** A result whose lists may be Pages, and what ends the snapshot they are read from (once, in a `finally`). */
export interface Streamed<T> {
  readonly result: T
  done(): Promise<void>
}

/** `build`'s result on a snapshot held open until the result is done (released at once if `build` fails). */
export async function fromSnapshot<T>(
  db: Kysely<Db>,
  build: (snapshot: Snapshot) => Promise<T>,
): Promise<Streamed<T>> {
  const lease = await openSnapshot(db)
  try {
    return { result: await build(lease.snapshot), done: () => lease.release() }
  } catch (error) {
    await lease.release()
    throw error
  }
}

/** The streamed result made whole by `collect` (its pages read into arrays), its snapshot then ended. */
export async function whole<T, W>(streamed: Streamed<T>, collect: (result: T) => Promise<W>): Promise<W> {
  try {
    return await collect(streamed.result)
  } finally {
    await streamed.done()
  }
}

/** Every page's items, in order. */
export async function collectPages<T>(pages: Pages<T>): Promise<T[]> {
  const items: T[] = []
  for await (const page of pages) for (const item of page) items.push(item)
  return items
}
