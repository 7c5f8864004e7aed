// The notification outbox: one row per mail a change causes, written in the change's transaction and sent
// afterwards by the dispatcher's process under a row lease (as webhook deliveries are). Reminders are rows
// due before their game; opt-outs are (address, kind) pairs; unsubscribe tokens are kept as SHA-256 only,
// each scoped to one address and one kind.
import type { CreateTableBuilder, Kysely } from 'kysely'
import { sql } from 'kysely'
import { isPostgres } from '../dialect.js'

export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = isPostgres(db)
  const table = (name: string) => withSeq(db.schema.createTable(name), pg)

  await table('notifications')
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text')
    .addColumn('league_id', 'text', (c) => c.notNull())
    .addColumn('game_id', 'text')
    .addColumn('position_id', 'text')
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('due_at', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'text')
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'text')
    .execute()
  await db.schema.createIndex('notifications_due').on('notifications').columns(['status', 'due_at']).execute()
  // Reminders are found by game to move or drop them; the Schedule's marks and the league's turnbacks by
  // position and league.
  await db.schema.createIndex('notifications_game').on('notifications').columns(['game_id', 'kind']).execute()
  await db.schema.createIndex('notifications_position').on('notifications').column('position_id').execute()
  await db.schema
    .createIndex('notifications_league_kind')
    .on('notifications')
    .columns(['league_id', 'kind', 'created_at'])
    .execute()

  await table('notification_optouts')
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('notification_optouts_email_kind', ['email', 'kind'])
    .execute()

  await table('unsubscribe_tokens')
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute()
}

function withSeq(builder: CreateTableBuilder<string, never>, pg: boolean) {
  return pg
    ? builder.addColumn('seq', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    : builder.addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const name of ['unsubscribe_tokens', 'notification_optouts', 'notifications']) {
    await sql`drop table if exists ${sql.table(name)}`.execute(db)
  }
}
