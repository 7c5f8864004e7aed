// Leagues' time zones by their canonical names (issue 36, item 12): a zone used to be stored as sent
// (`europe/berlin`), and is now stored as the runtime names it (`Europe/Berlin`). Rewrites each distinct
// stored name that differs, one statement per name: a handful, whatever the number of leagues.
import { sql, type Kysely } from 'kysely'

/** The runtime's name of the zone (what TimeZoneInput stores now); a name it does not know stays. */
function canonical(name: string): string {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone
  } catch {
    return name
  }
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{ time_zone: string }>`select distinct time_zone from leagues`.execute(db)
  for (const { time_zone: stored } of rows) {
    const name = canonical(stored)
    if (name !== stored)
      await sql`update leagues set time_zone = ${name} where time_zone = ${stored}`.execute(db)
  }
}

/** The names as sent are not kept: canonical names mean the same zones, so down leaves them. */
export async function down(): Promise<void> {}
