// The stores keep no plaintext secret (issue 21 items 7 and 11). A key was kept as its SHA-256 and its
// prefix (`key_` and 8 more characters); the spec says only a hash is stored, and `refdesk keys list`
// names keys by id and name, so the prefix column goes. Answers kept for Idempotency-Key replays of a
// webhook registration held the endpoint's signing secret; they now hold null in its place (a replay
// reads it from the endpoint), and this rewrites the ones kept before.
import type { Kysely } from 'kysely'

interface KeptRow {
  seq: number
  response_body: string
}

type Db = Kysely<{ idempotency_keys: KeptRow & { response_status: number | null } }>

export async function up(db: Kysely<unknown>): Promise<void> {
  // Both databases drop a column in place (SQLite since 3.35); nothing indexes or references it.
  await db.schema.alterTable('api_keys').dropColumn('prefix').execute()
  const kept = db as unknown as Db
  const rows = await kept
    .selectFrom('idempotency_keys')
    .select(['seq', 'response_body'])
    .where('response_status', '=', 201)
    .where('response_body', 'like', '%"secret":"sec_%')
    .execute()
  for (const row of rows) {
    const answer = JSON.parse(row.response_body) as { data?: { secret?: unknown } }
    if (answer.data?.secret === undefined) continue
    answer.data.secret = null
    await kept
      .updateTable('idempotency_keys')
      .set({ response_body: JSON.stringify(answer) })
      .where('seq', '=', row.seq)
      .execute()
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // The prefixes are gone for good: every key reads as one issued before prefixes were kept.
  await db.schema.alterTable('api_keys').addColumn('prefix', 'text').execute()
}
