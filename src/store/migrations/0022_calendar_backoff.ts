// A busy calendar whose reads fail or are slow is read less and less often (issue 36, item 2): the reads
// in a row that did, so the next waits 15 minutes × 2ⁿ (at most a day).
import type { Kysely } from 'kysely'

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('busy_calendars')
    .addColumn('failed_reads', 'integer', (col) => col.notNull().defaultTo(0))
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('busy_calendars').dropColumn('failed_reads').execute()
}
